#!/bin/sh
# replay_wait_signal.sh IRQSIM WORKDIR: `irqsim replay` stopped by SIGINT
# while it waits on a pipe or a FIFO ends by the signal (status 130), with
# its summary, not with 2 (bad input) as when the read's EINTR was taken
# for a read error (issue 32 item 9). Cases: a pipe whose writer sends
# nothing (the read waits), a FIFO nobody opens for writing (the open
# waits).
# SPDX-License-Identifier: BSD-2-Clause
set -u
irqsim=$1 work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
env --default-signal=INT,TERM true 2>/dev/null || { echo "SKIP: env --default-signal missing"; exit 0; }
fail=0

# caught PID: wait until PID catches SIGINT (SigCgt bit 1), at most 30 s
caught() {
  i=0
  while [ $i -lt 300 ]; do
    cgt=$(sed -n 's/^SigCgt:[[:space:]]*//p' /proc/$1/status 2>/dev/null)
    [ -n "$cgt" ] || return 1
    [ $((0x${cgt#????????} & 0x2)) -eq 2 ] && return 0
    sleep 0.1
    i=$((i + 1))
  done
  return 1
}

# interrupt NAME: SIGINT to $pid once it waits; its status 130 and its summary
interrupt() {
  caught $pid || { echo "FAIL $1: replay never caught SIGINT"; fail=1; return; }
  sleep 1
  kill -INT $pid
  wait $pid
  rc=$?
  if [ $rc = 130 ] && grep -q '^interrupted by SIGINT' "$1.txt" && ! grep -q 'read error' "$1.txt"; then
    echo "ok   $1: status 130, the summary says interrupted"
  else
    echo "FAIL $1: status $rc (130 wanted)"; cat "$1.txt"; fail=1
  fi
}

mkfifo wait-read
sleep 60 > wait-read &
writer=$!
env --default-signal=INT,TERM "$irqsim" replay wait-read > read.txt 2>&1 &
pid=$!
interrupt read
kill $writer 2>/dev/null

mkfifo wait-open
env --default-signal=INT,TERM "$irqsim" replay wait-open > open.txt 2>&1 &
pid=$!
interrupt open
exit $fail
