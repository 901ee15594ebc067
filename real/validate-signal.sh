#!/bin/sh
# validate-signal.sh BUILD IRQSIM CHECKS: `irqsim validate --real BUILD
# --target signal` on a debug build with the signal fastpath: the model's
# slowpath(SysSend) and merged fastpath_signal against the real ones, no
# mismatch; and not vacuous: the real fastpath finished some calls itself
# and fell back on others (ksKernelEntry.is_fastpath, debug builds), as
# often as the model's exits say. Then `irqsim fuzz --real BUILD --target
# signal`, the real fastpath_signal against the real slowpath: master's
# fastpath diverges (S1-S6 of docs/FINDINGS-signal.md), so the command says
# how many calls it ran and exits 1, never "nothing checked" (it exited 5
# on every run before its count reached the command) nor 0 over its
# divergences; --seconds bounds it (it ran 20,000 calls whatever was asked).
# SPDX-License-Identifier: BSD-2-Clause
build=$1 irqsim=$2 checks=$3
out=$("$irqsim" validate --real "$build" --target signal --checks "$checks" --quiet)
rc=$?
echo "$out"
[ $rc = 0 ] || { echo "validate --target signal: exit $rc"; exit 1; }
line=$(echo "$out" | grep 'fastpath finished the call: model')
set -- $(echo "$line" | sed 's/[^0-9 ]//g')
# model finished, real finished, model fell back, real fell back
[ "$1" = "$2" ] && [ "$3" = "$4" ] || { echo "finished/fell back differ: $line"; exit 1; }
[ "$2" -gt 0 ] && [ "$4" -gt 0 ] || { echo "vacuous: $line"; exit 1; }
out=$("$irqsim" fuzz --real "$build" --target signal --checks 2000 --seed 1 --json /dev/stdout)
rc=$?
echo "$out" | grep -E '^rk_signal|divergent'
[ $rc = 1 ] || { echo "fuzz --real --target signal: exit $rc, expected 1 (master's fastpath_signal diverges)"; exit 1; }
echo "$out" | grep -q 'nothing checked' && { echo "fuzz --real --target signal: 'nothing checked'"; exit 1; }
ran=$(echo "$out" | sed -n 's/^rk_signal: \([0-9]*\) seL4_Send through both real paths.*/\1/p')
[ "${ran:-0}" -gt 0 ] || { echo "fuzz --real --target signal: no call through both paths"; exit 1; }
echo "$out" | grep -q "\"checks\": $ran," ||
    { echo "fuzz --real --target signal: the JSON does not count the $ran calls"; exit 1; }
t0=$(date +%s)
"$irqsim" fuzz --real "$build" --target signal --seconds 2 --seed 1 >/dev/null
t=$(($(date +%s) - t0))
[ $t -le 10 ] || { echo "fuzz --real --target signal --seconds 2 took $t s"; exit 1; }
exit 0
