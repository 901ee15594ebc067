#!/bin/sh
# test-hyp-vcpu.sh IRQSIM KERNELS_DIR CACHE: issue 29, the VCPU interrupt
# path on the real kernel (ABI 7; core 1's VCPU ABI 8; docs/REAL-KERNEL.md
# "The VCPU interrupt path"). On master's hypervisor build (imx8mm-evk, release; GICv3):
#  - `validate --real` (a hypervisor build's states have VCPU threads): the model (master's VPPIEvent and
#    VGICMaintenance, handleFault) agrees with the real kernel on every
#    state and no real outcome breaks an invariant (not vacuous: the
#    same seeds on the buggy tree below reach the faults);
#  - `kernel coverage`: every branch of VPPIEvent and VGICMaintenance
#    reached or argued;
#  - the same validate on two cores (with a VCPU loaded on core 1 in more
#    than 10% of the states), and with two domains (Arch_prepareNextDomain
#    flushes the VCPU at a domain's end, e558631c7: VCPU_FLUSH_AT_DOMAIN_END);
#  - master with that flush taken out (a tree before e558631c7): the probe
#    says so, the model of its own features agrees on every state, master's
#    model as a whole (--kernel master) does not;
# and master with the bug of the trees between 6dbe58ef0 and 232471e90 put
# back (VPPIEvent and VGICMaintenance without their tcbQueued test, so a
# round-robined current thread is sent its fault while it sits in a ready
# queue): the probe gives the model that tree's checks
# (VCPU_FAULT_UNQUEUED), and `validate --real` reports the kernel's
# outcome breaking an invariant (exit 1, KERNEL INVARIANT BROKEN): the
# thread handleFault blocked, or made Inactive without a fault handler, is
# left in its ready queue (`ready_queue`: a queued thread not schedulable;
# the next chooseThread halts a debug kernel on isSchedulable, thread.c:451).
# VCPU_InjectIRQ is drawn and agreed with on one and two cores, and master
# without d26f1ff4d's vcpuTCB test faults in it (a KERNEL FAULT, exit 1).
# Exit 77 (CTest: skipped) without the tarball or a prerequisite.
# SPDX-License-Identifier: BSD-2-Clause
irqsim=$1 kernels=$2 cache=$3
master=$kernels/seL4-1326364bc.tar.gz
. "$(dirname "$0")/review-test-lib.sh"
rt_need "$master"

build() {
    t=$1
    shift
    rt_kbuild "$t" -D KernelArmHypervisorSupport=ON "$@"
}

# clean NAME BUILD: validate --real agrees everywhere, no invariant breaks, faults sent
clean() {
    "$irqsim" validate --real "$2" --checks 20000 --quiet >"$tmp/$1.out" 2>&1
    rc=$?
    grep -E 'mismatches|broke' "$tmp/$1.out"
    [ $rc = 0 ] || { bad "$1: exit $rc"; tail -20 "$tmp/$1.out"; return; }
    grep -q ' 0 unexplained mismatches\| 0 mismatches' "$tmp/$1.out" || { bad "$1: mismatches"; return; }
    grep -q ', 0 broke one' "$tmp/$1.out" || { bad "$1: an invariant broke"; return; }
    ok "$1: 0 mismatches, no invariant broken"
}

# master from its tarball: the build's kernel.info names the unpacked
# source in the cache, which kernel coverage's instrumented build reads
m=$master
b1=$(build "$m")
clean master "$b1"
# kernel coverage: every branch of VPPIEvent and VGICMaintenance reached or
# argued (real/coverage-argued.txt), as the fastpaths' are
"$irqsim" kernel coverage "$b1" --seconds 10 >"$tmp/cov.out" 2>&1
rc=$?
grep -E '^\| \*\*(VPPIEvent|VGICMaintenance)' "$tmp/cov.out"
open=$(grep -E '^  unreached: (VPPIEvent|VGICMaintenance) ' "$tmp/cov.out")
[ $rc = 0 ] && [ -z "$open" ] && [ "$(grep -cE '^\| \*\*(VPPIEvent|VGICMaintenance)\*\* .* \| [1-9][0-9]* \|' "$tmp/cov.out")" = 2 ] &&
    ok "kernel coverage: VPPIEvent and VGICMaintenance entered, every branch reached or argued" ||
    { bad "kernel coverage (exit $rc): $open"; tail -5 "$tmp/cov.out"; }
b2=$(build "$m" --cores 2)
clean master-2cores "$b2"
# not vacuous on two cores: states with a VCPU loaded on core 1 (its
# armHSCurVCPU, which the bridge loads and reads back, ABI 8) were drawn
# and compared (situation vcpu_core1, gen_core1_vcpu in check/gen.c)
# VCPU_InjectIRQ drawn and agreed with, on the loaded VCPU, another, and
# (two cores) a VCPU of core 1 reached by the remote call
for run in master master-2cores; do
    grep -qE 'the cptr named:.* vcpu [1-9][0-9]* \(VCPU_InjectIRQ\)' "$tmp/$run.out" &&
        ok "$run: VCPU_InjectIRQ drawn, its outcomes agree" || bad "$run: no VCPU_InjectIRQ drawn"
done
share=$(sed -n 's/.*vcpu_core1 \([0-9.]*\)%.*/\1/p' "$tmp/master-2cores.out")
awk -v s="${share:-0}" 'BEGIN { exit !(s + 0 > 10) }' && ok "master-2cores: core 1's VCPU loaded in $share% of the states" ||
    bad "master-2cores: core 1's VCPU in ${share:-no}% of the states (vacuous)"

