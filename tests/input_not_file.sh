#!/bin/sh
# Issue 27: a scenario and a workload are read by one loader (check/infile.c),
# so both refuse what is not a regular file alike: a directory (which the
# scenario reader once read as a "read error" and the workload reader as
# "not a regular file") and a FIFO (which the scenario reader waited on).
# Each is refused with exit 2 and FILE:0: naming it.
#
#   input_not_file.sh IRQSIM WORKDIR
set -u
irqsim=$1
work=$2
fail() { echo "input_not_file: FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work/dir.scen" "$work/dir.wl" || exit 1
cd "$work" || exit 1
mkfifo fifo || exit 1

# refused NAME ARGS...: exit 2 and "NAME:0: not a regular file"
refused() {
    name=$1
    shift
    "$irqsim" "$@" > out.txt 2> err.txt &
    pid=$!
    # a FIFO opened for reading waits for a writer: refused at once, or killed
    i=0
    while kill -0 $pid 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    kill -0 $pid 2>/dev/null && { kill $pid; fail "irqsim $*: still waiting after 10 s"; }
    wait $pid
    rc=$?
    [ $rc = 2 ] || fail "irqsim $*: exit $rc, expected 2"
    grep -q "^$name:0: not a regular file" err.txt || fail "irqsim $*: no '$name:0: not a regular file' in: $(cat err.txt)"
}

refused dir.scen check dir.scen
refused dir.scen run --path slow dir.scen
refused dir.wl sim dir.wl
refused fifo check fifo
refused fifo sim fifo
echo "input_not_file: scenarios and workloads refuse a directory and a FIFO alike"
