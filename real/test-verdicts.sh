#!/bin/sh
# test-verdicts.sh IRQSIM KERNELS_DIR CACHE: issue 32 on the real kernels.
#   1. review of the base tree (43607edb6, no fastpath_irq) against PR
#      #1227's head (which has it): the tree lost the baseline's fastpath,
#      exit 1 and said so (it used to be "Nothing new", exit 0, every
#      fastpath kind "gone or better"); the base against itself: exit 0
#   2. standard output: kernel build, validate --real and fuzz --real exit
#      4 on /dev/full and with standard output closed
#   3. review -o naming its tree: refused, exit 2, before any build
#   4. a tree whose own code does not compile, against the base: new
#      (exit 1); against a baseline that fails too: not new, exit 2
# One configuration (imx8mm-evk, release), 2,000 states. Exit 77 (CTest:
# skipped) without the tarballs or a prerequisite of the kernel's build.
# SPDX-License-Identifier: BSD-2-Clause
irqsim=$1 kernels=$2 cache=$3
head=$kernels/seL4-2b302023d.tar.gz base=$kernels/seL4-43607edb6.tar.gz
. "$(dirname "$0")/review-test-lib.sh"
rt_need "$head" "$base"

# review NAME TREE BASELINE WANT
review() {
    rt_review "$1" "$4" --sel4 "$2" --baseline "$3" --configs imx8mm-evk:release --checks 2000
}
review lost "$base" "$head" 1 && {
    grep -q "the tree lost the baseline's fastpath_irq on 1 of 1 configuration" "$tmp/lost.err" ||
        bad "lost: not said on stderr"
    grep -q "the tree lost the baseline's fastpath_irq" "$tmp/lost.md" || bad "lost: not said in the report"
    grep -q "Nothing new" "$tmp/lost.md" && bad "lost: the report says Nothing new"
    python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['configs'][0]; sys.exit(0 if c['lost_fastpath'] and c['new'] >= 1 else 1)" \
        "$tmp/lost.json" || bad "lost: the JSON does not say lost_fastpath"
    echo "ok   lost: said on stderr, in the report and the JSON"
}
review neither "$base" "$base" 0 &&
    python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['configs'][0]; sys.exit(0 if not c['lost_fastpath'] else 1)" \
        "$tmp/neither.json" || bad "neither: lost_fastpath on two trees without the fastpath"

# A tree whose own code does not compile: new where the baseline builds
# (exit 1, "the baseline does"); where the baseline fails too, not new and
# not judged (exit 2, as for a baseline that does not build), and never
# "the baseline does" (review used to say so without building it)
broken() { # NAME: the base with a C error of its own in faulthandler.c
    t=$(rt_tree "$1" "$base")
    rt_sub "$t/src/kernel/faulthandler.c" '1,$' 'bool_t sendFaultIPC(' 'bool_t sendFaultIPC(broken '
    echo "$t"
}
b1=$(broken broken1) b2=$(broken broken2)
review unbuilt "$b1" "$base" 1 &&
    { grep -q "the tree does not build\*\* on imx8mm-evk, release, 1 core, 1 domain (the baseline does" "$tmp/unbuilt.md" &&
        grep -q "the baseline builds" "$tmp/unbuilt.md" &&
        echo "ok   unbuilt: new where the baseline builds, said" || bad "unbuilt: not said in the report"; }
review bothunbuilt "$b1" "$b2" 2 &&
    { grep -q "the baseline does not build either" "$tmp/bothunbuilt.md" &&
        ! grep -q "(the baseline does" "$tmp/bothunbuilt.md" &&
        echo "ok   bothunbuilt: not new, and the report says the baseline fails too" ||
        bad "bothunbuilt: the report claims the baseline builds, or says nothing of it"; }

build=$("$irqsim" kernel build --sel4 "$head" --board imx8mm-evk --cache "$cache" 2>"$tmp/build.err")
rc=$?
[ $rc = 3 ] && { echo "SKIP: $(tail -1 "$tmp/build.err")"; exit 77; }
[ $rc = 0 ] || { echo "FAIL: kernel build: exit $rc"; tail -3 "$tmp/build.err"; exit 1; }
# full CMD...: exit 4 on /dev/full and closed, standard output named
full() {
    "$@" >/dev/full 2>"$tmp/full.err"
    rc=$?
    [ $rc = 4 ] && grep -q "cannot write standard output" "$tmp/full.err" ||
        { bad "exit $rc, not 4 naming standard output, on /dev/full: $*"; tail -2 "$tmp/full.err"; return; }
    "$@" >&- 2>"$tmp/full.err"
    rc=$?
    [ $rc = 4 ] && grep -q "cannot write standard output" "$tmp/full.err" ||
        { bad "exit $rc, not 4 naming standard output, closed: $*"; tail -2 "$tmp/full.err"; return; }
    echo "ok   exit 4 on /dev/full and closed: $*"
}
full "$irqsim" kernel build --sel4 "$head" --board imx8mm-evk --cache "$cache"
full "$irqsim" validate --real "$build" --checks 200 --quiet
full "$irqsim" fuzz --real "$build" --checks 200 --quiet

cp "$head" "$tmp/tree.tar.gz"
"$irqsim" review --sel4 "$tmp/tree.tar.gz" --configs imx8mm-evk:release --checks 10 --cache "$cache" \
    -o "$tmp/tree.tar.gz" >"$tmp/clobber.out" 2>&1
rc=$?
if [ $rc = 2 ] && cmp -s "$head" "$tmp/tree.tar.gz" && grep -q "is also an input" "$tmp/clobber.out"; then
    echo "ok   review -o naming its tree: refused, exit 2, the tree intact"
else
    bad "review -o naming its tree: exit $rc"; tail -2 "$tmp/clobber.out"
fi
exit $fail
