#!/bin/sh
# The detector's fast-exit share (issue 12, item 4): a mutant of the
# corrected fastpath that only falls back more often diverges nowhere, so
# the divergence search cannot catch it; this test does. It runs
#   irqsim fuzz --target T --fastpath fixed --seed SEED --checks CHECKS --jobs 1
# (a deterministic budget: the same states on every build) and fails when
# fewer of those states finish by themselves than the figure committed in
# FIGURE_FILE (tests/fast-exit-share.txt, which says how to update it;
# tests/fast-exit-share-signal.txt holds the signal target's).
#
#   fast_exit_share.sh IRQSIM FIGURE_FILE
set -u
irqsim=$1
file=$2
value() { awk -v k="$1" '$1 == k { print $2 }' "$file"; }
seed=$(value seed)
checks=$(value checks)
want=$(value fast_exits)
case "$seed$checks$want" in
'' | *[!0-9]*)
  echo "fast_exit_share: $file needs the lines 'seed N', 'checks N' and 'fast_exits N'" >&2
  exit 2
  ;;
esac
# an optional 'target signal' line: master's fastpath_signal (default irq)
target=$(value target)
case "${target:-irq}" in
irq | signal) ;;
*)
  echo "fast_exit_share: $file: target must be irq or signal, got '$target'" >&2
  exit 2
  ;;
esac
out=$("$irqsim" fuzz --target "${target:-irq}" --fastpath fixed --seed "$seed" --checks "$checks" --jobs 1 --quiet)
rc=$?
if [ $rc -gt 1 ]; then
  echo "$out"
  echo "fast_exit_share: irqsim fuzz failed (exit $rc)" >&2
  exit 1
fi
line=$(echo "$out" | grep '^fast exits (finish by themselves):')
got=$(echo "$line" | awk '{ print $6 }')
of=$(echo "$line" | awk '{ print $8 }')
if [ -z "$got" ] || [ "$of" != "$checks" ]; then
  echo "$out"
  echo "fast_exit_share: no 'fast exits: N of $checks' line in the summary" >&2
  exit 1
fi
echo "$out" | sed -n '/^fastpath exits/,/^fast exits/p'
echo "committed: $want of $checks finish by themselves; this build: $got of $checks"
if [ "$got" -lt "$want" ]; then
  echo "fast_exit_share: FAIL: the corrected fastpath falls back on $((want - got)) more of the same $checks states"
  echo "  If the change is deliberate, update fast_exits in $file in the same commit and say why."
  exit 1
fi
if [ "$got" -gt "$want" ]; then
  echo "fast_exit_share: the share rose by $((got - want)) states: raise fast_exits in $file to $got to keep the gain"
fi
exit 0
