#!/bin/sh
# test-review-ipc.sh IRQSIM KERNELS_DIR CACHE: issue 28, our own bugs put
# into master's fastpath_call and fastpath_reply_recv. Each changes what
# the fastpath leaves on states the generators draw (reachable: the
# comments of check/target_call_entry.c and check/target_rr_entry.c):
#   call-head   fastpath_call links the old head of the caller's call stack
#               to the new reply with the head bit set (reply.c's
#               reply_push clears it): a caller that was itself called
#   call-badge  fastpath_call delivers the endpoint cap's badge with bit 0
#               set: every fast call with an even badge
#   rr-sc       fastpath_reply_recv no longer falls back for a caller that
#               holds an SC of its own (bound while it waited)
#   rr-reply    fastpath_reply_recv leaves the reply object naming the
#               caller instead of the server that now waits on it
# For each, on imx8mm-evk release:
#  - `irqsim review` of the tree against master: exit 1, a new kind on the
#    target whose fastpath changed, nothing new on the other targets;
#  - `irqsim fuzz --real` of the tree's build on that target: exit 1 with
#    at least one kind that no known defect explains (unmodified master's
#    divergences on these targets are all C1-C3 / R1-R3, validate-ipc.sh).
# Exit 77 (CTest: skipped) without the tarball or a prerequisite of the
# kernel's build.
# SPDX-License-Identifier: BSD-2-Clause
irqsim=$1 kernels=$2 cache=$3
master=$kernels/seL4-1326364bc.tar.gz
. "$(dirname "$0")/review-test-lib.sh"
rt_need "$master"

# mutant NAME TARGET RANGE FROM TO
mutant() {
    name=$1 target=$2
    tree=$(rt_tree "$name" "$master")
    rt_sub "$tree/src/fastpath/fastpath.c" "$3" "$4" "$5"
    rt_review "$name" 1 --sel4 "$tree" --baseline "$master" --configs imx8mm-evk:release --checks 2000 || return
    python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['configs'][0]; t=sys.argv[2]
new=[k for k in c['kinds'] if k['new']]
sys.exit(0 if new and all(k['target'] == t for k in new) else 1)" "$tmp/$name.json" "$target" ||
        { bad "$name: no new kind on $target, or one on another target"; return; }
    ok "$name: review: new on $target only"
    b=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['configs'][0]['tree']['build'])" \
        "$tmp/$name.json")
    "$irqsim" fuzz --real "$b" --target "$target" --checks 5000 --seed 1 >"$tmp/$name.fuzz" 2>&1
    rc=$?
    kinds=$(grep '^kinds:' "$tmp/$name.fuzz")
    [ $rc = 1 ] && echo "$kinds" | grep -qE '^kinds: [0-9]+ \([1-9][0-9]* unexplained' &&
        ok "$name: fuzz --real --target $target: exit 1, $kinds" ||
        { bad "$name: fuzz --real --target $target: exit $rc, $kinds"; tail -5 "$tmp/$name.fuzz"; }
}

call='/^void NORETURN fastpath_call(/,/^void NORETURN fastpath_reply_recv(/'
rr='/^void NORETURN fastpath_reply_recv(/,/^void NORETURN fastpath_signal(/'
mutant call-head call "$call" 'old_caller->replyNext = call_stack_new(REPLY_REF(reply), false);' \
    'old_caller->replyNext = call_stack_new(REPLY_REF(reply), true);'
mutant call-badge call "$call" 'badge = cap_endpoint_cap_get_capEPBadge(ep_cap);' \
    'badge = cap_endpoint_cap_get_capEPBadge(ep_cap) | 1;'
mutant rr-sc reply_recv "$rr" 'if (unlikely(caller->tcbSchedContext != NULL)) {' \
    'if (unlikely(caller->tcbSchedContext != NULL && 0)) {'
mutant rr-reply reply_recv "$rr" 'reply_ptr->replyTCB = NODE_STATE(ksCurThread);' \
    'reply_ptr->replyTCB = caller;'
exit $fail
