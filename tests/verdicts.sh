#!/bin/sh
# A verdict is printed only for what was done (issue 32): standard output
# is an output like any file (a write that fails, or a closed standard
# output, is exit 4 naming it); an output path that is one of the
# command's inputs is refused (exit 2) before anything runs, the input
# intact; a run that checked nothing is no pass; a stopped exhaust quotes
# no bound it did not cover.
# Usage: verdicts.sh IRQSIM SOURCE_DIR WORK_DIR CASE
set -u
bin=$1 src=$2 work=$3 case=$4
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1

fail() { echo "FAIL: $*"; exit 1; }
# expect STATUS CMD...: run CMD (stderr into err.txt, stdout where the
# caller's redirection of `expect` put it), check its status
expect() {
  want=$1; shift
  "$@" 2>err.txt
  got=$?
  [ "$got" -eq "$want" ] || { head -c 3000 err.txt; fail "expected exit $want, got $got: $*"; }
}
# both CMD...: CMD exits 4 with standard output on /dev/full and closed,
# and says that standard output is what failed
both() {
  expect 4 "$@" >/dev/full
  grep -Eq "cannot write standard output: (No space left on device|a write to it failed)" err.txt ||
    fail "/dev/full not named as standard output: $(cat err.txt): $*"
  expect 4 "$@" >&-
  grep -q "cannot write standard output: it is closed" err.txt || fail "closed standard output not named: $*"
  echo "ok   $*"
}
reg=$(ls "$src"/tests/regressions/*.scen | head -1)
wl=$src/examples/f5-idle-wakeup.wl
trace=$src/tests/traces/irqcov.jsonl.gz
small="--threads 1 --ntfns 1 --refills 1 --domains 1 --quiet"

case $case in
stdout)
  "$bin" fuzz --checks 2000 --seed 7 --quiet --json run.json >/dev/null 2>&1
  [ -s run.json ] || fail "no run.json to report"
  both "$bin" --help
  both "$bin" gen
  both "$bin" run --path slow "$reg"
  both "$bin" check "$reg"
  both "$bin" minimize "$reg"
  both "$bin" ratio --count 100
  both "$bin" fuzz --checks 200 --quiet
  both "$bin" fuzz --mode workload --checks 3 --quiet
  both "$bin" report run.json
  both "$bin" replay "$trace"
  both "$bin" sim "$wl"
  both "$bin" cost
  both "$bin" exhaust $small
  both "$bin" exhaust --executions --depth 1 --quiet
  both "$bin" exhaust --executions --show 0
  ;;
*)
  fail "unknown case $case"
  ;;
esac
echo PASS
