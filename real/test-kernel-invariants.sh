#!/bin/sh
# test-kernel-invariants.sh IRQSIM KERNELS_DIR CACHE: issue 29 item 2, the
# real kernel's outcomes held to irqsim's exit invariants.
#   1. PR #1227's head (2b302023d), imx8mm-evk release: `fuzz --real` and
#      `validate --real` hold every outcome of the kernel to the exit
#      invariants (what the fastpath as written leaves, its defects F1-F9,
#      admitted on it); none breaks one (the outcomes counted). fuzz
#      exits 1 there (the fastpath's divergences), validate 0.
#   2. the same tree with a bug put into schedule() (src/kernel/thread.c): its
#      last word on the scheduler action keeps ChooseNewThread, so a
#      slowpath that chose a thread returns to user level with the action
#      still pending (schedule() ends every slowpath with
#      ResumeCurrentThread, thread.c:398 at 2b302023d). Both real paths
#      run the same schedule(), so the two agree (no divergence names
#      it); only the invariant sees it: `fuzz --real` exits 1 with
#      KERNEL INVARIANT BROKEN, names the invariant and saves a
#      reproducer (--out) that `irqsim check` reads back; `irqsim review`
#      of that tree without a baseline exits 1 with the invariant's kind
#      among the new ones (and the clean tree's review breaks none).
# One configuration, 3,000 states. Exit 77 (CTest: skipped) without the
# tarball or a prerequisite of the kernel's build.
# SPDX-License-Identifier: BSD-2-Clause
irqsim=$1 kernels=$2 cache=$3
head=$kernels/seL4-2b302023d.tar.gz
. "$(dirname "$0")/review-test-lib.sh"
rt_need "$head"

# build NAME TREE: the build folder of TREE (a tarball or a folder) on stdout
build() {
    b=$("$irqsim" kernel build --sel4 "$2" --board imx8mm-evk --cache "$cache" --quiet 2>"$tmp/$1.err" | tail -1)
    rc=$?
    grep -q "cannot be built here" "$tmp/$1.err" && { echo "SKIP: $(tail -1 "$tmp/$1.err")"; exit 77; }
    [ -d "$b" ] || { echo "FAIL: $1: kernel build: $(tail -3 "$tmp/$1.err")"; exit 1; }
    echo "$b"
}

clean=$(build clean "$head")
for cmd in fuzz validate; do
    "$irqsim" $cmd --real "$clean" --checks 3000 --seed 1 >"$tmp/clean-$cmd.out" 2>&1
    rc=$?
    line=$(grep 'exit invariants on the real kernel' "$tmp/clean-$cmd.out")
    want=0; [ $cmd = fuzz ] && want=1 # the PR's fastpath diverges (F1-F9)
    case $line in
    *" 0 broke one"*) [ $rc = $want ] && ok "clean $cmd: exit $rc; $line" || bad "clean $cmd: exit $rc" ;;
    *) bad "clean $cmd: exit $rc, $line"; tail -5 "$tmp/clean-$cmd.out" ;;
    esac
done

tree=$(rt_tree bug "$head")
rt_sub "$tree/src/kernel/thread.c" '/^void schedule(void)/,/^}/' \
    '    NODE_STATE(ksSchedulerAction) = SchedulerAction_ResumeCurrentThread;' \
    '    if (NODE_STATE(ksSchedulerAction) != SchedulerAction_ChooseNewThread) NODE_STATE(ksSchedulerAction) = SchedulerAction_ResumeCurrentThread;'
buggy=$(build bug "$tree")
"$irqsim" fuzz --real "$buggy" --checks 3000 --seed 1 --out "$tmp/out" >"$tmp/bug.out" 2>&1
rc=$?
[ $rc = 1 ] || bad "bug: fuzz --real exit $rc, expected 1"
grep -q 'KERNEL INVARIANT BROKEN' "$tmp/bug.out" || bad "bug: no KERNEL INVARIANT BROKEN"
grep -q 'outcome breaks invariant [a-z_]* at exit:.*ChooseNewThread\|outcome breaks invariant [a-z_]* at exit:.*action' \
    "$tmp/bug.out" || { bad "bug: the broken invariant is not the scheduler action's"; grep -- '-- seed' "$tmp/bug.out" | head -3; }
repro=$(ls "$tmp/out"/fuzz-invariant-*.scen 2>/dev/null | head -1)
# check reads it back: exit 0 or 1 (the model's verdict on the state), not 2
[ -f "$repro" ] && { "$irqsim" check "$repro" >/dev/null 2>&1; [ $? -le 1 ]; }
if [ $? = 0 ]; then
    ok "bug: exit 1, KERNEL INVARIANT BROKEN, reproducer $(basename "$repro") read back"
else
    bad "bug: no reproducer, or irqsim check cannot read it ($repro)"
fi
# review, no baseline: the invariant's kind is new (no break is a known finding)
rt_review clean-review 0 --sel4 "$head" --configs imx8mm-evk:release --checks 500
python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['configs'][0]; sys.exit(0 if c['tree']['invariants']['checked'] > 0 and c['tree']['invariants']['broken'] == 0 else 1)" \
    "$tmp/clean-review.json" && ok "clean review: outcomes held, none broke one" || bad "clean review: invariants"
rt_review bug-review 1 --sel4 "$tree" --configs imx8mm-evk:release --checks 500
python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['configs'][0]; k=[k for k in c['kinds'] if k['check'].startswith('invariants-') and k['new']]; sys.exit(0 if k and c['tree']['invariants']['broken'] > 0 else 1)" \
    "$tmp/bug-review.json" && ok "bug review: the broken invariant is a new kind" || bad "bug review: no new invariant kind"
grep -q 'KERNEL INVARIANT BROKEN' "$tmp/bug-review.md" || bad "bug review: the report does not say KERNEL INVARIANT BROKEN"
exit $fail
