#!/bin/sh
# validate-ipc.sh IRQSIM TREE CACHE TARGET: master's fastpath_call
# (TARGET call) or fastpath_reply_recv (TARGET reply_recv) and the
# SysCall or SysReplyRecv slowpath through the real-kernel bridge
# (docs/FINDINGS-call.md, docs/FINDINGS-reply_recv.md).
# - On release builds of one core, two cores and two domains:
#   `validate --real --target TARGET` finds no mismatch between the model
#   and the real kernel on either path, no real outcome breaks an exit
#   invariant, and it is not vacuous (the model's fast commit, named as the
#   target, is taken).
# - `fuzz --real --target TARGET` (the real fastpath against the real
#   slowpath) diverges on the two-domain build, every divergence named by
#   the model as one of the lazy-accounting defects (C1-C3, R1-R3: no
#   entry budget check, no domain check, released threads not woken), none
#   unexplained.
# - `irqsim kernel coverage` of the release one-core build: every branch
#   of the target's fastpath reached or argued (real/coverage-argued.txt).
# - On a debug build every state whose server (call) or caller
#   (reply_recv) has no valid VTable cap halts the real kernel in the
#   fastpath: it reads that cap as a vspace cap
#   (cap_vtable_cap_get_vspace_root_fp, fastpath.c:77 and :356) before it
#   checks it is one (isValidVTableRoot_fp, :80 and :359), and the
#   generated bitfield accessor asserts the cap type on debug builds; the
#   slowpath and every other state agree.
# Exit 77 when the tree is missing.
# SPDX-License-Identifier: BSD-2-Clause
irqsim=$1 tree=$2 cache=$3 target=$4
case $target in
call) d=C ;;
reply_recv) d=R ;;
*) echo "validate-ipc.sh: TARGET is call or reply_recv, not '$target'"; exit 2 ;;
esac
[ -e "$tree" ] || { echo "SKIP: no seL4 tree at $tree"; exit 77; }
build() {
    IRQSIM_KERNELS_DIR=$(dirname "$tree") "$irqsim" kernel build --sel4 "$tree" --board imx8mm-evk --cache "$cache" \
        --quiet "$@" | tail -1
}
for opts in "--release" "--release --cores 2" "--release --domains 2"; do
    b=$(build $opts) || { echo "kernel build $opts failed"; exit 1; }
    out=$("$irqsim" validate --real "$b" --target "$target" --checks 20000 --quiet)
    rc=$?
    echo "$opts: $(echo "$out" | grep -E 'mismatches|exits|broke')"
    [ $rc = 0 ] || { echo "$out"; echo "validate --target $target ($opts): exit $rc"; exit 1; }
    echo "$out" | grep -q ' 0 mismatches in 0 kinds; 0 real-kernel halts' || { echo "mismatches ($opts)"; exit 1; }
    echo "$out" | grep -q ', 0 broke one' || { echo "an exit invariant broke ($opts)"; exit 1; }
    echo "$out" | grep -qE " $target [1-9]" || { echo "vacuous: the fast commit never taken ($opts)"; exit 1; }
    [ "$opts" = --release ] || continue
    cov=$("$irqsim" kernel coverage "$b" --seconds 5)
    rc=$?
    echo "$cov" | grep "^| \*\*fastpath_$target"
    open=$(echo "$cov" | grep -E "^  unreached: fastpath_$target ")
    [ -z "$open" ] || { echo "fastpath_$target branches neither reached nor argued:"; echo "$open"; exit 1; }
    echo "$cov" | grep -qE "^\| \*\*fastpath_$target\*\* .* \| [1-9][0-9]* \| [0-9]+ \| [0-9]+ \| 0 \|$" ||
        { echo "kernel coverage did not report fastpath_$target (exit $rc)"; exit 1; }
done
out=$("$irqsim" fuzz --real "$b" --target "$target" --checks 5000 --seed 1)
rc=$?
echo "$out" | grep -E "^fuzz --real --target $target|^defects"
[ $rc = 1 ] || { echo "fuzz --real --target $target on 2 domains: exit $rc, expected 1 (${d}1-${d}3)"; exit 1; }
echo "$out" | grep -qE "^fuzz --real --target $target: 5000 .*: [1-9][0-9]* diverged" ||
    { echo "fuzz --real --target $target: no divergence counted"; exit 1; }
echo "$out" | grep -qE '^kinds: [0-9]+ \(0 unexplained' || { echo "$out"; echo "a divergence no defect explains"; exit 1; }
for n in 1 2 3; do
    echo "$out" | grep -qE "^defects .* $d$n [1-9]" || { echo "$d$n not named"; exit 1; }
done
b=$(build --debug) || { echo "kernel build --debug failed"; exit 1; }
out=$("$irqsim" validate --real "$b" --target "$target" --checks 20000 --quiet)
rc=$?
echo "debug: $(echo "$out" | grep -E 'mismatches|exits')"
[ $rc = 1 ] || { echo "validate --target $target (debug): exit $rc, expected 1 (the VTable assertion)"; exit 1; }
echo "$out" | grep -q "cap_vspace_cap_get_capVSBasePtr" || { echo "no halt in cap_vspace_cap_get_capVSBasePtr"; exit 1; }
vt=$(echo "$out" | sed -n 's/.* slow_vtable \([0-9]*\).*/\1/p')
echo "$out" | grep -q " $vt mismatches in 1 kinds; $vt real-kernel halts" ||
    { echo "the halts are not exactly the $vt states without a valid VTable"; exit 1; }
exit 0
