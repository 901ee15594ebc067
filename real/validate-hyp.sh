#!/bin/sh
# validate-hyp.sh BUILD IRQSIM RK_HYP CHECKS: a hypervisor build
# (-D KernelArmHypervisorSupport=ON, run-real-test.sh's ",hyp") against the
# model. kernel.info says hyp=1 and the model takes it (validate's
# situations: hyp on every check); `irqsim validate --real BUILD --checks
# CHECKS` has no mismatch, for the interrupt and, on a build with the
# signal fastpath, for seL4_Signal; and the VMIDs were exercised, not
# assumed: rk_hyp on CHECKS states finds every VMID rule held and saw the
# slowpath give threads without a valid VMID a fresh one and, on a build
# with fastpath_irq, that fastpath fall back on an invalid VMID and switch
# with a stored one (rk_hyp exits 1 when a case was never seen). The states
# have VCPU threads (rk_gen_state): on a tree before 6dbe58ef0 the known
# VCPU fault bug is reported and nothing else (below).
# SPDX-License-Identifier: BSD-2-Clause
build=$1 irqsim=$2 rk_hyp=$3 checks=$4
grep -qx 'hyp=1' "$build/kernel.info" || { echo "$build: not a hypervisor build (kernel.info)"; exit 1; }
targets=irq
grep -qx 'signal_fastpath=1' "$build/kernel.info" && targets="irq signal"
# a tree before 6dbe58ef0 ("Fix VGIC and VPPI maintenance handling"): its
# VPPIEvent and VGICMaintenance test only tcbQueued, and the real kernel
# faults a thread the IRQ entry's budget check moved to the release queue
# or blocked on its timeout fault: the invariants thread, current and
# ready_queue break, the model's outcome (that tree's checks) breaking
# them too, and a debug kernel halts on isRunnable or on the donated SC's
# refill (known findings, rk_diff.c); nothing else
old_vcpu=1
grep -q '^model_features=.*VCPU_FAULT_SCHEDULABLE' "$build/kernel.info" && old_vcpu=0
for t in $targets; do
    out=$("$irqsim" validate --real "$build" --target "$t" --checks "$checks" --quiet)
    rc=$?
    echo "$out" | grep -E '^validate|mismatch|^rk_signal|fastpath finished|^  known|broke|^ +[0-9]+ +[a-z_]+ after'
    if [ $old_vcpu = 1 ] && [ "$t" = irq ]; then
        [ $rc = 1 ] || { echo "validate --real --target $t: exit $rc, expected 1 (the trees' VCPU fault bug)"; exit 1; }
        echo "$out" | grep -q 'KERNEL INVARIANT BROKEN' || { echo "the trees' VCPU fault bug not reported"; exit 1; }
        echo "$out" | grep -E '^ +[0-9]+ +[a-z_]+ after' | grep -vE '^ +[0-9]+ +(thread|current|ready_queue|fault) after .*\(the model.s outcome breaks it too\)' |
            grep . && { echo "a broken invariant the model does not share, or another invariant"; exit 1; }
    else
        [ $rc = 0 ] || { echo "validate --real --target $t: exit $rc"; echo "$out" | head -40; exit 1; }
    fi
    echo "$out" | grep -q ' 0 unexplained mismatches\| 0 mismatches' ||
        { echo "validate --real --target $t: no '0 mismatches' line"; exit 1; }
    if [ "$t" = irq ]; then
        echo "$out" | grep -q 'hyp 100.00%' || { echo "validate --real: the model did not take hyp on every check"; exit 1; }
    fi
done
"$rk_hyp" "$build" "$checks" || { echo "rk_hyp: exit $?"; exit 1; }
exit 0
