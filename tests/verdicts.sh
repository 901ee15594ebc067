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

fail() { echo "FAIL: $*" >&2; exit 1; }
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
clobber)
  # refused: exit 2, a message naming both, nothing printed, the input intact
  # refused NAME CMD...: CMD names the file NAME as an output and an input
  refused() {
    name=$1; shift
    cp "$name" keep
    expect 2 "$@" >out.txt
    grep -q "is also an input" err.txt || fail "no reason given: $(cat err.txt): $*"
    [ ! -s out.txt ] || fail "ran although refused: $*"
    cmp -s keep "$name" || fail "$name changed: $*"
    echo "ok   refused: $*"
  }
  cp "$trace" t.jsonl.gz
  refused t.jsonl.gz "$bin" replay --json t.jsonl.gz t.jsonl.gz
  ln t.jsonl.gz hard.jsonl.gz
  refused t.jsonl.gz "$bin" replay --json hard.jsonl.gz "$trace" t.jsonl.gz
  ln -s t.jsonl.gz soft.jsonl.gz
  refused t.jsonl.gz "$bin" replay --json ./soft.jsonl.gz t.jsonl.gz
  cp "$wl" w.wl
  refused w.wl "$bin" sim --svg w.wl w.wl
  refused w.wl "$bin" sim --json w.wl w.wl
  refused w.wl "$bin" sim --state w.wl w.wl
  "$bin" fuzz --checks 2000 --seed 7 --quiet --json run.json >/dev/null 2>&1
  [ -s run.json ] || fail "no run.json to report"
  refused run.json "$bin" report -o run.json run.json
  cp "$reg" r.scen
  refused r.scen "$bin" minimize -o r.scen r.scen
  "$bin" exhaust $small --stop-after 100 --state s.state >/dev/null 2>&1
  grep -q '^irqsim-exhaust-state' s.state || fail "no exhaust state file"
  refused s.state "$bin" exhaust $small --state s.state --json s.state
  "$bin" exhaust --executions --depth 1 --quiet --stop-after 10 --state e.state >/dev/null 2>&1
  grep -q '^irqsim-executions-state' e.state || fail "no executions state file"
  refused e.state "$bin" exhaust --executions --depth 1 --quiet --state e.state --json e.state
  # not a clash: --state written over is exhaust's resume point; a device
  expect 1 "$bin" exhaust $small --state s.state >/dev/null
  expect 0 "$bin" replay --json /dev/null "$trace" >/dev/null
  echo "ok   exhaust --state resumes and rewrites its own file; --json /dev/null is written"
  ;;
*)
  fail "unknown case $case"
  ;;
esac
echo PASS
