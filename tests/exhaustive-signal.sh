#!/bin/sh
# `irqsim exhaust --target signal` (docs/EXHAUSTIVE.md, "The signal target")
# on two small bounds, 2 threads and 1 refill: the caller and one other
# thread (a receiver, a release-queue thread, a ready thread or a bound one).
#
# Which defects of master's fastpath_signal (docs/FINDINGS-signal.md) each
# bound must show, from the kernel:
#   S1 the caller's head refill ends less than MIN_BUDGET after the clock
#      (budget edges mb-1, +1, 0, -window): refill_sufficient fails, the
#      slowpath's checkBudgetRestart refuses the call. Any bound.
#   S2 needs two domains: isCurDomainExpired is false with one
#      (numDomains > 1, thread.h:118-122). Only the bound of up to 2 domains.
#   S3 a release-queue thread ready at the entry clock (release edges 0 and
#      -window with the clock advanced): awaken() runs only on the slowpath.
#   S4, S5 a sporadic receiver with a ready head refill: the fastpath's
#      refill_unblock_check (fastpath.c:694-700) runs on the stale ksCurTime
#      and sets ksReprogram (sporadic.c), which no schedule() clears.
#   S6 one unresolvable extra cap on a notification cap with Send:
#      lookupExtraCaps (syscall.c:335) faults the caller on the slowpath.
#   S9 needs two cores, and an SMP build has one domain (cfg_validate): the
#      1-domain states (a --domains 2 bound holds them too), where a receiver
#      at priority 0 on the other core (its idle thread's, fastpath.c:652)
#      is enqueued there with the reschedule IPI marked but unsent.
# The corrected fastpath (fixed) must agree on every state of both bounds.
# Each smallest state written (--out) must diverge again under `irqsim
# check` with a cause holding that defect's fix, and agree under fixed.
# Three shards must add up to the whole, and a state file of the signal
# target must not resume an IRQ run.
set -u
bin=$1
work=$(mktemp -d /tmp/irqsim-exs-XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

need_of() {
  case $1 in
    S1) echo entry_budget ;; S2) echo entry_domain ;; S3) echo entry_release ;;
    S4) echo entry_time ;; S5) echo reprogram_flag ;; S6) echo msg_info ;;
    S9) echo reschedule_ipi ;; *) echo none ;;
  esac
}

# recheck FILE DEFECT: a smallest state diverges under merged with a cause
# holding the defect's fix (S4: entry_time without an entry check), and
# agrees under fixed
recheck() {
  f=$1; s=$2
  [ -f "$f" ] || fail "no smallest state $f"
  grep -q '^syscall send ' "$f" || fail "$f has no syscall send line"
  res=$("$bin" check --fastpath merged "$f"); rc=$?
  [ $rc -eq 1 ] || { echo "$res"; fail "$f: expected a divergence under merged, got exit $rc"; }
  cause=$(echo "$res" | sed -n 's/^class: [a-z_]*\///p')
  echo "+$cause+" | grep -q "+$(need_of $s)+" || fail "$f: cause $cause lacks $(need_of $s) ($s)"
  if [ "$s" = S4 ] && echo "+$cause+" | grep -Eq '\+entry_(budget|domain|release)\+'; then
    fail "$f: S4 is entry_time without an entry check, got $cause"
  fi
  "$bin" check --fastpath fixed "$f" > /dev/null || fail "$f: the corrected fastpath does not agree"
  echo "$f: $s, cause $cause under merged; fixed agrees"
}

