#!/bin/sh
# What irqsim does when it writes files (check/out.h, docs/inputs.md
# "Outputs"): a write that fails (a full disk as /dev/full, --out naming a
# file, a path too long, a reproducer's name taken by a folder) exits 4 and
# never leaves a file listed that was not written; paths of any length give
# distinct reproducers; a path with a quote or a backslash goes into the
# JSON escaped; a JSON that cannot be written whole leaves the previous one;
# SIGINT and SIGTERM stop fuzz, the workload fuzzer and exhaust with their
# summary and JSON (and exhaust's state) for the work done.
# Runs as root too: no test relies on a read-only folder.
# Usage: outputs.sh IRQSIM SOURCE_DIR WORK_DIR CASE
set -u
bin=$1 src=$2 work=$3 case=$4
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
# python3 itself, not a version manager's shim (pyenv's costs 0.3 s a start)
py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) || py=

fail() { echo "FAIL: $*"; exit 1; }
# expect STATUS CMD...: run CMD (stdout and stderr into out.txt), check its status
expect() {
  want=$1; shift
  "$@" >out.txt 2>&1
  got=$?
  [ "$got" -eq "$want" ] || { head -c 3000 out.txt; fail "expected exit $want, got $got: $*"; }
}
# json_ok FILE: FILE parses as JSON, and every "reproducer" named in it exists
json_ok() {
  [ -n "$py" ] || { echo "SKIP: no python3 to read the JSON"; exit 0; }
  "$py" - "$1" <<'EOF' || fail "$1: not valid JSON, or it names a reproducer that does not exist"
import json, os, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
for k in ("defects", "classes"):
    for c in d.get(k, []):
        r = c.get("reproducer", "")
        if r and not os.path.isfile(r):
            sys.exit("listed but not written: %r" % r)
EOF
}
# listed FILE: the reproducers FILE names, one a line
listed() {
  "$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); print("\n".join(sorted({c["reproducer"] for k in ("defects","classes") for c in d.get(k,[]) if c.get("reproducer")})))' "$1" 2>/dev/null
}
no_temporaries() {
  left=$(find "$1" -name '.irqsim-*' | head -3)
  [ -z "$left" ] || fail "temporaries left behind: $left"
}
# start CMD...: in the background with SIGINT and SIGTERM at their defaults
# (a shell without job control starts background jobs with SIGINT ignored,
# and irqsim keeps an ignored signal ignored); returns once its handlers
# are in
start() {
  env --default-signal=INT,TERM true 2>/dev/null || { echo "SKIP: env --default-signal missing"; exit 0; }
  env --default-signal=INT,TERM "$@" >run.txt 2>&1 &
  pid=$!
  # until the process catches SIGINT (bit 1) and SIGTERM (bit 14) of
  # /proc's SigCgt (slow under the sanitizers), then a second of work
  i=0
  while [ $i -lt 300 ]; do
    cgt=$(sed -n 's/^SigCgt:[[:space:]]*//p' /proc/$pid/status 2>/dev/null)
    [ -n "$cgt" ] || { sleep 2; break; }
    low=${cgt#????????}
    [ $((0x$low & 0x4002)) -eq $((0x4002)) ] && break
    sleep 0.1
    i=$((i + 1))
  done
  sleep 1
}

case $case in
full)
  # /dev/full: every write fails with ENOSPC at the flush; each command exits 4
  reg=$(ls "$src"/tests/regressions/*.scen | head -1)
  expect 4 "$bin" fuzz --checks 2000 --seed 7 --quiet --json /dev/full
  grep -q "cannot write /dev/full: No space left on device" out.txt || fail "no reason given: $(cat out.txt)"
  expect 4 "$bin" fuzz --mode workload --checks 5 --seed 7 --quiet --json /dev/full
  expect 4 "$bin" exhaust --threads 1 --ntfns 1 --refills 1 --domains 1 --quiet --json /dev/full
  expect 4 "$bin" sim --json /dev/full "$src/examples/f5-idle-wakeup.wl"
  expect 4 "$bin" sim --svg /dev/full "$src/examples/f5-idle-wakeup.wl"
  expect 4 "$bin" sim --state /dev/full "$src/examples/f5-idle-wakeup.wl"
  expect 4 "$bin" minimize -o /dev/full "$reg"
  expect 4 "$bin" cost --json /dev/full
  expect 4 "$bin" replay --json /dev/full "$src/tests/traces/irqcov.jsonl.gz"
  expect 1 "$bin" fuzz --checks 2000 --seed 7 --quiet --json run.json
  expect 4 "$bin" report -o /dev/full run.json
  # and /dev/null, a device too, is written in place, not replaced
  expect 1 "$bin" fuzz --checks 2000 --seed 7 --quiet --json /dev/null
  [ -c /dev/null ] || fail "/dev/null is no longer a device"
  ;;
out-is-file)
  # --out naming a regular file: refused before the run, exit 4, no JSON
  : >afile
  expect 4 "$bin" fuzz --checks 2000 --seed 7 --quiet --out afile --json run.json
  grep -q "cannot create the folder afile" out.txt || fail "no reason given: $(cat out.txt)"
  [ ! -e run.json ] || fail "a JSON written although its reproducers cannot be"
  expect 4 "$bin" fuzz --mode workload --checks 5 --seed 1 --quiet --out afile
  expect 4 "$bin" exhaust --threads 1 --ntfns 1 --refills 1 --domains 1 --quiet --out afile
  expect 4 "$bin" replay --out afile "$src/tests/traces/irqcov.jsonl.gz"
  ;;
repro-fails)
  # a reproducer that cannot be written (a folder holds its name): exit 4,
  # the JSON lists the others and not that one, no temporary left
  expect 1 "$bin" fuzz --checks 20000 --seed 7 --quiet --out d1 --json one.json
  json_ok one.json
  first=$(listed one.json | head -1)
  [ -n "$first" ] || fail "the first run listed no reproducer"
  name=$(basename "$first")
  mkdir -p "d2/$name"
  expect 4 "$bin" fuzz --checks 20000 --seed 7 --quiet --out d2 --json two.json
  grep -q "cannot write d2/$name" out.txt || fail "no message for d2/$name: $(cat out.txt)"
  json_ok two.json
  listed two.json | grep -qF "d2/$name" && fail "two.json lists d2/$name, which was not written"
  n1=$(listed one.json | wc -l) n2=$(listed two.json | wc -l)
  [ "$n2" -eq $((n1 - 1)) ] || fail "expected $((n1 - 1)) reproducers listed, got $n2"
  grep -q "reproducer: d2/$name " out.txt && fail "the summary names d2/$name, which was not written"
  no_temporaries d2
  # the workload fuzzer likewise
  expect 1 "$bin" fuzz --mode workload --checks 30 --seed 1 --quiet --out w1 --json w1.json
  wfirst=$(listed w1.json | head -1)
  [ -n "$wfirst" ] || fail "the workload fuzzer listed no reproducer"
  mkdir -p "w2/$(basename "$wfirst")"
  expect 4 "$bin" fuzz --mode workload --checks 30 --seed 1 --quiet --out w2 --json w2.json
  json_ok w2.json
  listed w2.json | grep -qF "w2/$(basename "$wfirst")" && fail "w2.json lists a reproducer not written"
  no_temporaries w2
  ;;
long-path)
  # 5000 characters: more than the system takes; exit 4 with the reason
  long=$(printf '%05000d' 0 | tr 0 x)
  expect 4 "$bin" fuzz --checks 2000 --seed 7 --quiet --out "$long" --json run.json
  grep -q "File name too long" out.txt || fail "no reason given"
  # 700 characters the system takes (three folders of 230): each class its
  # own file, as many as the JSON lists (a 400-byte buffer made them one)
  p=$(printf '%0230d' 0 | tr 0 a)/$(printf '%0230d' 0 | tr 0 b)/$(printf '%0230d' 0 | tr 0 c)
  mkdir -p "$p"
  expect 1 "$bin" fuzz --checks 20000 --seed 7 --quiet --out "$p/d" --json run.json
  json_ok run.json
  files=$(ls "$p/d" | wc -l)
  classes=$("$py" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["classes"]))' run.json)
  [ "$files" -gt 1 ] && [ "$files" -eq "$classes" ] || fail "$classes classes, $files files in $p/d"
  ;;
escape)
  # a quote, a backslash and a tab in --out: valid JSON naming the files
  d=$(printf 'q"uo\\te\tx')
  expect 1 "$bin" fuzz --checks 20000 --seed 7 --quiet --out "$d" --json run.json
  json_ok run.json
  [ "$(listed run.json | wc -l)" -gt 0 ] || fail "no reproducer listed"
  expect 1 "$bin" fuzz --mode workload --checks 30 --seed 1 --quiet --out "$d" --json wl.json
  json_ok wl.json
  # a thread name of the workload with a quote and a backslash (sim --json)
  sed 's/\blow\b/lo"w\\x/g' "$src/examples/f5-idle-wakeup.wl" >q.wl
  expect 1 "$bin" sim --json q.json q.wl
  "$py" -c 'import json,sys; t=json.load(open(sys.argv[1]))["kernels"][0]["threads"]; sys.exit(0 if "lo\"w\\x" in t else "thread name lost: %r" % t)' q.json \
    || fail "sim --json"
  # a name that is not UTF-8 cannot go into JSON faithfully: refused, exit
  # 4, and the previous JSON stays whole
  expect 1 "$bin" fuzz --checks 2000 --seed 7 --quiet --json keep.json
  cp keep.json before.json
  expect 4 "$bin" fuzz --checks 20000 --seed 3 --quiet --out "$(printf 'bad\377dir')" --json keep.json
  grep -q "not UTF-8" out.txt || fail "no reason given: $(cat out.txt)"
  cmp -s keep.json before.json || fail "the previous JSON was overwritten"
  no_temporaries .
  ;;
sigint-fuzz)
  start "$bin" fuzz --seconds 60 --seed 7 --quiet --out d --json run.json
  kill -INT $pid
  wait $pid
  rc=$?
  [ $rc -eq 130 ] || fail "expected the status of SIGINT (130), got $rc"
  grep -q "^interrupted by SIGINT" run.txt || fail "no summary saying so: $(cat run.txt)"
  grep -q "^checks: " run.txt || fail "no summary"
  json_ok run.json
  grep -q '"interrupted": "SIGINT"' run.json || fail "the JSON does not say it was interrupted"
  no_temporaries d
  ;;
sigterm-wlfuzz)
  start "$bin" fuzz --mode workload --seconds 60 --seed 7 --quiet --json run.json
  kill -TERM $pid
  wait $pid
  rc=$?
  [ $rc -eq 143 ] || fail "expected the status of SIGTERM (143), got $rc"
  grep -q "^interrupted by SIGTERM" run.txt || fail "no summary saying so: $(cat run.txt)"
  json_ok run.json
  grep -q '"interrupted": "SIGTERM"' run.json || fail "the JSON does not say it was interrupted"
  ;;
sigint-replay)
  # a replay of 64 traces stops between records, with its summary and JSON
  t=$src/tests/traces/sel4bench-irquser.jsonl.gz
  set -- ; i=0
  while [ $i -lt 64 ]; do set -- "$@" "$t"; i=$((i + 1)); done
  start "$bin" replay --json run.json "$@"
  kill -INT $pid
  wait $pid
  rc=$?
  [ $rc -eq 130 ] || fail "expected the status of SIGINT (130), got $rc"
  grep -q "^interrupted by SIGINT" run.txt || fail "no summary saying so: $(tail -3 run.txt)"
  grep -q "^replay (pr1227): " run.txt || fail "no summary"
  json_ok run.json
  grep -q '"interrupted": "SIGINT"' run.json || fail "the JSON does not say it was interrupted"
  ;;
sigterm-exhaust)
  # the state file saved at the stop resumes the run
  start "$bin" exhaust --quiet --state st --json run.json
  kill -TERM $pid
  wait $pid
  rc=$?
  [ $rc -eq 143 ] || fail "expected the status of SIGTERM (143), got $rc"
  grep -q "^interrupted by SIGTERM" run.txt || fail "no summary saying so: $(cat run.txt)"
  grep -q '"interrupted": "SIGTERM"' run.json || fail "the JSON does not say it was interrupted"
  grep -q '"finished": false' run.json || fail "the JSON says finished"
  json_ok run.json
  [ "$(head -1 st)" = "irqsim-exhaust-state 1" ] || fail "no state file"
  done_before=$(sed -n 's/^enumerated: \([0-9]*\).*/\1/p' run.txt)
  [ "${done_before:-0}" -gt 0 ] || fail "nothing enumerated before the signal"
  expect 1 "$bin" exhaust --state st --stop-after 1000
  grep -q "resuming from st" out.txt || fail "did not resume: $(head -5 out.txt)"
  after=$(sed -n 's/^enumerated: \([0-9]*\).*/\1/p' out.txt)
  [ "$after" -gt "$done_before" ] || fail "resumed at $after, not past $done_before"
  no_temporaries .
  ;;
*)
  fail "unknown case $case"
  ;;
esac
echo "ok: $case"
