#!/bin/sh
# The host-side tools of scripts/bench-qemu.sh, without QEMU or a kernel:
# collect.py on made-up serial logs (tests/fixtures/bench_qemu/out: every
# sample a multiple of 8, as under -icount shift=3), and kedit.py on
# stand-in files (tests/fixtures/bench_qemu/kedit).
# Usage: bench_qemu_tools.sh PYTHON SRC_DIR WORK_DIR
set -u
PY=$1 SRC=$2 W=$3
FX=$SRC/tests/fixtures/bench_qemu
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$W" && mkdir -p "$W"

# collect.py: PMCCNTR / 8, mean and n-1 stddev of the samples, the saving
# against the slowpath, the timer overhead and the fix cost. Expected by
# hand: switch samples 4000 x15 and 4016 x15 -> 500 and 502 -> mean 501,
# stddev sqrt(30/29) = 1.02; pr1227 3200/3216 -> 401, saved 100/501 = 20.0%;
# no switch 4800 -> 600, 2400 -> 300 (50.0%), 2560 -> 320 (46.7%); timer
# 4096 -> 512, 4200 -> 525 (+13), 4184 -> 523 (+11); fixed-no-entry-budget
# 3200 -> 400 against fixed 411: fix_cost +11.
"$PY" "$SRC/scripts/bench-qemu/collect.py" "$FX/out" "$W/r.json" || fail "collect.py failed"
"$PY" - "$W/r.json" <<'PYEOF' || fail "collect.py figures"
import json, sys
d = json.load(open(sys.argv[1]))
c = {(x["kernel"], x["gic"], x["situation"]): x for x in d["results"]}
def eq(a, b, what):
    if a != b:
        print(f"{what}: {a!r}, expected {b!r}"); sys.exit(1)
eq(c[("slowpath", 2, "switch")]["mean"], 501.0, "slowpath switch mean")
eq(c[("slowpath", 2, "switch")]["stddev"], 1.02, "slowpath switch stddev")
eq(c[("slowpath", 2, "switch")]["samples"], 30, "samples")
eq(c[("pr1227", 3, "switch")]["saved_pct"], 20.0, "pr1227 switch saving")
eq(c[("pr1227", 2, "noswitch")]["mean"], 300.0, "pr1227 noswitch mean")
eq(c[("fixed", 2, "noswitch")]["saved_pct"], 46.7, "fixed noswitch saving")
eq(c[("fixed", 2, "noswitch")]["unit"], "instructions (PMCCNTR_EL0 / 8 under QEMU -icount shift=3,sleep=off)", "unit")
t = {(x["kernel"], x["gic"]): x for x in d["timer_fallback"]}
eq(t[("pr1227", 2)]["overhead"], 13.0, "pr1227 timer overhead")
eq(t[("fixed", 3)]["overhead"], 11.0, "fixed timer overhead")
v = d["fix_variants"]
eq([(x["kernel"], x["situation"], x["mean"], x["fix_cost"]) for x in v],
   [("fixed-no-entry-budget", "switch", 400.0, 11.0)], "fix variants")
eq(d["same_address_space"][0]["mean"], 500.0, "same address space")
PYEOF
"$PY" "$SRC/tests/bench_qemu_json.py" "$W/r.json" | grep -q '^ok: 12 cells' || fail "the checker refuses collect.py's output"

# a sample that is not a multiple of 2^shift is refused, naming the log
cp -r "$FX/out" "$W/bad"
sed -i 's/"Raw results": \[4800,/"Raw results": [4801,/' "$W/bad/slowpath-gic2-noswitch.log"
out=$("$PY" "$SRC/scripts/bench-qemu/collect.py" "$W/bad" "$W/bad.json" 2>&1); rc=$?
[ $rc = 2 ] && echo "$out" | grep -q 'slowpath-gic2-noswitch.log: .*not a multiple of 2^shift = 8' ||
  fail "collect.py accepted a sample that is not a multiple of 8 (rc $rc: $out)"
rm "$W/bad/slowpath-gic2-noswitch.log.inputs" && cp "$FX/out/slowpath-gic2-noswitch.log" "$W/bad/"
out=$("$PY" "$SRC/scripts/bench-qemu/collect.py" "$W/bad" "$W/bad.json" 2>&1); rc=$?
[ $rc = 2 ] && echo "$out" | grep -q 'slowpath-gic2-noswitch.log.inputs: missing' ||
  fail "collect.py ran without the run's shift (rc $rc: $out)"