# With a file (tests/exhaustive-signal/SN.scen, the committed smallest
# states of the 60 s bound): re-check only that one.
if [ $# -ge 2 ]; then
  recheck "$2" "$(basename "$2" .scen)"
  exit 0
fi

# run_bound DOMAINS EXPECTED-DEFECTS ABSENT-DEFECTS
run_bound() {
  d=$1; want=$2; absent=$3
  bound="--target signal --threads 2 --refills 1 --ntfns 1 --domains $d --quiet"
  out=$work/d$d
  "$bin" exhaust $bound --fastpath merged --json "$out.json" --out "$out" > "$out.txt"
  rc=$?
  [ $rc -eq 1 ] || { cat "$out.txt"; fail "merged, $d domain(s): expected divergences (exit 1), got $rc"; }
  grep -q '"target": "signal"' "$out.json" || fail "$out.json names no target"
  grep -q '"skipped": 0,' "$out.json" || fail "merged, $d domain(s): states were skipped"
  for s in $want; do
    grep -q "\"id\": \"$s\"" "$out.json" || { cat "$out.txt"; fail "merged, $d domain(s): $s not found"; }
    recheck "$out/$s.scen" "$s"
  done
  for s in $absent; do
    if grep -q "\"id\": \"$s\"" "$out.json"; then fail "merged, $d domain(s): $s cannot show here but did"; fi
  done
  "$bin" exhaust $bound --fastpath fixed > "$out-fixed.txt"
  rc=$?
  [ $rc -eq 0 ] || { cat "$out-fixed.txt"; fail "fixed, $d domain(s): expected no divergence, got exit $rc"; }
  grep -q 'the fixed fastpath_signal (master) agrees with slowpath(SysSend) on every one of them' "$out-fixed.txt" ||
    fail "fixed, $d domain(s): no statement"
}

run_bound 2 "S1 S2 S3 S4 S5 S6 S9" ""
run_bound 1 "S1 S3 S4 S5 S6 S9" "S2"

# shards: enumerated and diverged add up to the whole run's
field() { sed -n "s/^ *\"$2\": \([0-9]*\),/\1/p" "$1"; }
sum_e=0; sum_d=0
for k in 1 2 3; do
  "$bin" exhaust --target signal --threads 2 --refills 1 --domains 1 --quiet --shard $k/3 --json "$work/sh$k.json" > /dev/null
  sum_e=$((sum_e + $(field "$work/sh$k.json" enumerated)))
  sum_d=$((sum_d + $(field "$work/sh$k.json" diverged)))
done
[ "$sum_e" -eq "$(field "$work/d1.json" enumerated)" ] || fail "shards enumerate $sum_e states"
[ "$sum_d" -eq "$(field "$work/d1.json" diverged)" ] || fail "shards diverge on $sum_d states"

# a stopped and resumed run ends with the straight run's totals
b1="--target signal --threads 2 --refills 1 --domains 1 --quiet"
"$bin" exhaust $b1 --stop-after 100000 --state "$work/re" > /dev/null
"$bin" exhaust $b1 --state "$work/re" --json "$work/re.json" > /dev/null 2>&1
for k in enumerated diverged; do
  [ "$(field "$work/re.json" $k)" -eq "$(field "$work/d1.json" $k)" ] || fail "resumed run: $k differs"
done

# a signal run's state file does not resume an IRQ run with the same bound
"$bin" exhaust --target signal --fastpath fixed --threads 1 --stop-after 5 --quiet --state "$work/st" > /dev/null
"$bin" exhaust --fastpath fixed --threads 1 --quiet --state "$work/st" > /dev/null 2> "$work/st.err"
rc=$?
[ $rc -eq 2 ] || fail "an IRQ run resumed a signal state file (exit $rc)"
grep -q 'is the state of another run' "$work/st.err" || fail "no message for the other target's state file"

# bad input: exit 2 with the problem named
"$bin" exhaust --target signal --fastpath pr1227 2> "$work/bad.err"
[ $? -eq 2 ] && grep -q "the signal target's fastpaths are merged|fixed, got 'pr1227'" "$work/bad.err" ||
  fail "--fastpath pr1227 with target signal"
"$bin" exhaust --target sig 2> "$work/bad.err"
[ $? -eq 2 ] && grep -q "expected irq, signal, call or reply_recv, got 'sig'" "$work/bad.err" || fail "--target sig"
echo "exhaustive-signal: ok ($sum_e states on one domain, shards add up)"
