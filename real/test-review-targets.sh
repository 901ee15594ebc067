#!/bin/sh
# test-review-targets.sh IRQSIM KERNELS_DIR CACHE: issue 30 item 1, every
# target the tree has. `irqsim review` names, per configuration, each
# target (IRQ: fastpath_irq, signal: fastpath_signal) as present in the
# build or absent (kernel.info irq_fastpath, signal_fastpath) and whether
# it was reviewed; a target a build has that the review did not run is
# never passed over with "Nothing new" (exit 5, said on stderr, in the
# Markdown and the JSON); the signal target is reviewed as the IRQ one
# (the model and the real fastpath_signal against the real slowpath, the
# tree's paths against the baseline's).
#   1. master (1326364bc: fastpath_signal, no fastpath_irq) with one
#      behaviour-changing bug put into fastpath_signal (an active
#      notification's badge `|` made `&`), against master: new on the
#      signal target, exit 1 (it used to be "Nothing new", exit 0); its
#      first new signal reproducer reads back with check --real
#   2. master against itself: nothing new, exit 0, the IRQ target absent
#      (its slowpath reviewed), the signal target present and reviewed;
#      without a baseline: its fastpath_signal divergences all explained by
#      the known defects, exit 0
#   3. the PR head 2b302023d against itself: both targets present (it has
#      KernelSignalFastpath) and reviewed, exit 0
#   4. the PR head with KernelSignalFastpath renamed in its config.cmake (a
#      tree without the signal fastpath) against itself: the signal target
#      absent, "Nothing new", exit 0; against the PR head: the tree lost
#      the baseline's fastpath_signal, new, exit 1
# One configuration (imx8mm-evk, release), 2,000 states. Exit 77 (CTest:
# skipped) without the tarballs or a prerequisite of the kernel's build.
# SPDX-License-Identifier: BSD-2-Clause
irqsim=$1 kernels=$2 cache=$3
master=$kernels/seL4-1326364bc.tar.gz head=$kernels/seL4-2b302023d.tar.gz
. "$(dirname "$0")/review-test-lib.sh"
rt_need "$master" "$head"

# review NAME TREE BASELINE WANT [ARG...]
review() {
    name=$1 tree=$2 base=$3 want=$4
    shift 4
    rt_review "$name" "$want" --sel4 "$tree" --baseline "$base" --configs imx8mm-evk:release --checks 2000 "$@"
}

