#!/bin/sh
# The smallest state of a defect found by `irqsim exhaust` (tests/exhaustive/
# FN.scen) must keep diverging under the proposal with a cause that holds
# that defect's fix (docs/FINDINGS.md), and agree under the corrected fastpath.
set -u
bin=$1
file=$2
def=$(basename "$file" .scen)
case $def in
  F1) need=entry_budget ;;
  F2) need=entry_domain ;;
  F3) need=entry_release ;;
  F4) need=entry_time ;;
  F5) need=idle_switch ;;
  F6) need=deadline ;;
  F7) need=cb_unblock ;;
  F8) need=reprogram_flag ;;
  *) echo "$file: not a defect file"; exit 1 ;;
esac
out=$("$bin" check --fastpath pr1227 "$file")
rc=$?
if [ $rc -ne 1 ]; then
  echo "$file: expected a divergence under pr1227 (exit 1), got exit $rc"; echo "$out"; exit 1
fi
cause=$(echo "$out" | sed -n 's/^class: [a-z_]*\///p')
if ! echo "+$cause+" | grep -q "+$need+"; then
  echo "$file: expected a cause with $need ($def), got $cause"; echo "$out"; exit 1
fi
if [ "$def" = F4 ] && echo "+$cause+" | grep -Eq '\+entry_(budget|domain|release)\+'; then
  echo "$file: F4 is entry_time without an entry check, got $cause"; exit 1
fi
out=$("$bin" check --fastpath fixed "$file")
rc=$?
if [ $rc -ne 0 ]; then
  echo "$file: expected agreement under the corrected fastpath, got exit $rc"; echo "$out"; exit 1
fi
echo "$file: diverges with $need ($def, cause $cause) under pr1227, agrees under fixed"
