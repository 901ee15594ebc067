#!/bin/sh
# irqsim exhaust --executions: bad input exits 2 naming the problem;
# --show prints a workload irqsim sim reads back; the exit status of a run
# with a divergence is 1.
#
#   executions_bad.sh IRQSIM WORKDIR [quick]
set -u
irqsim=$1
work=$2
fail() { echo "executions_bad: FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
bad() { # bad PATTERN ARGS...: exit 2 and the pattern on stderr
  pat=$1; shift
  "$irqsim" exhaust --executions "$@" > out.txt 2> err.txt
  rc=$?
  [ $rc = 2 ] || { cat err.txt; fail "$*: exit $rc, expected 2"; }
  grep -q -e "$pat" err.txt || { cat err.txt; fail "$*: no '$pat'"; }
  [ ! -s out.txt ] || fail "$*: printed a summary"
}
bad "--depth.*1.*3" --depth 4
bad "--cores" --cores 3
bad "--shard: expected K/N" --shard 3/2
bad "the space has 490 workloads (0 to 489)" --depth 1 --show 490
bad "with --target signal it is the one under check" --target signal --signal-fastpath
bad "unknown option '--threads'" --threads 2
"$irqsim" exhaust --executions --help > help.txt || fail "--help exited $?"
grep -q -- "--depth K" help.txt || fail "--help does not list --depth"
# workload 343 of depth 1 on two cores: b on core 1 raises a's priority in a
# loop (a remote stall of a each time), IRQ 40 at 3100 with entry latency 40:
# the enumeration's F10 case; irqsim sim on the shown text finds it too
"$irqsim" exhaust --executions --depth 1 --cores 2 --signal-fastpath --show 343 > w343.wl || fail "--show exited $?"
grep -q '^cores 2$' w343.wl || fail "the shown workload is not the two-core one"
"$irqsim" sim --fastpath pr1227 w343.wl > sim.txt
[ $? = 1 ] || { cat sim.txt; fail "irqsim sim of workload 343 does not diverge"; }
grep -q 'class switch/outranked' sim.txt || { cat sim.txt; fail "workload 343 is not F10 in irqsim sim"; }
"$irqsim" sim --fastpath fixed w343.wl > /dev/null || fail "the corrected fastpath diverges on workload 343"
# the quick tier (issue 27) stops here: bad input, --help, --show read back
# by sim; the GIC's orders of workload 392 and the runs' summaries and JSON
# below are the campaign tier's (executions_bad_orders)
if [ "${3:-}" = quick ]; then
  echo "executions_bad: bad input refused, --show reads back (quick)"
  exit 0
fi
# workload 392 of the same space: IRQ 40 at 2001, when a's round-robin
# budget (2000) runs out and the timer is due. Timer first (the default
# order), the timer's entry charges a and the device IRQ agrees; device
# first (--show 392r, the GIC's order reversed), the device IRQ meets a's
# SC unable to pay ksConsumed: the slowpath's checkBudget fails and the
# proposal switches anyway (F1, switch/entry_time+entry_budget)
bad "expected a workload index, or one followed by r" --show 392x
"$irqsim" exhaust --executions --depth 1 --cores 2 --signal-fastpath --show 392r > w392r.wl || fail "--show 392r exited $?"
grep -q '^gic_order ipi,device,timer$' w392r.wl || fail "--show 392r is not in the reversed order"
"$irqsim" exhaust --executions --depth 1 --cores 2 --signal-fastpath --show 392 > w392.wl || fail "--show 392 exited $?"
grep -q '^gic_order' w392.wl && fail "--show 392 names an order"
"$irqsim" sim --fastpath pr1227 w392r.wl > sim.txt
[ $? = 1 ] || { cat sim.txt; fail "irqsim sim of workload 392r does not diverge"; }
grep -q 'first divergence: t=2001 irq 40, fastpath exit switch, class switch/entry_time+entry_budget' sim.txt ||
    { cat sim.txt; fail "workload 392r is not F1 at t=2001"; }
grep -q 'GIC chose among several pending at once (the workload.s order): 1' sim.txt || fail "392r: the GIC did not choose"
"$irqsim" sim --fastpath pr1227 w392.wl > sim.txt || { cat sim.txt; fail "workload 392 (timer first) diverges"; }
"$irqsim" sim --fastpath fixed w392r.wl > /dev/null || fail "the corrected fastpath diverges on workload 392r"
# the other four orders: F1 exactly where the device goes before the timer
# (o3 device,timer,ipi and o4 device,ipi,timer), not where the timer
# goes before the device (o2 timer,ipi,device and o5 ipi,timer,device)
bad "or by oK, K 1-5" --show 392o6
bad "or by oK, K 1-5" --show 392o0
"$irqsim" exhaust --executions --depth 1 --cores 2 --signal-fastpath --show 392o1 > w392o1.wl || fail "--show 392o1 exited $?"
cmp -s w392o1.wl w392r.wl || fail "--show 392o1 is not --show 392r"
for k in 2 3 4 5; do
  "$irqsim" exhaust --executions --depth 1 --cores 2 --signal-fastpath --show 392o$k > w392o$k.wl || fail "--show 392o$k exited $?"
  "$irqsim" sim --fastpath pr1227 w392o$k.wl > sim$k.txt
  echo $? > rc$k
  "$irqsim" sim --fastpath fixed w392o$k.wl > /dev/null || fail "the corrected fastpath diverges on workload 392o$k"
done
grep -q '^gic_order timer,ipi,device$' w392o2.wl || fail "--show 392o2 is not timer,ipi,device"
grep -q '^gic_order device,timer,ipi$' w392o3.wl || fail "--show 392o3 is not device,timer,ipi"
for k in 3 4; do
  [ "$(cat rc$k)" = 1 ] || { cat sim$k.txt; fail "workload 392o$k (device before timer) does not diverge"; }
  grep -q 'class switch/entry_time+entry_budget' sim$k.txt || { cat sim$k.txt; fail "workload 392o$k is not F1"; }
done
for k in 2 5; do
  [ "$(cat rc$k)" = 0 ] || { cat sim$k.txt; fail "workload 392o$k (timer before device) diverges"; }
done
# shard 3/10 of the two-core space holds workload 392 (392 % 10 = 2): the
# enumeration's naming of it needs only its shard, a tenth of the time
"$irqsim" exhaust --executions --depth 1 --cores 2 --signal-fastpath --no-ipi-latency --shard 3/10 --quiet > run2.txt
grep -q 'switch/entry_time+entry_budget .* first in workload 392r (the GIC.s order reversed)' run2.txt ||
    { cat run2.txt; fail "the enumeration does not name 392r for F1"; }
# a run with divergences exits 1, with its JSON
# (shard 1/10 of the one-core space holds workload 30, F6's first)
"$irqsim" exhaust --executions --depth 1 --shard 1/10 --quiet --json run.json > run.txt
[ $? = 1 ] || fail "a run with divergences did not exit 1"
grep -q '"space": 490' run.json || fail "the JSON lacks the space"
grep -q '"class": "switch/deadline"' run.json || fail "the JSON lacks F6's class"
"$irqsim" exhaust --executions --depth 1 --cores 2 --signal-fastpath --no-ipi-latency --shard 3/10 --quiet --json run2.json > /dev/null
grep -q '"first_workload": 392, "gic_order": "ipi,device,timer", "gic_reversed": true' run2.json ||
    { cat run2.json; fail "the JSON does not name 392's reversed order for F1"; }
echo "executions_bad: bad input refused, --show reads back, exit 1 on divergence"
