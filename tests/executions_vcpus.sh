#!/bin/sh
# irqsim exhaust --executions --vcpus (issue 29 item 4): the depth-1 space
# on a hypervisor build, thread a a guest whose virtual timer fires with
# IRQ 40, its VMM on its faults.
#  - master, the corrected fastpath: exit 0, no reached state refused, the
#    virtual timer's entries checked (the fastpath's slow_not_signal exit:
#    a reserved IRQ);
#  - base: base's VPPIEvent bug from boot (its test of tcbQueued only,
#    base vcpu.c:121: the guest the entry's budget check postponed into
#    the release queue is sent its fault), so a reached state is refused
#    ("in the release queue while BlockedOnReply") and the one-entry check
#    calls the entry a class of the kernel's own outcome (exit 1);
#  - the tree and restart engines give the same distinct entry states,
#    workloads and GIC reruns on it, on one core and two (as test_exectree
#    holds for the others);
#  - on two cores thread b is a guest too, on core 1, and core 1's virtual
#    timer fires with IRQ 40 (the PPI is banked): master is clean with
#    core 1's virtual timer taken there (vcpu_core1 drawn at every check);
#    base shows the same bug on core 1 ("thread b: in the release queue
#    while ...": b's entry's budget check postponed it, VPPIEvent on core 1
#    sent the fault anyway).
#
#   executions_vcpus.sh IRQSIM WORKDIR [quick]   (quick: the engines' equality left out,
#   the campaign tier's)
set -u
irqsim=$1
work=$2
quick=${3:-}
fail() { echo "executions_vcpus: FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
"$irqsim" exhaust --executions --vcpus --depth 1 --kernel master --fastpath fixed --quiet --json m.json > m.txt
rc=$?
[ $rc = 0 ] || { cat m.txt; fail "master: exit $rc, expected 0"; }
grep -q "refused: 0, failed kernel assertions: 0" m.txt || { cat m.txt; fail "master: a state refused"; }
grep -q "^hypervisor build: thread a a guest" m.txt || fail "master: the summary does not say the build"
grep -q '"vcpus": true' m.json || fail "master: the JSON does not say --vcpus"
grep -q "slow_not_signal [1-9]" m.txt || { cat m.txt; fail "master: no virtual timer entry checked"; }
"$irqsim" exhaust --executions --vcpus --depth 1 --kernel base --fastpath fixed --quiet > b.txt
rc=$?
[ $rc = 1 ] || { cat b.txt; fail "base: exit $rc, expected 1"; }
grep -q "INVARIANT BUG OR KERNEL BUG: .*thread a: in the release queue while BlockedOnReply" b.txt ||
  { cat b.txt; fail "base: base's VPPIEvent bug not reported"; }
grep -q "/kernel " b.txt || { cat b.txt; fail "base: no class of the kernel's own outcome"; }
two() { # the two-core space on master and base (quick: the IPI latency 0 only, half the space)
  "$irqsim" exhaust --executions --vcpus --cores 2 --depth 1 --kernel master --fastpath fixed --quiet $lat > m2.txt
  rc=$?
  [ $rc = 0 ] || { cat m2.txt; fail "two cores, master: exit $rc, expected 0"; }
  grep -q "refused: 0, failed kernel assertions: 0" m2.txt || { cat m2.txt; fail "two cores, master: a state refused"; }
  grep -q "^hypervisor build: threads a (core 0) and b (core 1) guests" m2.txt ||
    fail "two cores, master: the summary does not say the build"
  grep -q "vcpu_core1 100.00%" m2.txt || { cat m2.txt; fail "two cores, master: core 1's VCPU not loaded at the checks"; }
  "$irqsim" exhaust --executions --vcpus --cores 2 --depth 1 --kernel base --fastpath fixed --quiet $lat > b2.txt
  rc=$?
  [ $rc = 1 ] || { cat b2.txt; fail "two cores, base: exit $rc, expected 1"; }
  grep -q "INVARIANT BUG OR KERNEL BUG: .*thread b: in the release queue while Blocked" b2.txt ||
    { cat b2.txt; fail "two cores, base: base's VPPIEvent bug on core 1 not reported"; }
}
lat=
if [ -n "$quick" ]; then lat=--no-ipi-latency; two; echo "executions_vcpus: ok (quick)"; exit 0; fi
field() { sed -n "s/^  \"$1\": \([0-9]*\),*$/\1/p" "$2" | head -1; }
"$irqsim" exhaust --executions --vcpus --depth 1 --kernel master --fastpath fixed --engine restart --quiet \
  --json r.json > r.txt || fail "master, restart engine: exit $?"
for f in distinct_entry_states gic_reruns workloads; do
  [ "$(field $f m.json)" = "$(field $f r.json)" ] ||
    fail "$f: tree $(field $f m.json), restart $(field $f r.json)"
done
two
# the engines alike on two cores too
"$irqsim" exhaust --executions --vcpus --cores 2 --depth 1 --kernel master --fastpath fixed --quiet --json t2.json > /dev/null
"$irqsim" exhaust --executions --vcpus --cores 2 --depth 1 --kernel master --fastpath fixed --engine restart --quiet \
  --json r2.json > /dev/null || fail "two cores, restart engine: exit $?"
for f in distinct_entry_states gic_reruns workloads; do
  [ "$(field $f t2.json)" = "$(field $f r2.json)" ] ||
    fail "two cores, $f: tree $(field $f t2.json), restart $(field $f r2.json)"
done
echo "executions_vcpus: ok"
