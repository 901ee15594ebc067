#!/bin/sh
# no-fastpath.sh BUILD IRQSIM SCENARIO: the --real commands on a build
# without fastpath_irq (master: kernel.info irq_fastpath=0) say so (issue
# 21, "true words"): validate checks the slowpath only, says that, and the
# model is the build's kernel (master) unless --kernel says (as base the
# slowpath mismatches: master's slowpath is not base's); what needs the
# fastpath (fuzz, bench, --fastpath) is refused with exit 2 and that
# reason; check of an IRQ scenario runs the slowpath against the model's
# and says so (validate saves such reproducers on these builds).
# SPDX-License-Identifier: BSD-2-Clause
build=$1 irqsim=$2 scen=$3
grep -q '^irq_fastpath=0' "$build/kernel.info" || { echo "$build has an IRQ fastpath"; exit 1; }
fail=0
out=$("$irqsim" validate --real "$build" --checks 5000 --quiet 2>&1)
rc=$?
echo "$out" | sed 's/^/  /'
if [ $rc = 0 ] && echo "$out" | grep -q 'through the slowpath only (the build has no IRQ fastpath' &&
    echo "$out" | grep -q 'model: kernel master' && ! echo "$out" | grep -q 'fastpath as built'; then
    echo "ok   validate: the slowpath only, said so, the model as master, exit 0"
else
    echo "FAIL validate: exit $rc"; fail=1
fi
"$irqsim" validate --real "$build" --checks 5000 --quiet --kernel base >/dev/null 2>&1
rc=$?
[ $rc = 1 ] && echo "ok   validate --kernel base: mismatches (exit 1): --kernel overrides the build's" ||
    { echo "FAIL validate --kernel base: exit $rc"; fail=1; }
# refused: exit 2, the reason on stderr, nothing run
refused() {
    err=$("$irqsim" "$@" 2>&1 >/dev/null)
    rc=$?
    if [ $rc = 2 ] && echo "$err" | grep -q 'has no IRQ fastpath'; then
        echo "ok   $1 --real BUILD $4 $5: refused (exit 2)"
    else
        echo "FAIL $*: exit $rc: $err"; fail=1
    fi
}
refused fuzz --real "$build" --checks 100 --quiet
refused fuzz --real "$build" --fastpath fixed --checks 100 --quiet
refused validate --real "$build" --fastpath as-built --checks 100 --quiet
refused bench --real "$build" --checks 100
out=$("$irqsim" check --real "$build" "$scen" 2>&1)
rc=$?
# the scenario is a master state of the PR's fastpath's append exit: the
# slowpath (master's handleInterruptEntry) is the model's, so they agree
if [ $rc = 0 ] && echo "$out" | grep -q "no IRQ fastpath: the model's slowpath against the real one): AGREE" &&
    echo "$out" | grep -q '1 outcomes checked, 0 broke one'; then
    echo "ok   check --real BUILD (an IRQ scenario): the slowpath against the model's, AGREE, exit 0"
else
    echo "FAIL check --real BUILD $scen: exit $rc"; echo "$out" | tail -3; fail=1
fi
exit $fail
