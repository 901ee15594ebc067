#!/bin/sh
# Targets as plug-ins (issue 28): irqsim built once more with the test-only
# stub target (check/target_stub.c, one file; one registration line in
# check/target.c, under -DIRQSIM_STUB_TARGET=ON) runs every engine on it:
# the generator, the scenario writer and reader, the one-state check, the
# fuzzer (as written and fixed, every state and outcome through the
# invariant checker), the bounded enumeration, and the workload simulator on
# one and two cores. The stub's "fastpath" is the slowpath itself and is
# the second target of the interrupt entry, so each must agree everywhere,
# and a state must say which of the two it is for (its `target stub` line).
# Usage: stub_target.sh SOURCE_DIR BUILD_DIR C_COMPILER SANITIZE C_FLAGS
# Exits 1 naming the first step that failed, 0 with a line saying all passed.
src=$1 build=$2 cc=$3 san=$4 flags=$5
fail() { echo "stub_target: $*" >&2; exit 1; }
CC=$cc cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="$flags" \
  -DIRQSIM_SANITIZE="$san" -DIRQSIM_TESTS=OFF -DIRQSIM_STUB_TARGET=ON >/dev/null || fail "configure failed"
cmake --build "$build" --target irqsim -j2 >/dev/null || fail "the build with the stub target failed"
b=$build/irqsim
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
# generate, print, read back: the state names its target, and the check
# that reads it runs the stub (its one exit) and agrees
"$b" gen --target stub --seed 3 >"$t/s.scn" || fail "gen --target stub failed"
grep -qx 'target stub' "$t/s.scn" || fail "a generated stub state has no 'target stub' line"
"$b" check "$t/s.scn" >"$t/check.txt" || fail "check of a generated stub state: exit $?"
grep -q '^fastpath exit: slow ' "$t/check.txt" || fail "check did not run the stub's fastpath: $(cat "$t/check.txt")"
grep -qx 'verdict: AGREE' "$t/check.txt" || fail "check: no AGREE verdict"
# the same state without its target line is the IRQ target's, PR #1227's fastpath
grep -vx 'target stub' "$t/s.scn" >"$t/irq.scn"
"$b" check --fastpath fixed "$t/irq.scn" >"$t/irq.txt" 2>&1
grep -q '^fastpath exit: slow ' "$t/irq.txt" && fail "without its target line the state still ran the stub"
# the fuzzer, both variants; the enumeration; workloads on one and two cores
for v in written fixed; do
  "$b" fuzz --target stub --fastpath $v --checks 20000 --seed 1 --check-every 1 --quiet >"$t/f.txt" ||
    fail "fuzz --target stub --fastpath $v: exit $?"
  grep -q 'divergences: none' "$t/f.txt" || fail "fuzz --fastpath $v: no 'divergences: none' line"
  grep -q '^  slow  *20000 ' "$t/f.txt" || fail "fuzz --fastpath $v: the stub's exit did not take every check"
done
"$b" exhaust --target stub --fastpath fixed --threads 1 --quiet >"$t/e.txt" || fail "exhaust --target stub: exit $?"
grep -q 'agrees with the slowpath on every one of them' "$t/e.txt" || fail "exhaust: no full agreement"
for c in 1 2; do
  "$b" fuzz --mode workload --target stub --fastpath fixed --cores $c --kernel master --checks 10 --seed 1 \
    --quiet >"$t/w.txt" || fail "workload fuzz, $c core(s): exit $?"
  grep -q 'divergences: none' "$t/w.txt" || fail "workload fuzz, $c core(s): a divergence"
  grep -Eq 'device interrupts checked[^:]*: [1-9]' "$t/w.txt" || fail "workload fuzz, $c core(s): no entry checked"
done
# the other targets are unchanged by the stub's registration
"$b" fuzz --target irq --checks 2000 --seed 1 --quiet | grep -q 'F1\.' || fail "the IRQ target lost its defects"
echo "stub target: generated, printed, read, checked, fuzzed, enumerated and simulated; every run agreed"
