#!/bin/sh
# master-regress.sh KERNELS_DIR WORK CACHE RK_REGRESS REGRESSIONS_DIR:
# PR #1227 rebased onto master (rebase-pr.sh, into WORK; the tarball is
# the same on every run, so the host builds in CACHE are reused), then
# every IRQ reproducer of master (REGRESSIONS_DIR/*--master*.scen) through
# it (rk_regress --kernel master). Each of F1-F9 (the loop below: F10
# and F11 are not required here) must be shown on the real rebased
# kernel: at least one of its reproducers ran, the real fastpath_irq
# diverged from the real slowpath in exactly the model's fields and the kernel-C corrected fastpath
# agreed. Exit 77 (CTest: skipped) when a tarball or a prerequisite of
# the kernel build is missing, saying why.
# SPDX-License-Identifier: BSD-2-Clause
kernels=$1 work=$2 cache=$3 rk_regress=$4 regressions=$5
here=$(cd "$(dirname "$0")" && pwd)
for t in 43607edb6 2b302023d 1326364bc; do
    if [ ! -f "$kernels/seL4-$t.tar.gz" ]; then
        echo "SKIP: no $kernels/seL4-$t.tar.gz (set IRQSIM_KERNELS_DIR)"
        exit 77
    fi
done
mkdir -p "$work" || exit 1
tree=$work/seL4-pr1227-on-master.tar.gz
if [ ! -f "$tree" ]; then
    "$here/rebase-pr.sh" --base "$kernels/seL4-43607edb6.tar.gz" --pr "$kernels/seL4-2b302023d.tar.gz" \
        --onto "$kernels/seL4-1326364bc.tar.gz" --out "$tree.tmp" >/dev/null || exit 1
    mv "$tree.tmp" "$tree"
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# pyfdt is looked for next to the tarballs, not next to the rebased tree
IRQSIM_KERNELS_DIR=$kernels "$rk_regress" --kernel master --tree "$tree" --cache "$cache" "$regressions"/*--master*.scen >"$out"
rc=$?
cat "$out"
[ $rc = 77 ] && exit 77
[ $rc = 0 ] || exit 1
fail=0
for i in 1 2 3 4 5 6 7 8 9; do
    grep -q "^| F$i ([a-z_]*) | [0-9]* | [1-9][0-9]* | yes |" "$out" || { echo "F$i is not shown on the rebased kernel"; fail=1; }
done
exit $fail
