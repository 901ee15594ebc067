#!/bin/sh
# validate-irq.sh BUILD IRQSIM CHECKS BASE_MASK: `irqsim validate --real`
# on a master build, the model as base and as master (issue 11). With
# --kernel master no kind of mismatch may name the IRQ mask or the GIC
# active state (master's split EOI is modelled). With --kernel base the
# IRQ mask must show on a GICv3 build (BASE_MASK=1: base masks a signal
# IRQ, master on GICv3 does not) and must not on GICv2 (BASE_MASK=0).
# SPDX-License-Identifier: BSD-2-Clause
build=$1 irqsim=$2 checks=$3 base_mask=$4
json=$(mktemp)
trap 'rm -f "$json"' EXIT
fail=0
for k in master base; do
    "$irqsim" validate --real "$build" --kernel "$k" --checks "$checks" --quiet --json "$json" > /dev/null
    rc=$?
    [ $rc -le 1 ] || { echo "validate --kernel $k: exit $rc"; exit 1; }
    n=$(grep -c '"fields": "[^"]*irq_\(mask\|active\)' "$json")
    echo "--kernel $k: $n kinds of mismatch name irq_mask or irq_active"
    grep '"fields"' "$json" | sed 's/^/  /'
    if [ "$k" = master ] && [ "$n" != 0 ]; then fail=1; fi
    if [ "$k" = base ] && [ "$base_mask" = 1 ] && [ "$n" = 0 ]; then fail=1; fi
    if [ "$k" = base ] && [ "$base_mask" = 0 ] && [ "$n" != 0 ]; then fail=1; fi
done
exit $fail
