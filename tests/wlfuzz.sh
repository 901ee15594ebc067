#!/bin/sh
# irqsim fuzz --mode workload with a deterministic budget of workloads:
# under the proposal it finds all eight defects (exit 1) with every
# reached state admitted; under the corrected fastpath it finds nothing
# (exit 0); bad options exit 2. Usage: wlfuzz.sh IRQSIM MODE (the cases
# below; the *_quick ones are the quick tier's shorter runs)
set -u
bin=$1
case $2 in
pr1227)
  out=$("$bin" fuzz --mode workload --checks 1000 --seed 1 --quiet)
  rc=$?
  [ $rc -eq 1 ] || { echo "expected exit 1 (divergences), got $rc"; echo "$out"; exit 1; }
  for d in F1 F2 F3 F4 F5 F6 F7 F8; do
    echo "$out" | grep -q "^  $d\. " || { echo "defect $d not found"; echo "$out"; exit 1; }
  done
  ;;
pr1227_quick)
  # the quick tier's pr1227 (issue 27): 30 workloads of seed 1 reach F1,
  # F4, F5, F7 and F8 (F2, F3 and F6 need the 1000 of pr1227); exit 1 and
  # every reached state admitted, as there
  out=$("$bin" fuzz --mode workload --checks 30 --seed 1 --quiet)
  rc=$?
  [ $rc -eq 1 ] || { echo "expected exit 1 (divergences), got $rc"; echo "$out"; exit 1; }
  for d in F1 F4 F5 F7 F8; do
    echo "$out" | grep -q "^  $d\. " || { echo "defect $d not found"; echo "$out"; exit 1; }
  done
  ;;
vcpus)
  # hypervisor workloads (issue 29): on master the corrected fastpath
  # agrees, no state refused, and the guests' virtual timer and VGIC
  # maintenance interrupts are taken; on base the kernel's own VPPIEvent
  # bug (a thread faulted while in the release queue, fixed by 6dbe58ef0)
  # shows as classes of the kernel's own outcome and refused reached
  # states (exit 2); on two cores (guests on either core, each core's
  # virtual timer) master is clean too, with core 1's VCPU loaded at some
  # checked entries
  out=$("$bin" fuzz --mode workload --vcpus --kernel master --fastpath fixed --checks 40 --seed 1 --quiet)
  rc=$?
  mout=$out
  [ $rc -eq 0 ] || { echo "master: expected exit 0, got $rc"; echo "$out"; exit 1; }
  echo "$out" | grep -q "refused: 0, failed kernel assertions: 0" || { echo "$out"; exit 1; }
  echo "$out" | grep -Eq "virtual timer events taken [1-9][0-9]* .*VGIC maintenance interrupts taken [1-9]" ||
    { echo "master: no virtual timer or maintenance interrupt taken"; echo "$out"; exit 1; }
  out=$("$bin" fuzz --mode workload --vcpus --kernel base --checks 40 --seed 1 --quiet)
  rc=$?
  [ $rc -eq 2 ] || { echo "base: expected exit 2 (refused reached states), got $rc"; echo "$out"; exit 1; }
  echo "$out" | grep -q "/kernel .*the kernel's own outcome" || { echo "base: no kernel class"; echo "$out"; exit 1; }
  echo "$out" | grep -Eq "refused: [1-9]" || { echo "base: nothing refused"; echo "$out"; exit 1; }
  out=$("$bin" fuzz --mode workload --vcpus --cores 2 --kernel master --fastpath fixed --checks 40 --seed 1 --quiet)
  rc=$?
  [ $rc -eq 0 ] || { echo "two cores, master: expected exit 0, got $rc"; echo "$out"; exit 1; }
  echo "$out" | grep -q "refused: 0, failed kernel assertions: 0" || { echo "$out"; exit 1; }
  echo "$out" | grep -Eq "vcpu_core1 ([1-9]|0\.0*[1-9])" ||
    { echo "two cores, master: core 1's VCPU never loaded at a check"; echo "$out"; exit 1; }
  out=$mout # (the check below is master's: base refuses states by its bug)
  ;;
fixed)
  out=$("$bin" fuzz --mode workload --fastpath fixed --checks 300 --seed 1 --quiet)
  rc=$?
  [ $rc -eq 0 ] || { echo "expected exit 0 (nothing found), got $rc"; echo "$out"; exit 1; }
  echo "$out" | grep -q "divergences: none" || { echo "$out"; exit 1; }
  ;;
