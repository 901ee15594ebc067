#!/bin/sh
# validate-call.sh IRQSIM TREE CACHE: master's fastpath_call and the
# SysCall slowpath through the real-kernel bridge (the call target,
# docs/FINDINGS-call.md). On release builds of one core, two cores and two
# domains: `validate --real --target call` finds no mismatch between the
# model and the real kernel on either path, no real outcome breaks an exit
# invariant, and it is not vacuous (the model's fast commit, `call`, is
# taken). On a debug build every state whose server has no valid VTable
# cap halts the real kernel in fastpath_call: it reads that cap as a vspace
# cap (cap_vtable_cap_get_vspace_root_fp, fastpath.c:77) before it checks
# it is one (isValidVTableRoot_fp, :80), and the generated bitfield
# accessor asserts the cap type on debug builds; the slowpath and every
# other state agree. `fuzz --real --target call` (the real fastpath against
# the real slowpath) diverges on the two-domain build (C1-C3) and says how
# many calls it ran. Exit 77 when the tree is missing.
# SPDX-License-Identifier: BSD-2-Clause
irqsim=$1 tree=$2 cache=$3
[ -e "$tree" ] || { echo "SKIP: no seL4 tree at $tree"; exit 77; }
build() {
    IRQSIM_KERNELS_DIR=$(dirname "$tree") "$irqsim" kernel build --sel4 "$tree" --board imx8mm-evk --cache "$cache" \
        --quiet "$@" | tail -1
}
for opts in "--release" "--release --cores 2" "--release --domains 2"; do
    b=$(build $opts) || { echo "kernel build $opts failed"; exit 1; }
    out=$("$irqsim" validate --real "$b" --target call --checks 20000 --quiet)
    rc=$?
    echo "$opts: $(echo "$out" | grep -E 'mismatches|exits|broke')"
    [ $rc = 0 ] || { echo "$out"; echo "validate --target call ($opts): exit $rc"; exit 1; }
    echo "$out" | grep -q ' 0 mismatches in 0 kinds; 0 real-kernel halts' || { echo "mismatches ($opts)"; exit 1; }
    echo "$out" | grep -q ', 0 broke one' || { echo "an exit invariant broke ($opts)"; exit 1; }
    echo "$out" | grep -qE ' call [1-9]' || { echo "vacuous: the fast commit never taken ($opts)"; exit 1; }
done
out=$("$irqsim" fuzz --real "$b" --target call --checks 5000 --seed 1)
rc=$?
echo "$out" | grep 'fuzz --real --target call'
[ $rc = 1 ] || { echo "fuzz --real --target call on 2 domains: exit $rc, expected 1 (C1-C3)"; exit 1; }
echo "$out" | grep -qE '^fuzz --real --target call: 5000 seL4_Call.*: [1-9][0-9]* diverged' ||
    { echo "fuzz --real --target call: no divergence counted"; exit 1; }
b=$(build --debug) || { echo "kernel build --debug failed"; exit 1; }
out=$("$irqsim" validate --real "$b" --target call --checks 20000 --quiet)
rc=$?
echo "debug: $(echo "$out" | grep -E 'mismatches|exits')"
[ $rc = 1 ] || { echo "validate --target call (debug): exit $rc, expected 1 (the VTable assertion)"; exit 1; }
echo "$out" | grep -q "cap_vspace_cap_get_capVSBasePtr" || { echo "no halt in cap_vspace_cap_get_capVSBasePtr"; exit 1; }
vt=$(echo "$out" | sed -n 's/.* slow_vtable \([0-9]*\).*/\1/p')
echo "$out" | grep -q " $vt mismatches in 1 kinds; $vt real-kernel halts" ||
    { echo "the halts are not exactly the $vt states without a valid VTable"; exit 1; }
exit 0
