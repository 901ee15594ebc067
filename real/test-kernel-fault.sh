#!/bin/sh
# test-kernel-fault.sh IRQSIM KERNELS_DIR CACHE: a tree whose own C faults
# (a wild store, as a NULL dereference does: seL4's d26f1ff4d fixed one in
# invokeVCPUInjectIRQ) is a finding, never a crash of irqsim. Master
# 1326364bc (imx8mm-evk release) with a store to a low address put into
# sendSignal for odd badges: the interrupt entries and the system calls
# that signal an odd badge fault there, the others run on.
#   - validate --real exits 1; the faulting entries are real-kernel halts
#     whose text names the signal and the function (KERNEL FAULT, SIGSEGV,
#     sendSignal+0x...); every state of both passes was run (the run went
#     on after a fault: 3,000 interrupt entries, 750 system calls);
#   - the reproducer it saves of each kind is read back by check --real,
#     which halts the same way, exit 1;
#   - review of that tree against master: exit 1, the halts new, one defect
#     per target, each named by the function (KERNEL FAULT in sendSignal);
#   - the clean master tree: no halt, exit 0;
#   - an endless loop put there instead (badge 3 only, IRQSIM_HANG_SECONDS=1):
#     those entries end as KERNEL HANG naming sendSignal, exit 1, and the
#     run completes.
# Exit 77 (CTest: skipped) without the tarball or a prerequisite.
# SPDX-License-Identifier: BSD-2-Clause
irqsim=$1 kernels=$2 cache=$3
tarball=$kernels/seL4-1326364bc.tar.gz
. "$(dirname "$0")/review-test-lib.sh"
rt_need "$tarball"

tree=$(rt_tree fault "$tarball")
rt_sub "$tree/src/object/notification.c" '/^void sendSignal(/,/^}/' \
    '    switch (notification_ptr_get_state(ntfnPtr)) {' \
    '    if (badge & 1) { *(volatile word_t *)(badge & 8) = 0; } switch (notification_ptr_get_state(ntfnPtr)) {'
grep -q 'if (badge & 1)' "$tree/src/object/notification.c" || { bad "the fault was not put into sendSignal"; exit 1; }
buggy=$(rt_kbuild "$tree") || { rc=$?; echo "$buggy"; exit $rc; }
clean=$(rt_kbuild "$tarball") || { rc=$?; echo "$clean"; exit $rc; }

"$irqsim" validate --real "$buggy" --checks 3000 --seed 1 --quiet --out "$tmp/out" >"$tmp/v.out" 2>&1
rc=$?
[ $rc = 1 ] && ok "faulting tree: validate exit 1" || bad "faulting tree: validate exit $rc, expected 1"
grep -q "KERNEL FAULT in sendSignal: the kernel's code raised SIGSEGV" "$tmp/v.out" &&
    grep -q '^hk: at sendSignal+0x[0-9a-f]*, accessing address 0x' "$tmp/v.out" &&
    ok "the halt names the signal and sendSignal" || { bad "no KERNEL FAULT text naming sendSignal"; head -20 "$tmp/v.out"; }
grep -q '^validate: 3000 states' "$tmp/v.out" && grep -q '^validate, system calls: 750 in' "$tmp/v.out" &&
    ok "every state run after the faults" || { bad "the run did not go on"; grep '^validate' "$tmp/v.out"; }
halts=$(sed -n 's/.*unexplained mismatches; \([0-9]*\) real-kernel halts.*/\1/p' "$tmp/v.out")
[ "${halts:-0}" -gt 0 ] && [ "$halts" -lt 3000 ] && ok "$halts of 3000 interrupt entries halted (the odd badges)" ||
    bad "interrupt entries halted: '$halts'"
for repro in "$tmp"/out/validate-*.scen "$tmp"/out/syscalls/validate-*.scen; do
    [ -f "$repro" ] || { bad "no reproducer $repro"; continue; }
    out=$("$irqsim" check --real "$buggy" "$repro" 2>&1)
    rc=$?
    if [ $rc = 1 ] && echo "$out" | grep -q 'verdict: the real kernel halted in the slowpath: hk: KERNEL FAULT'; then
        ok "check --real $(basename "$(dirname "$repro")")/$(basename "$repro"): the fault again, exit 1"
    else
        bad "check --real $repro: exit $rc"; echo "$out" | tail -3
    fi
done
"$irqsim" validate --real "$clean" --checks 3000 --seed 1 --quiet >"$tmp/c.out" 2>&1
rc=$?
[ $rc = 0 ] && ! grep -q 'KERNEL FAULT' "$tmp/c.out" && ok "clean master: exit 0, no fault" ||
    bad "clean master: exit $rc"
rt_review review 1 --sel4 "$tree" --baseline "$tarball" --configs imx8mm-evk:release --checks 3000 &&
    python3 -c "
import json, sys
c = json.load(open(sys.argv[1]))['configs'][0]
new = [k for k in c['kinds'] if k['new']]
sys.exit(0 if new and all('KERNEL FAULT in sendSignal' in json.dumps(k) for k in new) else 1)" "$tmp/review.json" &&
    grep -q '^irqsim review: what is new, by defect (3 groups' "$tmp/review.out" &&
    ok "review: the faults new, 3 defects (one per target), each KERNEL FAULT in sendSignal" ||
    { bad "review: the faults not grouped by function"; head -5 "$tmp/review.out"; }

tree=$(rt_tree hang "$tarball")
rt_sub "$tree/src/object/notification.c" '/^void sendSignal(/,/^}/' \
    '    switch (notification_ptr_get_state(ntfnPtr)) {' \
    '    while (badge == 3) { __asm__ volatile(""); } switch (notification_ptr_get_state(ntfnPtr)) {'
hang=$(rt_kbuild "$tree") || { rc=$?; echo "$hang"; exit $rc; }
IRQSIM_HANG_SECONDS=1 "$irqsim" validate --real "$hang" --checks 400 --seed 1 --quiet >"$tmp/h.out" 2>&1
rc=$?
n=$(sed -n 's/.*unexplained mismatches; \([0-9]*\) real-kernel halts.*/\1/p' "$tmp/h.out")
if [ $rc = 1 ] && [ "${n:-0}" -gt 0 ] && grep -q 'KERNEL HANG in sendSignal: the entry ran at least 1 s of CPU time' "$tmp/h.out" &&
    grep -q '^hk: at sendSignal+0x' "$tmp/h.out" &&
    grep -q "^validate, system calls: 100 in" "$tmp/h.out"; then
    ok "endless loop: $n of 400 interrupt entries hang, ended in sendSignal; the run completed, exit 1"
else
    bad "endless loop: exit $rc, $n halts"; head -12 "$tmp/h.out"
fi
exit $fail