smp)
  # two cores: the first defects come within 60 workloads of seed 1 (F2
  # cannot: no SMP build has domains); the corrected fastpath finds nothing
  out=$("$bin" fuzz --mode workload --cores 2 --checks 60 --seed 1 --quiet)
  rc=$?
  [ $rc -eq 1 ] || { echo "expected exit 1 (divergences), got $rc"; echo "$out"; exit 1; }
  for d in F1 F4 F5 F7 F8; do
    echo "$out" | grep -q "^  $d\. " || { echo "defect $d not found on two cores"; echo "$out"; exit 1; }
  done
  echo "$out" | grep -q "^  F2\. " && { echo "F2 on two cores"; echo "$out"; exit 1; }
  echo "$out" | grep -q "refused: 0," || { echo "a refused state on two cores"; echo "$out"; exit 1; }
  out=$("$bin" fuzz --mode workload --cores 2 --fastpath fixed --checks 100 --seed 1 --quiet)
  rc=$?
  [ $rc -eq 0 ] || { echo "two cores, fixed: expected exit 0, got $rc"; echo "$out"; exit 1; }
  ;;
signal)
  # master's signal fastpath (--target signal), one core: S1-S6 within 300
  # workloads of seed 1 (S9 needs two cores); each reproducer written with
  # --out reaches its class from a plain start (irqsim sim --expect); the
  # corrected fastpath finds nothing
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
  out=$("$bin" fuzz --mode workload --target signal --checks 300 --seed 1 --out "$dir" --quiet)
  rc=$?
  [ $rc -eq 1 ] || { echo "expected exit 1 (divergences), got $rc"; echo "$out"; exit 1; }
  for d in S1 S2 S3 S4 S5 S6; do
    echo "$out" | grep -q "^  $d\. " || { echo "defect $d not found"; echo "$out"; exit 1; }
  done
  echo "$out" | grep -q "not found" && { echo "$out"; exit 1; }
  n=0
  for f in "$dir"/wl-class-*.wl; do
    cls=$(sed -n 's/^# workload reaching class \([^ ]*\) from a plain start.*/\1/p' "$f")
    "$bin" sim --target signal --expect "$cls" "$f" > /dev/null ||
      { echo "$f does not reach $cls"; exit 1; }
    n=$((n + 1))
  done
  [ $n -ge 6 ] || { echo "only $n reproducers"; exit 1; }
  fixed=$("$bin" fuzz --mode workload --target signal --fastpath fixed --checks 300 --seed 1 --quiet)
  rc=$?
  [ $rc -eq 0 ] || { echo "fixed: expected exit 0, got $rc"; echo "$fixed"; exit 1; }
  echo "$fixed" | grep -q "divergences: none (the fastpath agreed with the slowpath at every SysSend" ||
    { echo "$fixed"; exit 1; }
  ;;
signal_quick)
  # the quick tier's signal (issue 27): 12 workloads of seed 1 reach S1-S3
  # on one core (S4-S6 need the 300 of signal; the reproducers' shrinking,
  # which --out adds, costs 15 times the run and stays there too;
  # test_sim_signal runs committed signal workloads to their classes)
  out=$("$bin" fuzz --mode workload --target signal --checks 12 --seed 1 --quiet)
  rc=$?
  [ $rc -eq 1 ] || { echo "expected exit 1 (divergences), got $rc"; echo "$out"; exit 1; }
  for d in S1 S2 S3; do
    echo "$out" | grep -q "^  $d\. " || { echo "defect $d not found"; echo "$out"; exit 1; }
  done
  ;;
situations_quick)
  # the quick tier's situations (issue 27): what no two-core workload can
  # draw is said with its reason, whatever the budget (one workload); the
  # shares drawn need the 100 of situations
  out=$("$bin" fuzz --mode workload --cores 2 --fastpath fixed --checks 1 --seed 2 --quiet)
  rc=$?
  [ $rc -eq 0 ] || { echo "expected exit 0, got $rc"; echo "$out"; exit 1; }
  echo "$out" | grep -q "^    domains (no SMP build has domains" || { echo "domains: no reason"; echo "$out"; exit 1; }
  echo "$out" | grep -q "^    irq_max_plus_1 irq_1019 (above maxIRQ" || { echo "above maxIRQ: no reason"; echo "$out"; exit 1; }
  never=$(echo "$out" | grep "never drawn")
  for sit in domains irq_0 irq_max_plus_1 irq_1019; do
    echo " $never " | grep -q " $sit " && { echo "$sit listed as never drawn"; echo "$out"; exit 1; }
  done
  ;;
