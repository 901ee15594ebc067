#!/bin/sh
# sigint-real.sh BUILD IRQSIM WORK: `irqsim fuzz --real` and `validate
# --real` stopped by SIGINT / SIGTERM print their summary and write their
# JSON for the states checked, saying so, then end by the signal (130, 143)
# (issue 20; docs/inputs.md, "SIGINT and SIGTERM"). Run through
# run-real-test.sh, which builds the kernel and passes BUILD.
# SPDX-License-Identifier: BSD-2-Clause
set -u
build=$1 irqsim=$2 work=$3
fail() { echo "sigint-real: FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
env --default-signal=INT,TERM true 2>/dev/null || { echo "SKIP: env --default-signal missing"; exit 77; }
# run SIG CMD...: start CMD with the signals at their defaults, wait until
# it catches SIGINT and SIGTERM (/proc SigCgt bits 1 and 14), send SIG
run() {
  sig=$1
  shift
  env --default-signal=INT,TERM "$irqsim" "$@" >run.txt 2>&1 &
  pid=$!
  i=0
  while [ $i -lt 300 ]; do
    cgt=$(sed -n 's/^SigCgt:[[:space:]]*//p' /proc/$pid/status 2>/dev/null)
    [ -n "$cgt" ] || { echo "SKIP: no /proc/$pid/status"; exit 77; }
    low=${cgt#????????}
    [ $((0x$low & 0x4002)) -eq $((0x4002)) ] && break
    sleep 0.1
    i=$((i + 1))
  done
  sleep 1
  kill -"$sig" $pid
  wait $pid
  rc=$?
}
run INT fuzz --real "$build" --seconds 120 --quiet --json fuzz.json
[ $rc -eq 130 ] || fail "fuzz --real: expected the status of SIGINT (130), got $rc: $(tail -3 run.txt)"
grep -q "^fuzz --real: [0-9]* states in" run.txt || fail "fuzz --real: no summary: $(tail -3 run.txt)"
grep -q "^interrupted by SIGINT" run.txt || fail "fuzz --real: the summary does not say it was interrupted"
grep -q '"interrupted": "SIGINT"' fuzz.json || fail "fuzz --real: the JSON does not say it was interrupted"
run TERM validate --real "$build" --seconds 120 --quiet --json validate.json
[ $rc -eq 143 ] || fail "validate --real: expected the status of SIGTERM (143), got $rc: $(tail -3 run.txt)"
grep -q "^interrupted by SIGTERM" run.txt || fail "validate --real: the summary does not say it was interrupted"
grep -q '"interrupted": "SIGTERM"' validate.json || fail "validate --real: the JSON does not say it was interrupted"
echo "sigint-real: fuzz --real and validate --real stop with their summary and JSON"
