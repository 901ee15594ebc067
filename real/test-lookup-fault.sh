#!/bin/sh
# test-lookup-fault.sh IRQSIM KERNELS_DIR CACHE: a cap fault's lookup
# fault on the real kernel (tcbLookupFailure, which MCS's sendFaultIPC
# stores since c119df035 and which a fault handler reads back in the
# fault message), through --target reply_recv and --target call, whose
# callers are drawn with a fault handler:
#   - master 1326364bc (FAULT_LOOKUP_RECORDED probed) and the base
#     43607edb6 (not: its sendFaultIPC leaves the field, and so does the
#     model): 0 mismatches, exit 0;
#   - master whose lookupReply leaves current_lookup_fault as it was, as
#     seL4 did from c119df035 until 5d371316f ("mcs: fix missing cap
#     fault info in lookupReply"): mismatches of kind lookup_fault, the
#     model's "missing" against the kernel's stale value, exit 1, and
#     check --real of the reproducer says so again (exit 1), and so does
#     validate without --target (its system-call pass's SysReplyRecvs);
#   - master whose sendFaultIPC stores nothing, as before c119df035, at a
#     path with a caret: it builds, the probe sees it (kernel.info lacks
#     FAULT_LOOKUP_RECORDED) and the run agrees, exit 0.
# Exit 77 (CTest: skipped) without the tarballs or a prerequisite.
# SPDX-License-Identifier: BSD-2-Clause
irqsim=$1 kernels=$2 cache=$3
master=$kernels/seL4-1326364bc.tar.gz base=$kernels/seL4-43607edb6.tar.gz
. "$(dirname "$0")/review-test-lib.sh"
rt_need "$master" "$base"

# validate NAME BUILD TARGET: validate --real --target TARGET, 20,000 calls
validate() {
    "$irqsim" validate --real "$2" --target "$3" --checks 20000 --seed 1 --quiet --out "$tmp/$1.repro" \
        >"$tmp/$1.out" 2>&1
    rc=$?
}
clean() { # NAME BUILD TARGET
    validate "$@"
    if [ $rc = 0 ] && grep -q '^  0 mismatches in 0 kinds; 0 real-kernel halts' "$tmp/$1.out"; then
        ok "$1: 0 mismatches, exit 0"
    else
        bad "$1: exit $rc"; grep -B2 -A3 'mismatches in' "$tmp/$1.out"
    fi
}

mbuild=$(rt_kbuild "$master") || { echo "$mbuild"; exit 1; }
bbuild=$(rt_kbuild "$base") || { echo "$bbuild"; exit 1; }
grep -q '^model_features=.*FAULT_LOOKUP_RECORDED' "$mbuild/kernel.info" || grep -q '^features=.*HK_RELEASE_QUEUE' \
    "$mbuild/kernel.info" || bad "master: neither FAULT_LOOKUP_RECORDED nor master's row in kernel.info"
for tg in reply_recv call; do
    clean "master-$tg" "$mbuild" "$tg"
    clean "base-$tg" "$bbuild" "$tg"
done

# lookupReply as at c119df035: no current_lookup_fault for a reply cptr
# naming no reply cap
tree=$(rt_tree lookup-reply "$master")
rt_sub "$tree/src/api/syscall.c" '/^static inline lookupCap_ret_t lookupReply(/,/^}/' \
    '        current_lookup_fault = lookup_fault_missing_capability_new(0);' '        (void)0;'
build=$(rt_kbuild "$tree") || { echo "$build"; exit 1; }
validate lookup-reply "$build" reply_recv
repro=$(grep -l '^# .*lookup_fault' "$tmp"/lookup-reply.repro/*.scen 2>/dev/null | head -1)
if [ $rc = 1 ] && [ -n "$repro" ] &&
    grep -q 'tcbLookupFailure: slow missing, fast stale' "$tmp/lookup-reply.out"; then
    ok "lookupReply without the lookup fault: lookup_fault mismatches (missing against stale), exit 1"
    "$irqsim" check --real "$build" "$repro" >"$tmp/check.out" 2>&1
    crc=$?
    if [ $crc = 1 ] && grep -q 'tcbLookupFailure' "$tmp/check.out"; then
        ok "check --real of its reproducer: exit 1, tcbLookupFailure named"
    else
        bad "check --real of $repro: exit $crc"; tail -5 "$tmp/check.out"
    fi
else
    bad "lookupReply without the lookup fault: exit $rc, reproducer '$repro'"; grep -A5 'mismatches in' "$tmp/lookup-reply.out"
fi
# validate without --target: its system-call pass runs the SysReplyRecv
# slowpath too, and reports the bug there, its reproducer in syscalls-reply_recv
"$irqsim" validate --real "$build" --checks 8000 --seed 1 --quiet --out "$tmp/plain.repro" >"$tmp/plain.out" 2>&1
prc=$?
if [ $prc = 1 ] && ls "$tmp"/plain.repro/syscalls-reply_recv/*.scen >/dev/null 2>&1 &&
    grep -q 'tcbLookupFailure: slow missing, fast stale' "$tmp/plain.out"; then
    ok "validate without --target: the SysReplyRecv pass reports it, exit 1"
else
    bad "validate without --target: exit $prc"; grep -B1 -A4 'SysReplyRecv through' "$tmp/plain.out"
fi

# sendFaultIPC as before c119df035: the tree's own behaviour, probed (the
# tree at a path with a caret, as a `git archive c^` checkout is: CMake
# quotes such a path in its -I flags, which the build takes off)
tree=$(rt_tree 'no-record^' "$master")
rt_sub "$tree/src/kernel/faulthandler.c" '/^bool_t sendFaultIPC(/,/^}/' \
    '            tptr->tcbLookupFailure = current_lookup_fault;' '            (void)0;'
build=$(rt_kbuild "$tree") || { echo "$build"; exit 1; }
if grep -q '^model_features=' "$build/kernel.info" && ! grep -q 'FAULT_LOOKUP_RECORDED' "$build/kernel.info"; then
    ok "sendFaultIPC storing nothing: kernel.info's model_features lack FAULT_LOOKUP_RECORDED"
else
    bad "sendFaultIPC storing nothing: $(grep '^model_features=' "$build/kernel.info")"
fi
clean no-record-reply_recv "$build" reply_recv
exit $fail
