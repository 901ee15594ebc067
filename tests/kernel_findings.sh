#!/bin/sh
# kernel_findings.sh IRQSIM DIR WORKDIR: the scenarios of the kernel
# findings (tests/kernel-findings, docs/FINDINGS.md K1-K3) stay states the
# reader takes, each a valid entry the model runs (irqsim check of its
# own model, no real kernel: exit 0 or 1, never 2); and K3's call asked
# for core 1's PPI 19 instead of SPI 50 is refused at its line (another
# core's IRQ table is not held), exit 2.
# SPDX-License-Identifier: BSD-2-Clause
set -u
irqsim=$1 dir=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail=0 n=0
for f in "$dir"/*.scen; do
    n=$((n + 1))
    "$irqsim" check --target signal "$f" > out.txt 2> err.txt
    rc=$?
    [ $rc -le 1 ] && grep -q '^verdict' out.txt && echo "ok   $(basename "$f"): read and run, exit $rc" ||
        { echo "FAIL $(basename "$f"): exit $rc: $(head -3 err.txt)"; fail=1; }
done
[ $n -ge 3 ] || { echo "FAIL: $n scenarios in $dir, expected K1-K3"; fail=1; }
sed 's/ irq=50 method=trigger_core/ irq=19 method=trigger_core/' "$dir/k3-trigger-core-no-cap.scen" > ppi.scen
"$irqsim" check ppi.scen > out.txt 2> err.txt
rc=$?
[ $rc = 2 ] && grep -q "^ppi.scen:[0-9]*: syscall: irq_core=1 asks for core 1's PPI 19, whose IRQ table is not held" err.txt &&
    echo "ok   K3's call for core 1's PPI refused at its line, exit 2" ||
    { echo "FAIL K3 for a PPI: exit $rc: $(cat err.txt)"; fail=1; }
exit $fail
