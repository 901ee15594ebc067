#!/bin/sh
# test-kernel-defines.sh IRQSIM KERNELS_DIR CACHE: boards that are no
# model preset, -D, and boards the bridge cannot build (issue 21):
#   1. -D NAME=VALUE: a bad one is refused (exit 2); tx2 (SMMU on by its
#      default) is refused with the reason and the way out (exit 2), and
#      builds with -DKernelArmSMMU=OFF: its own cache folder, kernel.info
#      defines=, and the model agrees with it (validate --real, exit 0)
#   2. fvp (no KERNEL_WCET: the MCS kernel's getKernelWcetUs returns
#      nothing) is refused with that reason (exit 2); nothing cached
#   3. rockpro64 (no model preset): fuzz --real writes reproducers that
#      carry its constants; check --real on the build that wrote them, and
#      the model's check, read them back
# Exit 77 (CTest: skipped) without the tarball or a prerequisite.
# SPDX-License-Identifier: BSD-2-Clause
irqsim=$1 kernels=$2 cache=$3
tarball=$kernels/seL4-2b302023d.tar.gz
if [ ! -f "$tarball" ]; then
    echo "SKIP: no $tarball (set IRQSIM_KERNELS_DIR)"
    exit 77
fi
export IRQSIM_KERNELS_DIR=$kernels
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok   $*"; }
ko() { echo "FAIL $*"; fail=1; }

# kb NAME ARGS...: as build, with the script's status
kb() {
    n=$1; shift
    "$irqsim" kernel build --sel4 "$tarball" --cache "$cache" --quiet "$@" >"$tmp/$n.out" 2>"$tmp/$n.err"
    rc=$?
    dir=$(tail -1 "$tmp/$n.out")
    if [ $rc = 3 ]; then echo "SKIP: $(cat "$tmp/$n.err")"; exit 77; fi
}

kb badD --board imx8mm-evk -D 'not a define'
[ $rc = 2 ] && grep -q 'expected NAME=VALUE' "$tmp/badD.err" && ok "-D 'not a define': exit 2" ||
    ko "-D 'not a define': exit $rc: $(cat "$tmp/badD.err")"

kb tx2 --board tx2
[ $rc = 2 ] && grep -q 'KernelArmSMMU=ON' "$tmp/tx2.err" && grep -q -- '-DKernelArmSMMU=OFF builds it' "$tmp/tx2.err" &&
    ok "tx2: refused (exit 2): the SMMU, and -DKernelArmSMMU=OFF named" || ko "tx2: exit $rc: $(cat "$tmp/tx2.err")"
ls -d "$cache"/*-tx2-d1-c1-release-* 2>/dev/null | grep -qv -- '-D' && ko "tx2: a refused build left a folder in the cache" ||
    ok "tx2: nothing cached for the refused build"

kb tx2off --board tx2 -DKernelArmSMMU=OFF
if [ $rc = 0 ] && grep -qx 'defines=-DKernelArmSMMU=OFF' "$dir/kernel.info" && grep -qx 'board=tx2' "$dir/kernel.info"; then
    ok "tx2 -DKernelArmSMMU=OFF: built ($(basename "$dir")), kernel.info defines= says so"
    case "$(basename "$dir")" in *-D*) ok "tx2: -D is in the cache key";; *) ko "tx2: -D not in the folder's key";; esac
    "$irqsim" validate --real "$dir" --checks 5000 --quiet >"$tmp/v.out" 2>&1
    v=$?
    [ $v = 0 ] && ok "tx2: validate --real: the model agrees (5000 states)" || { ko "tx2: validate --real: exit $v"; tail -3 "$tmp/v.out"; }
else
    ko "tx2 -DKernelArmSMMU=OFF: exit $rc: $(tail -3 "$tmp/tx2off.err")"
fi

kb fvp --board fvp
[ $rc = 2 ] && grep -q 'declares no KERNEL_WCET' "$tmp/fvp.err" && ok "fvp: refused (exit 2): no KERNEL_WCET" ||
    ko "fvp: exit $rc: $(cat "$tmp/fvp.err")"
ls -d "$cache"/*-fvp-* >/dev/null 2>&1 && ko "fvp: a folder left in the cache" || ok "fvp: nothing cached"

kb rp --board rockpro64
if [ $rc = 0 ]; then
    "$irqsim" fuzz --real "$dir" --checks 3000 --quiet --out "$tmp/rp" >/dev/null 2>&1
    f=$(ls "$tmp"/rp/*.scen 2>/dev/null | head -1)
    if [ -n "$f" ] && grep -qx 'board rockpro64' "$f" && grep -q '^config timer_hz=24000000 .*max_irq=181' "$f"; then
        ok "rockpro64: a reproducer carries the board and its constants ($(basename "$f"))"
        "$irqsim" check --real "$dir" "$f" >"$tmp/c.out" 2>&1
        c=$?
        [ $c = 1 ] && grep -q 'verdict (real kernel): DIVERGE' "$tmp/c.out" &&
            ok "rockpro64: check --real reads it back on its build and shows the divergence" ||
            { ko "rockpro64: check --real: exit $c"; tail -3 "$tmp/c.out"; }
        "$irqsim" check "$f" >"$tmp/m.out" 2>&1
        c=$?
        [ $c -le 1 ] && ok "rockpro64: the model's check reads it (exit $c)" || { ko "rockpro64: check: exit $c"; tail -2 "$tmp/m.out"; }
    else
        ko "rockpro64: no reproducer with its constants in $tmp/rp"
    fi
else
    ko "rockpro64: build exit $rc: $(tail -3 "$tmp/rp.err")"
fi
exit $fail
