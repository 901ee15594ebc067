#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# wl2app_generate: scripts/capture/wl2app.py turns workload files into
# root tasks (docs/TRACES.md, "Applications generated from workload
# files"). Checks what it maps (times, budgets, the IRQ source) and what it
# refuses, with the reason and the line. The expected values follow from
# the workload format (imx8mm ticks are 8,000,000 a second; SchedControl
# takes microseconds) and from the one interrupt source a user-level
# program has on qemu-arm-virt (PPI 30).
# Usage: wl2app.sh PYTHON REPO OUTDIR [all]
set -u
PY=$1 REPO=$2 OUT=$3
GEN="$REPO/scripts/capture/wl2app.py"
WL="$REPO/tests/workloads"
mkdir -p "$OUT"
fail=0
bad() { echo "FAIL: $*"; fail=1; }

gen() { # name [options]: generate OUT/name.c, status in $rc, stderr in OUT/name.err
  n=$1; shift
  "$PY" "$GEN" "$@" "$WL/$n.wl" "$OUT/$n.c" >/dev/null 2>"$OUT/$n.err"
  rc=$?
}
has() { grep -qF -- "$2" "$OUT/$1.c" || bad "$1.c lacks: $2"; }

# F5: a priority-0 thread on a 7400-tick round-robin SC (925 us), IRQ 32
# at tick 38401 on PPI 30; the thread's program is a single wait.
gen append__idle_switch
[ $rc -eq 0 ] || bad "append__idle_switch: status $rc: $(cat "$OUT/append__idle_switch.err")"
has append__idle_switch 'irq 32 -> PPI 30 (EL1 physical timer)'
has append__idle_switch 'wl_sc(925, 925, 0, 0, 1)'
has append__idle_switch '#define WL_ARRIVALS {38401ull}'
has append__idle_switch 'seL4_IRQControl_Get(seL4_CapIRQControl, 30,'
has append__idle_switch 'wl_mint(N_n1, 1)'
has append__idle_switch 'wl_thread_new(0, 0, S_sc0, thread_t0)'
# the end of the run: the horizon (38402) plus the default 1 ms tail (8000)
has append__idle_switch '#define WL_END 46402ull'

# F6: periodic arrivals (start=301 period=2500) up to the horizon 302: one;
# a constant-bandwidth SC 9800/78400 ticks = 1225/9800 us; ack:32 of the
# device IRQ deasserts the line first; loop goes back to instruction 0.
gen switch__deadline --offset-us=200
[ $rc -eq 0 ] || bad "switch__deadline: status $rc"
has switch__deadline '#define WL_ARRIVALS {301ull}'
has switch__deadline 'wl_sc(1225, 9800, 0, 0, 1)'
has switch__deadline 'wl_ack(H_32, 1);'
has switch__deadline 'goto L0;'
has switch__deadline '#define WL_OFFSET_US 200ull'

# F4+F8: a sporadic SC with 3 extra refills, 6200/24800 ticks = 775/3100 us
gen switch__reprogram_flag
[ $rc -eq 0 ] || bad "switch__reprogram_flag: status $rc"
has switch__reprogram_flag 'wl_sc(775, 3100, 3, seL4_SchedContext_Sporadic, 1)'
has switch__reprogram_flag '#define WL_ARRIVALS {25201ull, 25602ull, 29003ull}'
has switch__reprogram_flag 'wl_compute(3601ull);'

refused() { # name, text of the reason
  gen "$1"
  [ $rc -eq 2 ] || bad "$1: status $rc, expected 2 (refused)"
  grep -qF -- "$2" "$OUT/$1.err" || bad "$1: reason lacks '$2': $(cat "$OUT/$1.err")"
}
# Refused, each for its reason, naming the line
refused append__entry_time--smp 'append__entry_time--smp.wl:10: cores 2 cannot be generated'
refused spurious__entry_time+entry_budget 'spurious__entry_time+entry_budget.wl:16: spurious cannot be generated'
refused enqueue__entry_time+reprogram_flag 'enqueue__entry_time+reprogram_flag.wl:37: a second irq with arrivals'