# targets NAME IRQ SIGNAL CALL REPLY_RECV: the JSON's targets, each
# "present/reviewed" as true/false pairs ("true/false": present, not
# reviewed); every build here has fastpath_call and fastpath_reply_recv
# (KernelFastpath, on by default)
targets() {
    got=$(python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['configs'][0]
print(' '.join('%s/%s' % (str(t['present']).lower(), str(t['reviewed']).lower()) for t in c['targets']))" "$tmp/$1.json")
    [ "$got" = "$2 $3 $4 $5" ] ||
        { bad "$1: targets irq, signal, call, reply_recv: $got, expected $2 $3 $4 $5"; return 1; }
    echo "ok   $1: targets irq $2, signal $3, call $4, reply_recv $5 (present/reviewed)"
}

# json NAME PYTHON-EXPRESSION MESSAGE: the expression holds on the JSON (c its one configuration)
json() {
    python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['configs'][0]; sys.exit(0 if ($2) else 1)" \
        "$tmp/$1.json" || { bad "$1: $3"; return 1; }
    echo "ok   $1: $3"
}

sig=$(rt_tree sig "$master")
rt_sub "$sig/src/fastpath/fastpath.c" '1,$' 'badge | notification_ptr_get_ntfnMsgIdentifier' \
    'badge & notification_ptr_get_ntfnMsgIdentifier'
review sig "$sig" "$master" 1 --out "$tmp/sig-out" && targets sig false/true true/true true/true true/true &&
    json sig "[k for k in c['kinds'] if k['new'] and k['target'] == 'signal' and k['check'] == 'fastpath-vs-baseline']" \
        "the tree's fastpath_signal against the baseline's is new" &&
    json sig "not [k for k in c['kinds'] if k['new'] and k['target'] == 'irq'] and c['changed']['slowpath'] == 0" \
        "nothing new on the IRQ target" &&
    json sig "c['targets'][1]['unexplained'][0] > 0 == c['targets'][1]['unexplained'][1]" \
        "unexplained fastpath_signal divergences on the tree only" && {
    r=$(python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['configs'][0]
print([k for k in c['kinds'] if k['new'] and k['target'] == 'signal'][0]['reproducer'])" "$tmp/sig.json")
    b=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['configs'][0]['tree']['build'])" "$tmp/sig.json")
    "$irqsim" check --real "$b" "$r" >"$tmp/check.out" 2>&1
    rc=$?
    [ $rc = 1 ] && grep -q "fastpath_signal" "$tmp/check.out" &&
        echo "ok   sig: its first signal reproducer reads back on the tree's build: check --real exit 1" ||
        { bad "sig: check --real on $r: exit $rc"; tail -3 "$tmp/check.out"; }
}

review master "$master" "$master" 0 && targets master false/true true/true true/true true/true &&
    { grep -qF 'IRQ (`fastpath_irq`): absent, reviewed (its slowpath)' "$tmp/master.md" &&
        grep -qF "**Nothing new**" "$tmp/master.md" && echo "ok   master: the IRQ target named absent, Nothing new" ||
        bad "master: the IRQ target not named absent"; }

review head "$head" "$head" 0 && targets head true/true true/true true/true true/true
# without a baseline: master's fastpath_signal divergences are its known
# defects (S1-S6), none unexplained: nothing new
"$irqsim" review --sel4 "$master" --configs imx8mm-evk:release --checks 2000 --cache "$cache" --quiet \
    -o "$tmp/known.md" --json "$tmp/known.json" >"$tmp/known.out" 2>"$tmp/known.err"
rc=$?
[ $rc = 0 ] && json known "c['targets'][1]['diverged'][0] > 0 and c['targets'][1]['unexplained'][0] == 0" \
    "master without a baseline: exit 0, its fastpath_signal divergences all explained" ||
    bad "known: exit $rc"
for n in sig master head; do
    ! grep -q "not reviewed" "$tmp/$n.md" "$tmp/$n.err" 2>/dev/null || bad "$n: a target not reviewed"
done
# a tree without the signal fastpath: the PR head with its option renamed
# (build-kernel.sh turns on KernelSignalFastpath only where the tree has it)
nosig=$(rt_tree nosig "$head")
f=$nosig/config.cmake
grep -q 'KernelSignalFastpath SIGNAL_FASTPATH' "$f" || { echo "FAIL: no KernelSignalFastpath in $f"; exit 1; }
sed -i 's/KernelSignalFastpath/KernelNtfnFastpathGone/g' "$f"
review nosig "$nosig" "$nosig" 0 && targets nosig true/true false/false true/true true/true && {
    grep -qF 'signal (`fastpath_signal`): absent' "$tmp/nosig.md" && grep -qF "**Nothing new**" "$tmp/nosig.md" &&
        ! grep -q "not reviewed" "$tmp/nosig.md" "$tmp/nosig.err" &&
        echo "ok   nosig: the signal target named absent, Nothing new" ||
        bad "nosig: the signal target not named absent, or no plain Nothing new"
}
# against the PR head, which has it: the tree lost the baseline's fastpath_signal
review lostsig "$nosig" "$head" 1 && targets lostsig true/true false/true true/true true/true &&
    { grep -qF "present in the baseline's build only" "$tmp/lostsig.md" &&
        grep -qF "the tree lost the baseline's fastpath_signal" "$tmp/lostsig.md" &&
        echo "ok   lostsig: present in the baseline's build only, lost: new" || bad "lostsig: not said it was lost"; }
exit $fail
