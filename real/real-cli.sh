#!/bin/sh
# real-cli.sh BUILD IRQSIM TREE CACHE: the --real family's command line
# (issue 21, "as polished as the rest"):
#   --help anywhere (after --real too), exit 0, the usage naming every option;
#   fuzz --real: a short default output (the summary and at most a dozen
#   kinds), --verbose the details, --by class every kind, --jobs 1 taken
#   and more refused with the reason; a relative BUILD from the caller's
#   folder; irqsim report reads the JSON of fuzz --real, validate --real
#   and review.
# SPDX-License-Identifier: BSD-2-Clause
build=$1 irqsim=$2 tree=$3 cache=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok   $*"; }
ko() { echo "FAIL $*"; fail=1; }

for c in validate fuzz check bench; do
    "$irqsim" $c --real --help >"$tmp/h" 2>&1
    rc=$?
    missing=""
    for o in --real --target --fastpath --seconds --checks --seed --kernel --by --verbose --show --jobs --out --json --quiet; do
        grep -q -- "$o" "$tmp/h" || missing="$missing $o"
    done
    [ $rc = 0 ] && [ -z "$missing" ] && ok "$c --real --help: exit 0, every option named" ||
        ko "$c --real --help: exit $rc, missing:$missing"
done

"$irqsim" fuzz --real "$build" --checks 20000 --quiet --json "$tmp/f.json" >"$tmp/f" 2>&1
rc=$?
lines=$(wc -l <"$tmp/f")
# (the situations the build fixes take a line per reason, up to six)
[ $rc = 1 ] && [ "$lines" -le 32 ] && grep -q '^kinds: ' "$tmp/f" && ok "fuzz --real: $lines lines by default" ||
    { ko "fuzz --real: exit $rc, $lines lines"; tail -3 "$tmp/f"; }
"$irqsim" fuzz --real "$build" --checks 20000 --quiet --verbose >"$tmp/v" 2>&1
[ "$(wc -l <"$tmp/v")" -gt $((lines * 4)) ] && grep -q '^-- seed ' "$tmp/v" &&
    ok "fuzz --real --verbose: each kind's fields ($(wc -l <"$tmp/v") lines)" || ko "fuzz --real --verbose: no details"
"$irqsim" fuzz --real "$build" --checks 20000 --quiet --by class >"$tmp/c" 2>&1
n=$(sed -n 's/^kinds: \([0-9]*\) .*/\1/p' "$tmp/c")
listed=$(grep -c '^ *[0-9][0-9]*  .*first at seed' "$tmp/c")
[ -n "$n" ] && [ "$n" -gt 10 ] && [ "$listed" = "$n" ] && ok "fuzz --real --by class: all $n kinds listed" ||
    ko "fuzz --real --by class: $listed of ${n:-?} kinds listed"
"$irqsim" fuzz --real "$build" --checks 100 --quiet --jobs 1 >/dev/null 2>&1
rc=$?
[ $rc -le 1 ] && ok "fuzz --real --jobs 1: taken" || ko "fuzz --real --jobs 1: exit $rc"
"$irqsim" fuzz --real "$build" --checks 100 --quiet --jobs 2 >/dev/null 2>"$tmp/e"
rc=$?
[ $rc = 2 ] && grep -q 'one job' "$tmp/e" && ok "fuzz --real --jobs 2: refused, the reason said" || ko "fuzz --real --jobs 2: exit $rc"

(cd "$(dirname "$build")" && "$irqsim" validate --real "./$(basename "$build")" --checks 200 --quiet >/dev/null 2>&1)
rc=$?
[ $rc = 0 ] && ok "validate --real ./BUILD from its folder: exit 0" || ko "relative BUILD: exit $rc"

"$irqsim" report "$tmp/f.json" >"$tmp/r" 2>&1
rc=$?
[ $rc = 0 ] && grep -q '^## irqsim: fastpath_irq against the slowpath on the real kernel' "$tmp/r" && grep -q '^| F1 |' "$tmp/r" &&
    ok "report of fuzz --real JSON: the defects table" || { ko "report of fuzz --real JSON: exit $rc"; head -3 "$tmp/r"; }
"$irqsim" validate --real "$build" --checks 500 --quiet --json "$tmp/v.json" >/dev/null 2>&1
"$irqsim" report "$tmp/v.json" >"$tmp/r" 2>&1
rc=$?
[ $rc = 0 ] && grep -q 'the model on the real kernel' "$tmp/r" && ok "report of validate --real JSON" ||
    { ko "report of validate --real JSON: exit $rc"; head -3 "$tmp/r"; }
# without --target: 500 interrupt entries, then 125 SysSends (a quarter)
# and 32 SysCalls and 32 SysReplyRecvs (a quarter of that, rounded up),
# both in the JSON's checks and the report
grep -q '"checks": 689,' "$tmp/v.json" && grep -q '"syscalls": {"checks": 189, "diverged": 0' "$tmp/v.json" &&
    grep -q 'Of them, 189 were system calls' "$tmp/r" &&
    ok "validate --real without --target: 500 entries and 189 system calls, in the JSON and the report" ||
    ko "validate --real without --target: the system-call pass is not in the JSON or the report"
"$irqsim" review --sel4 "$tree" --baseline "$tree" --configs imx8mm-evk --checks 2000 --cache "$cache" --quiet \
    --json "$tmp/rv.json" >/dev/null 2>&1
rc=$?
"$irqsim" report "$tmp/rv.json" >"$tmp/r" 2>&1
rc2=$?
# both targets of the PR head reviewed (issue 30): nothing new, each named
[ $rc = 0 ] && [ $rc2 = 0 ] && grep -q '^## irqsim review' "$tmp/r" && grep -q 'nothing new' "$tmp/r" &&
    grep -q 'Targets: irq present, reviewed (2000 states.*; signal present, reviewed (2000 states' "$tmp/r" &&
    ok "report of review JSON" || { ko "report of review JSON: review exit $rc, report exit $rc2"; head -3 "$tmp/r"; }
exit $fail