# kedit.py fixed: the definition renamed, the include and defines appended,
# idempotent; a file without the definition is refused
cp "$FX/kedit/fastpath.c" "$W/fp.c"
"$PY" "$SRC/scripts/bench-qemu/kedit.py" fixed "$W/fp.c" /x/hk_fixed.c HK_FIXED_OFF_DEADLINE || fail "kedit fixed failed"
grep -q '^void NORETURN fastpath_irq_pr1227(void)$' "$W/fp.c" || fail "definition not renamed"
grep -q '^void fastpath_irq(void);$' "$W/fp.c" || fail "the declaration was touched"
grep -q '^#define HK_FIXED_OFF_DEADLINE 1$' "$W/fp.c" || fail "define missing"
grep -q '^#include "/x/hk_fixed.c"$' "$W/fp.c" || fail "include missing"
grep -q '^    fastpath_irq_corrected();$' "$W/fp.c" || fail "the new fastpath_irq is missing"
cp "$W/fp.c" "$W/fp2.c"
"$PY" "$SRC/scripts/bench-qemu/kedit.py" fixed "$W/fp2.c" /x/hk_fixed.c && cmp -s "$W/fp.c" "$W/fp2.c" || fail "kedit fixed is not idempotent"
printf 'void other(void)\n{\n}\n' >"$W/none.c"
out=$("$PY" "$SRC/scripts/bench-qemu/kedit.py" fixed "$W/none.c" /x/hk_fixed.c 2>&1); rc=$?
[ $rc = 1 ] && echo "$out" | grep -q "exactly one definition 'void NORETURN fastpath_irq()' expected" ||
  fail "kedit fixed accepted a file without the definition (rc $rc)"

# kedit.py gic: header and source by IRQSIM_QEMU_GIC, gic_v2 by default
cp "$FX/kedit/config.cmake" "$W/c.cmake"
"$PY" "$SRC/scripts/bench-qemu/kedit.py" gic "$W/c.cmake" || fail "kedit gic failed"
grep -q 'INTERRUPT_CONTROLLER arch/machine/${IRQSIM_QEMU_GIC}.h' "$W/c.cmake" &&
  grep -q 'src/arch/arm/machine/${IRQSIM_QEMU_GIC}.c' "$W/c.cmake" &&
  grep -q 'set(IRQSIM_QEMU_GIC gic_v2)' "$W/c.cmake" || fail "kedit gic output"
printf 'nothing here\n' >"$W/n.cmake"
out=$("$PY" "$SRC/scripts/bench-qemu/kedit.py" gic "$W/n.cmake" 2>&1); rc=$?
[ $rc = 1 ] && echo "$out" | grep -q 'one gic_v2.h header and one gic_v2.c source expected, found 0 and 0' ||
  fail "kedit gic accepted a file without the GICv2 lines (rc $rc)"
# bench-qemu.sh's command line (issue 32 item 10), no QEMU needed:
# --help shows every option and variable, the timeout it states is the
# code's, --only naming no image is refused with the names, --only selects
# for the build as for the run (--list), the work folder is locked
BQ=$SRC/scripts/bench-qemu.sh
export IRQSIM_BENCH_WORK="$W/work"
help=$(bash "$BQ" --help) || fail "--help exited $?"
for w in 'build | run | json' sel4test --out --fixes --only --list --no-apt IRQSIM_SHARED IRQSIM_BENCH_WORK \
         IRQSIM_CAPTURE_JOBS IRQSIM_BENCH_TIMEOUT; do
  echo "$help" | grep -q -- "$w" || fail "--help does not show $w"
done
tmo=$(sed -n 's/^TMO=\${IRQSIM_BENCH_TIMEOUT:-\([0-9]*\)}$/\1/p' "$BQ")
[ -n "$tmo" ] && echo "$help" | tr '\n' ' ' | grep -q "IRQSIM_BENCH_TIMEOUT ([^)]*default $tmo)" ||
  fail "--help does not state the timeout the code uses ($tmo s)"
out=$(bash "$BQ" --only 'gic2-*' run 2>&1); rc=$?
[ $rc = 2 ] && echo "$out" | grep -q "^bench-qemu: error: --only 'gic2-\*' matches no image" &&
  echo "$out" | grep -q '^  pr1227-gic2-switch$' || fail "--only matching nothing: exit $rc: $out"
[ ! -e "$W/work" ] || fail "--only matching nothing touched the work folder"
got=$(bash "$BQ" --only '*-gic3-*' --list | tr '\n' ' ')
[ "$got" = "slowpath-gic3-switch slowpath-gic3-noswitch slowpath-gic3-timer pr1227-gic3-switch pr1227-gic3-noswitch pr1227-gic3-timer fixed-gic3-switch fixed-gic3-noswitch fixed-gic3-timer " ] ||
  fail "--only '*-gic3-*' --list: $got"
n=$(bash "$BQ" --fixes --only 'fixed-no-*' --list | wc -l)
[ "$n" = 24 ] || fail "--fixes --only 'fixed-no-*': $n images, expected 24 (8 fixes, GICv2, 3 situations)"
grep -q 'selected "$k-gic$gic-$sit" && sits+=' "$BQ" || fail "the build step does not take --only's selection"
# a build waits for the lock another run holds on the work folder
mkdir -p "$W/work"
(exec 9>>"$W/work/.lock" && flock 9 && exec sleep 20) >/dev/null 2>&1 &
holder=$! # sleep itself holds the lock: killing it frees the lock
sleep 0.5
bash "$BQ" --no-apt build >"$W/lock.out" 2>&1 &
waiter=$!
i=0
while [ $i -lt 50 ] && ! grep -q 'waiting for .*/work/.lock' "$W/lock.out"; do sleep 0.1; i=$((i + 1)); done
kill $waiter 2>/dev/null
kill $holder 2>/dev/null
wait $waiter $holder 2>/dev/null
grep -q 'waiting for .*/work/.lock: another bench-qemu run' "$W/lock.out" ||
  fail "a build did not wait for the work folder's lock: $(cat "$W/lock.out")"
echo "bench-qemu tools: all checks passed"
