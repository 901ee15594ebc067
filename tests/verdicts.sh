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
nothing)
  # a run that checked nothing: exit 5 and says so, never "agreed"
  # none STATUS PATTERN CMD...: CMD exits STATUS and prints PATTERN, not "agreed"
  none() {
    want=$1 pat=$2; shift 2
    expect "$want" "$@" >out.txt
    grep -q "$pat" out.txt || { cat out.txt; fail "no '$pat': $*"; }
    ! grep -q "agreed" out.txt || fail "says agreed: $*"
    echo "ok   nothing checked, exit $want: $*"
  }
  printf 'sc sc_c budget=40000 period=40000\nthread client prio=100 sc=sc_c prog=compute:1000000,loop\n' >noirq.wl
  none 5 "nothing checked: no device interrupt in the run (NOT a pass)" "$bin" sim noirq.wl
  none 5 "nothing checked: no SysSend on a notification in the run" "$bin" sim --target signal "$wl"
  : >empty.jsonl
  none 5 "nothing replayed: no entry of the trace went through the model (NOT a pass)" "$bin" replay empty.jsonl
  gzip -dc "$trace" | head -1 >header.jsonl
  none 5 "nothing replayed" "$bin" replay header.jsonl
  # one generated signal workload with no SysSend on a notification (seed 2)
  none 5 "nothing checked: no SysSend on a notification in the workloads (NOT a pass)" \
    "$bin" fuzz --mode workload --target signal --fastpath fixed --checks 1 --seed 2 --quiet
  # and a run that checked something still passes
  expect 0 "$bin" sim --fastpath fixed "$src/examples/periodic-server.wl" >out.txt
  grep -q "every device interrupt agreed" out.txt || fail "the periodic server does not agree"
  expect 0 "$bin" fuzz --mode workload --target signal --fastpath fixed --checks 1 --seed 1 --quiet >/dev/null
  echo "ok   runs that checked something pass"
  ;;
stopped)
  # an exhaust stopped before the end quotes no bound: exit 5, "Part of",
  # the part done; the resumed run to the end quotes the bound, exit 0
  fx="--fastpath fixed $small"
  part() {
    grep -q "^bound: Part of the states of irqsim's bounded space.* NOT all of it: the run stopped after $1 of its 5180 states" out.txt ||
      { cat out.txt; fail "no partial statement ($1 of 5180): $2"; }
    ! grep -q "Every state" out.txt || fail "a stopped run quotes the whole bound: $2"
    echo "ok   stopped, exit 5, statement of the part done: $2"
  }
  expect 5 "$bin" exhaust $fx --stop-after 200 --json part.json >out.txt
  part 200 "--stop-after 200"
  python3 -c 'import json,sys; d=json.load(open("part.json")); sys.exit(0 if d["statement"].startswith("Part of") and "NOT all of it" in d["statement"] else 1)' ||
    fail "the JSON's statement quotes the whole bound"
  expect 5 "$bin" exhaust $fx --seconds 0.001 >out.txt
  grep -q "^enumerated: [0-9]* of 5180 (NOT finished" out.txt || fail "--seconds: not said unfinished"
  n=$(sed -n 's/^enumerated: \([0-9]*\) of.*/\1/p' out.txt)
  part "$n" "--seconds 0.001"
  expect 5 "$bin" exhaust $fx --stop-after 300 --state s.state >out.txt
  part 300 "--stop-after 300 --state"
  expect 0 "$bin" exhaust $fx --state s.state >out.txt
  grep -q "^bound: Every state of irqsim's bounded space.*5180 states" out.txt || fail "the finished run quotes no bound"
  echo "ok   resumed to the end: exit 0, the whole bound"
  # exhaust --executions alike: stopped, no divergence in the part done
  expect 5 "$bin" exhaust --executions --depth 1 --fastpath fixed --quiet --stop-after 10 >out.txt
  grep -q "^bound: Part of the" out.txt || fail "--executions: not said partial"
  echo "ok   exhaust --executions stopped: exit 5"
  ;;
*)
  fail "unknown case $case"
  ;;
esac
echo PASS