b3=$(build "$m" --domains 2)
grep -q 'VCPU_FLUSH_AT_DOMAIN_END' "$b3/kernel.info" && ok "master-2domains: VCPU_FLUSH_AT_DOMAIN_END probed" ||
    bad "master-2domains: the probe missed Arch_prepareNextDomain's vcpu_flush"
clean master-2domains "$b3"

noflush=$(rt_tree noflush "$master")
rt_sub "$noflush/src/arch/arm/kernel/thread.c" '1,$' 'vcpu_flush();' ';'
bn=$(build "$noflush" --domains 2)
grep -q 'VCPU_FLUSH_AT_DOMAIN_END' "$bn/kernel.info" && bad "noflush: the probe still finds the flush" ||
    ok "noflush: kernel.info model_features lacks VCPU_FLUSH_AT_DOMAIN_END"
clean noflush "$bn"
"$irqsim" validate --real "$bn" --checks 20000 --quiet --kernel master >"$tmp/whole.out" 2>&1
rc=$?
[ $rc = 1 ] && ok "noflush: master's model as a whole mismatches: $(grep -o '[0-9]* unexplained mismatches' "$tmp/whole.out")" ||
    bad "noflush: --kernel master exit $rc, expected 1 (the flush matters at a domain's end)"

bug=$(rt_tree bug "$master")
f=$bug/src/arch/arm/object/vcpu.c
n=$(grep -c 'thread_state_get_tcbQueued(NODE_STATE(ksCurThread)->tcbState) ||' "$f")
[ "$n" = 2 ] || { echo "FAIL: the tcbQueued tests in $f: $n, expected 2"; exit 1; }
sed -i 's/thread_state_get_tcbQueued(NODE_STATE(ksCurThread)->tcbState) ||//' "$f"
bb=$(build "$bug")
grep -q 'VCPU_FAULT_UNQUEUED' "$bb/kernel.info" && ok "bug: kernel.info model_features has VCPU_FAULT_UNQUEUED" ||
    bad "bug: the probe missed the tree's missing tcbQueued test"
"$irqsim" validate --real "$bb" --checks 20000 --quiet --out "$tmp/bugrep" >"$tmp/bug.out" 2>&1
rc=$?
grep -E 'mismatches|broke|^ +[0-9]+ +[a-z_]+ after' "$tmp/bug.out"
[ $rc = 1 ] && grep -q 'KERNEL INVARIANT BROKEN' "$tmp/bug.out" &&
    grep -qE '^ +[0-9]+ +(fault|ready_queue|thread) after' "$tmp/bug.out" &&
    ok "bug: the kernel's outcome breaks an invariant (a faulted or inactive thread left queued), exit 1" ||
    bad "bug: exit $rc, no broken invariant reported"
# the release kernel then halts in activateThread's fail("Current thread
# is blocked") (src/kernel/thread.c, assert.h: fail is halt() in release):
# the model's kernel fails the same (A_ACTIVATE_BLOCKED), so every halt is
# the kernel's own failed assertion, none an unexplained mismatch (the
# few mismatches left are in the ready queue the broken invariant names)
h=$(sed -n 's/.* \([0-9]*\) real-kernel halts, 0 of them known findings, \([0-9]*\) where.*/\1 \2/p' "$tmp/bug.out")
[ -n "$h" ] && [ "${h% *}" -gt 0 ] && [ "${h% *}" = "${h#* }" ] &&
    grep -qE '^ +[1-9][0-9]* +activateThread: current thread is not blocked \(fail\)' "$tmp/bug.out" &&
    ok "bug: the release kernel's halts are the model's activateThread fail too: ${h#* } of ${h% *}" ||
    bad "bug: halts not explained by the model's own failed assertion"
# the halt's reproducer reads back: the model's check shows the same failed assertion
rep=$(ls "$tmp"/bugrep/validate-assertion-*.scen 2>/dev/null | head -1)
[ -n "$rep" ] && head -1 "$rep" | grep -q 'halts in the slowpath where the model' &&
    "$irqsim" check "$rep" 2>&1 | grep -q 'kernel assert in activateThread failed' &&
    ok "bug: the halt's reproducer ($(basename "$rep")) shows activateThread's fail in the model" ||
    bad "bug: no reproducer of the halt, or the model does not fail there"

# master without d26f1ff4d's test (2024): invokeVCPUInjectIRQ reads the
# VCPU's thread's affinity through vcpuTCB, NULL for a VCPU bound to
# none, on two cores: the real kernel faults there (KERNEL FAULT in the
# function, real/rk_fault.c) where the model, master's, does not; exit 1
noguard=$(rt_tree noguard "$master")
rt_sub "$noguard/src/arch/arm/object/vcpu.c" '/^exception_t invokeVCPUInjectIRQ/,/^}/' \
    'vcpu->vcpuTCB != NULL && ' ''
bg=$(build "$noguard" --cores 2)
"$irqsim" validate --real "$bg" --checks 20000 --quiet >"$tmp/noguard.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -qE 'KERNEL FAULT in (invoke|decode)VCPUInjectIRQ' "$tmp/noguard.out" &&
    ok "noguard: the NULL dereference d26f1ff4d guarded is a KERNEL FAULT, exit 1" ||
    { bad "noguard: exit $rc, no KERNEL FAULT in the injection"; grep 'halts\|FAULT' "$tmp/noguard.out" | head -3; }
exit $fail
