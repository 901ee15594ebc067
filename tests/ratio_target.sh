#!/bin/sh
# `irqsim ratio --target T` counts the fast exits of T's fastpath as
# written (fastpath_irq of PR #1227, or master's fastpath_signal) on the
# states of seeds 1..N, and its corrected fastpath's. The same states are
# `irqsim fuzz --target T --seed 1 --checks N --jobs 1`'s, so each count
# must equal the fuzzer's "fast exits" line for that variant: two separate
# loops over the target's exit table (ratio ran the IRQ fastpath on
# SysSend states before it honoured --target).
#
#   ratio_target.sh IRQSIM TARGET N
set -u
irqsim=$1 target=$2 n=$3
out=$("$irqsim" ratio --target "$target" --seed 1 --count "$n") || exit 1
echo "$out"
case $target in irq) written=pr1227 ;; *) written=merged ;; esac
echo "$out" | grep -q "target $target," || { echo "ratio_target: ratio did not run target $target" >&2; exit 1; }
line=$(echo "$out" | grep '^finish by themselves:')
r_written=$(echo "$line" | sed -n "s/.* $written \([0-9]*\) .*/\1/p")
r_fixed=$(echo "$line" | sed -n "s/.* fixed \([0-9]*\) .*/\1/p")
fast() { "$irqsim" fuzz --target "$target" --fastpath "$1" --seed 1 --checks "$n" --jobs 1 --quiet |
  sed -n 's/^fast exits (finish by themselves): \([0-9]*\) of.*/\1/p'; }
f_written=$(fast "$written")
f_fixed=$(fast fixed)
echo "ratio: $written $r_written, fixed $r_fixed; fuzz: $written $f_written, fixed $f_fixed"
[ -n "$r_written" ] && [ -n "$r_fixed" ] && [ "$r_written" = "$f_written" ] && [ "$r_fixed" = "$f_fixed" ] || {
  echo "ratio_target: ratio's counts differ from the fuzzer's on the same states" >&2
  exit 1
}