# A domain schedule: the kernel's table (--dom-out; lengths in ms as in the
# format), CONFIG_NUM_DOMAINS one more than the highest domain (printed for
# setup.sh), and the gap the root synchronises on: domain 1's 1 ms, ending
# at the start of the schedule (0:10,1:1)
gen append__idle_switch+deadline
[ $rc -eq 2 ] && grep -qF 'give --dom-out FILE' "$OUT/append__idle_switch+deadline.err" ||
  bad "a domain schedule without --dom-out: status $rc"
n=append__idle_switch+deadline
nd=$("$PY" "$GEN" --dom-out "$OUT/dom.c" "$WL/$n.wl" "$OUT/$n.c" 2>"$OUT/$n.err")
[ "$nd" = "domains 2" ] || bad "$n: printed '$nd', expected 'domains 2'"
grep -qF '{ .domain = 0, .length = 10 },' "$OUT/dom.c" && grep -qF '{ .domain = 1, .length = 1 },' "$OUT/dom.c" ||
  bad "$n: schedule table: $(cat "$OUT/dom.c")"
has "$n" '#define WL_DOM_GAP_US 1000ull'
has "$n" '#define WL_DOM_GAP_END_US 0ull'
has "$n" '#define WL_T0_AT_BOOT 1'
# 0:4,1:3,0:1: domain 1's 3 ms end 7 ms into the schedule; the threads in
# domain 1 are moved there while inactive
n=switch__deadline+cb_unblock+reprogram_flag
nd=$("$PY" "$GEN" --dom-out "$OUT/dom.c" "$WL/$n.wl" "$OUT/$n.c" 2>"$OUT/$n.err")
[ "$nd" = "domains 2" ] || bad "$n: printed '$nd'"
has "$n" '#define WL_DOM_GAP_US 3000ull'
has "$n" '#define WL_DOM_GAP_END_US 7000ull'
has "$n" 'seL4_DomainSet_Set(seL4_CapDomain, 1, wl_tcb[0])'

# Bad input: a budget that is not whole microseconds, an unknown object
tmp="$OUT/frac.wl"
printf 'sc s budget=1001 period=8000\nthread t prio=1 sc=s prog=yield\n' >"$tmp"
"$PY" "$GEN" "$tmp" "$OUT/frac.c" 2>"$OUT/frac.err"
[ $? -eq 2 ] && grep -qF 'budget 1001 ticks is not a whole number of microseconds' "$OUT/frac.err" ||
  bad "fractional budget: $(cat "$OUT/frac.err")"
printf 'thread t prio=1 prog=wait:nope\n' >"$tmp"
"$PY" "$GEN" "$tmp" "$OUT/frac.c" 2>"$OUT/frac.err"
[ $? -eq 2 ] && grep -qF "unknown notification 'nope'" "$OUT/frac.err" || bad "unknown ntfn: $(cat "$OUT/frac.err")"

# Every workload of tests/workloads is generated or refused with a reason
# (the campaign tier, argument `all`: 51 more runs of the generator)
[ "${4:-}" = all ] || exit $fail
n_ok=0 n_ref=0
for f in "$WL"/*.wl; do
  "$PY" "$GEN" --dom-out "$OUT/anydom.c" "$f" "$OUT/any.c" >/dev/null 2>"$OUT/any.err"
  case $? in
    0) n_ok=$((n_ok + 1)) ;;
    2) grep -q 'cannot be generated' "$OUT/any.err" && n_ref=$((n_ref + 1)) || bad "$f: $(cat "$OUT/any.err")" ;;

    *) bad "$f: crashed: $(cat "$OUT/any.err")" ;;
  esac
done
echo "tests/workloads: $n_ok generated, $n_ref refused"
[ $fail -eq 0 ] && echo "wl2app: all checks passed"
exit $fail