signal_smp)
  # two cores: S9 (the reschedule IPI left unsent) by workload 221 of seed 1,
  # every state admitted; the corrected fastpath finds nothing
  out=$("$bin" fuzz --mode workload --target signal --cores 2 --checks 300 --seed 1 --quiet)
  rc=$?
  [ $rc -eq 1 ] || { echo "expected exit 1 (divergences), got $rc"; echo "$out"; exit 1; }
  echo "$out" | grep -q "^  S9\. " || { echo "S9 not found on two cores"; echo "$out"; exit 1; }
  echo "$out" | grep -q "^  S2\. " && { echo "S2 on two cores (no SMP build has domains)"; echo "$out"; exit 1; }
  fixed=$("$bin" fuzz --mode workload --target signal --cores 2 --fastpath fixed --checks 300 --seed 1 --quiet)
  rc=$?
  [ $rc -eq 0 ] || { echo "two cores, fixed: expected exit 0, got $rc"; echo "$fixed"; exit 1; }
  ;;
situations)
  # two cores (issue 19 item 5): the generator draws a device IRQ at the
  # edges of the valid range (IRQ 2, maxIRQ - 1, maxIRQ: gen_irq_edge) and
  # an SC of budget MIN_BUDGET, each in a fixed share of the workloads, so
  # 100 workloads of seed 2 draw irq_max and min_budget; the situations no
  # two-core workload can draw are said with a reason (domains: no SMP
  # build has them; irq_0: the remote-call IPI; above maxIRQ: never
  # enabled), not listed as never drawn
  out=$("$bin" fuzz --mode workload --cores 2 --fastpath fixed --checks 100 --seed 2 --quiet)
  rc=$?
  [ $rc -eq 0 ] || { echo "expected exit 0, got $rc"; echo "$out"; exit 1; }
  never=$(echo "$out" | grep "never drawn")
  for sit in domains irq_0 irq_max irq_max_plus_1 irq_1019 min_budget; do
    echo " $never " | grep -q " $sit " && { echo "$sit listed as never drawn"; echo "$out"; exit 1; }
  done
  echo "$out" | grep -Eq "irq_max [1-9]|irq_max 0\.[0-9]*[1-9]" || { echo "irq_max not drawn"; echo "$out"; exit 1; }
  echo "$out" | grep -Eq "min_budget [1-9]|min_budget 0\.[0-9]*[1-9]" || { echo "min_budget not drawn"; echo "$out"; exit 1; }
  echo "$out" | grep -q "^    domains (no SMP build has domains" || { echo "domains: no reason"; echo "$out"; exit 1; }
  echo "$out" | grep -q "^    irq_max_plus_1 irq_1019 (above maxIRQ" || { echo "above maxIRQ: no reason"; echo "$out"; exit 1; }
  # the GIC's order (issue 19 item 1): one workload in 3 draws one of the
  # twelve orders, 11 of them not the default: about 31 of 100 (the GIC's
  # choices themselves are rare here; test_workload and executions_bad
  # check what an order decides)
  ordered=$(echo "$out" | sed -n 's/^interrupts the GIC chose among several pending at once: [0-9]* (workloads naming an order other than the default: \([0-9]*\))$/\1/p')
  [ -n "$ordered" ] && [ "$ordered" -ge 20 ] && [ "$ordered" -le 45 ] ||
    { echo "workloads with an order of their own: '$ordered', expected about 31 of 100"; echo "$out"; exit 1; }
  ;;
options)
  # --signal-fastpath: every workload builds KernelSignalFastpath beside
  # (issue 19); with an IRQ target, in workload mode only
  out=$("$bin" fuzz --mode workload --cores 2 --fastpath fixed --signal-fastpath --checks 20 --quiet)
  echo "$out" | grep -q "signal_fastpath 100.00%" || { echo "--signal-fastpath: not every workload"; echo "$out"; exit 1; }
  for args in "--mode bogus" "--mode workload --jobs 2" "--mode workload --checks 0" \
              "--mode workload --checks 5 --seconds 1" "--mode" "--mode workload --cores 3" "--cores 2" \
              "--signal-fastpath" "--mode workload --target signal --signal-fastpath"; do
    "$bin" fuzz $args --quiet > /dev/null 2>&1
    rc=$?
    [ $rc -eq 2 ] || { echo "irqsim fuzz $args: expected exit 2, got $rc"; exit 1; }
  done
  for args in "--from 5" "--span 0" "--from x --span 5" "--target bogus" "--target signal --fastpath pr1227"; do
    "$bin" sim $args /dev/null > /dev/null 2>&1
    rc=$?
    [ $rc -eq 2 ] || { echo "irqsim sim $args: expected exit 2, got $rc"; exit 1; }
  done
  ;;
esac
out=${out:-}
echo "$out" | grep -q "refused: 0, failed kernel assertions: 0, drifts: 0" || [ "$2" = options ] ||
  { echo "a reached state was refused, an assertion failed or the kernels drifted"; echo "$out"; exit 1; }
echo "ok ($2)"
