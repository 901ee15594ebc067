#!/bin/sh
# validate-signal.sh BUILD IRQSIM CHECKS: `irqsim validate --real BUILD
# --target signal` on a debug build with the signal fastpath: the model's
# slowpath(SysSend) and merged fastpath_signal against the real ones, no
# mismatch; and not vacuous: the real fastpath finished some calls itself
# and fell back on others (ksKernelEntry.is_fastpath, debug builds), as
# often as the model's exits say.
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
exit 0
