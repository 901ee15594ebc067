#!/bin/sh
# test-review-targets.sh IRQSIM KERNELS_DIR CACHE: issue 30 item 1, every
# target the tree has. `irqsim review` names, per configuration, each
# target (IRQ: fastpath_irq, signal: fastpath_signal) as present in the
# build or absent (kernel.info irq_fastpath, signal_fastpath) and whether
# it was reviewed; a target a build has that the review did not run is
# never passed over with "Nothing new" (exit 5, said on stderr, in the
# Markdown and the JSON).
#   1. master (1326364bc: fastpath_signal, no fastpath_irq) with one
#      behaviour-changing bug put into fastpath_signal (an active
#      notification's badge `|` made `&`), against master: the signal
#      target was not reviewed, exit 5 (it used to be "Nothing new", exit 0)
#   2. master against itself: exit 5, the IRQ target absent (its slowpath
#      reviewed), the signal target present and not reviewed
#   3. the PR head 2b302023d against itself: both targets present (it has
#      KernelSignalFastpath), exit 5
#   4. the PR head with KernelSignalFastpath renamed in its config.cmake (a
#      tree without the signal fastpath) against itself: the signal target
#      absent, "Nothing new", exit 0; against the PR head: the baseline's
#      signal target not reviewed, exit 5
# One configuration (imx8mm-evk, release), 2,000 states. Exit 77 (CTest:
# skipped) without the tarballs or a prerequisite of the kernel's build.
# SPDX-License-Identifier: BSD-2-Clause
irqsim=$1 kernels=$2 cache=$3
master=$kernels/seL4-1326364bc.tar.gz head=$kernels/seL4-2b302023d.tar.gz
for t in "$master" "$head"; do
    [ -f "$t" ] || { echo "SKIP: no $t (set IRQSIM_KERNELS_DIR)"; exit 77; }
done
export IRQSIM_KERNELS_DIR=$kernels
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL $*"; fail=1; }

# review NAME TREE BASELINE WANT [ARG...]
review() {
    name=$1 tree=$2 base=$3 want=$4
    shift 4
    "$irqsim" review --sel4 "$tree" --baseline "$base" --configs imx8mm-evk:release --checks 2000 --cache "$cache" \
        --quiet -o "$tmp/$name.md" --json "$tmp/$name.json" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    rc=$?
    [ $rc = 3 ] && { echo "SKIP: $(tail -1 "$tmp/$name.err")"; exit 77; }
    [ $rc = "$want" ] || { bad "$name: exit $rc, expected $want"; cat "$tmp/$name.out"; tail -3 "$tmp/$name.err"; return 1; }
    echo "ok   $name: exit $rc: $(cat "$tmp/$name.out")"
}

# targets NAME IRQ SIGNAL: the JSON's targets, each "present/reviewed" as
# true/false pairs ("true/false": present, not reviewed)
targets() {
    got=$(python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['configs'][0]
print(' '.join('%s/%s' % (str(t['present']).lower(), str(t['reviewed']).lower()) for t in c['targets']))" "$tmp/$1.json")
    [ "$got" = "$2 $3" ] || { bad "$1: targets irq, signal: $got, expected $2 $3"; return 1; }
    echo "ok   $1: targets irq $2, signal $3 (present/reviewed)"
}

# said NAME TEXT: TEXT in the Markdown and on stderr; never "**Nothing new**"
# (the report's verdict starts with a capital)
said() {
    grep -qiF "$2" "$tmp/$1.md" || { bad "$1: not in the report: $2"; return 1; }
    grep -qF "$2" "$tmp/$1.err" || { bad "$1: not on stderr: $2"; return 1; }
    ! grep -qF "**Nothing new**" "$tmp/$1.md" || { bad "$1: the report says Nothing new"; return 1; }
    echo "ok   $1: said in the report and on stderr: $2"
}

mkdir "$tmp/sig"
tar -xzf "$master" -C "$tmp/sig" || exit 1
f=$tmp/sig/seL4/src/fastpath/fastpath.c
[ "$(grep -c 'badge | notification_ptr_get_ntfnMsgIdentifier' "$f")" = 1 ] ||
    { echo "FAIL: no active notification's badge in fastpath_signal"; exit 1; }
sed -i 's/badge | notification_ptr_get_ntfnMsgIdentifier/badge \& notification_ptr_get_ntfnMsgIdentifier/' "$f"
review sig "$tmp/sig/seL4" "$master" 5 && targets sig false/true true/false &&
    said sig "nothing new on the IRQ target; the signal target was not reviewed"

review master "$master" "$master" 5 && targets master false/true true/false &&
    said master "the signal target was not reviewed" &&
    { grep -qF 'IRQ (`fastpath_irq`): absent' "$tmp/master.md" && echo "ok   master: the IRQ target named absent" ||
        bad "master: the IRQ target not named absent"; }

review head "$head" "$head" 5 && targets head true/true true/false && said head "the signal target was not reviewed"
# a tree without the signal fastpath: the PR head with its option renamed
# (build-kernel.sh turns on KernelSignalFastpath only where the tree has it)
mkdir "$tmp/nosig"
tar -xzf "$head" -C "$tmp/nosig" || exit 1
f=$tmp/nosig/seL4/config.cmake
grep -q 'KernelSignalFastpath SIGNAL_FASTPATH' "$f" || { echo "FAIL: no KernelSignalFastpath in $f"; exit 1; }
sed -i 's/KernelSignalFastpath/KernelNtfnFastpathGone/g' "$f"
review nosig "$tmp/nosig/seL4" "$tmp/nosig/seL4" 0 && targets nosig true/true false/false && {
    grep -qF 'signal (`fastpath_signal`): absent' "$tmp/nosig.md" && grep -qF "**Nothing new**" "$tmp/nosig.md" &&
        ! grep -q "not reviewed" "$tmp/nosig.md" "$tmp/nosig.err" &&
        echo "ok   nosig: the signal target named absent, Nothing new" ||
        bad "nosig: the signal target not named absent, or no plain Nothing new"
}
# against the PR head, which has it: the baseline's signal target not reviewed
review lostsig "$tmp/nosig/seL4" "$head" 5 && targets lostsig true/true false/false &&
    said lostsig "the signal target was not reviewed" &&
    { grep -qF "present in the baseline's build only" "$tmp/lostsig.md" &&
        echo "ok   lostsig: present in the baseline's build only" || bad "lostsig: not said whose build has it"; }
exit $fail
