#!/bin/sh
# The profile-guided build (scripts/build-pgo.sh) computes what the build
# under test computes: the same JSON summaries but for the timings
# (bench/untimed.sed) and the same exit status, on the enumeration engines
# and the fuzzers it was trained on and one it was not (depth 2 on two
# cores). A profile changes only the code's layout and inlining; a
# difference here is undefined behaviour that one build's optimisation
# exposes, or a miscompilation: either is a bug to chase.
#
#   pgo_same.sh SRC IRQSIM WORK
set -u
src=${1:?usage: pgo_same.sh SRC IRQSIM WORK}
ref=${2:?}
work=${3:?}
rm -rf "$work"
mkdir -p "$work"
pgo=$("$src/scripts/build-pgo.sh" "$work/build-pgo" | tail -1) || { echo "FAIL: scripts/build-pgo.sh"; exit 1; }
[ -x "$pgo" ] || { echo "FAIL: no binary at '$pgo'"; exit 1; }
fail=0
n=0
same() { # same ARGS...: both builds, one command
  n=$((n + 1))
  for b in ref pgo; do
    eval bin=\$$b
    "$bin" "$@" --quiet --json "$work/$b.$n.json" > /dev/null 2>&1
    echo $? > "$work/$b.$n.rc"
  done
  if [ ! -s "$work/ref.$n.json" ] || ! grep -q '"' "$work/ref.$n.json"; then
    echo "FAIL: irqsim $*: no JSON summary (exit $(cat "$work/ref.$n.rc"))"; fail=1; return
  fi
  if ! cmp -s "$work/ref.$n.rc" "$work/pgo.$n.rc"; then
    echo "FAIL: irqsim $*: exit $(cat "$work/ref.$n.rc"), profile-guided build $(cat "$work/pgo.$n.rc")"; fail=1
  fi
  sed -f "$src/bench/untimed.sed" "$work/ref.$n.json" > "$work/ref.$n.out"
  sed -f "$src/bench/untimed.sed" "$work/pgo.$n.json" > "$work/pgo.$n.out"
  if cmp -s "$work/ref.$n.out" "$work/pgo.$n.out"; then
    echo "ok: irqsim $* (exit $(cat "$work/ref.$n.rc"))"
  else
    echo "FAIL: irqsim $*: the summaries differ"; diff "$work/ref.$n.out" "$work/pgo.$n.out" | head -10; fail=1
  fi
}
same exhaust --executions --depth 2 --cores 1
same exhaust --executions --depth 1 --cores 2 --signal-fastpath --fastpath pr1227
same exhaust --executions --depth 2 --cores 2 --no-ipi-latency --fastpath fixed
same exhaust --shard 7/400
same fuzz --checks 200000 --seed 11
same fuzz --checks 50000 --seed 12 --target call --kernel master
same fuzz --mode workload --cores 2 --checks 200 --seed 13
[ "$fail" = 0 ] && rm -rf "$work"
exit $fail
