#!/bin/sh
# Findings reported per defect (issue 12, item 3). On a fixed budget of
# generated states the proposal must show all ten defects of
# docs/FINDINGS.md that a base kernel can show (F1-F8, F10, F11), each with a shrunk reproducer that
# `irqsim report` inlines; the corrected fastpath must show none; and
# `irqsim report` must reject what is not a fuzz run's JSON with exit 2.
#
#   defect_report.sh IRQSIM WORKDIR
set -u
irqsim=$1
work=$2
checks=200000
fail() { echo "defect_report: FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1

"$irqsim" fuzz --fastpath pr1227 --seed 1 --checks $checks --quiet --out out --json run.json > summary.txt
rc=$?
[ $rc = 1 ] || fail "irqsim fuzz on pr1227 exited $rc, expected 1 (divergences found)"
grep -q '^defects: 10 ' summary.txt || { cat summary.txt; fail "the summary does not name 10 defects"; }
for f in F1 F2 F3 F4 F5 F6 F7 F8 F10 F11; do
  grep -q "^  $f\. " summary.txt || fail "the summary lacks $f"
done
# the class list stays available
"$irqsim" fuzz --fastpath pr1227 --seed 1 --checks 20000 --quiet --by class > classes.txt
grep -q '^divergence classes: ' classes.txt || fail "--by class prints no class list"

"$irqsim" report -o review.md run.json || fail "irqsim report exited $?"
for f in F1 F2 F3 F4 F5 F6 F7 F8 F10 F11; do
  grep -q "^### $f\. " review.md || fail "the review lacks a section for $f"
done
# each section inlines its reproducer: a scenario file opens with its verdict
n=$(grep -c '^# irqsim scenario' review.md)
[ "$n" = 10 ] || fail "the review inlines $n reproducers, expected 10"
# the consequence texts come from the defect table (F6's, as in docs/FINDINGS.md)
grep -q 'one extra, useless timer interrupt' review.md || fail "F6's consequence is missing"

"$irqsim" fuzz --fastpath fixed --seed 1 --checks 20000 --quiet --json fixed.json > /dev/null
[ $? = 0 ] || fail "the corrected fastpath diverged"
"$irqsim" report fixed.json > fixed.md || fail "report of the fixed run exited $?"
grep -q 'agreed with the slowpath on every one' fixed.md || fail "the fixed run's review does not say it agreed"

# bad input: exit 2 and a message that names the problem
printf '{"fastpath": "pr1227", "classes": [}\n' > bad.json
"$irqsim" report bad.json 2> err.txt
[ $? = 2 ] || fail "malformed JSON did not exit 2"
grep -q '^bad.json:1: not valid JSON: column [0-9]*: ' err.txt || { cat err.txt; fail "the error does not name the file and line"; }
printf '{"checks": 3}\n' > other.json
"$irqsim" report other.json 2> err.txt
[ $? = 2 ] || fail "JSON without defects did not exit 2"
grep -q 'no .*"defects".*not the JSON of' err.txt || fail "the error does not say what is missing"
"$irqsim" report missing.json 2> err.txt
[ $? = 2 ] || fail "a missing file did not exit 2"
sed 's|"reproducer": "out/|"reproducer": "gone/|' run.json > moved.json
"$irqsim" report moved.json > /dev/null 2> err.txt
[ $? = 2 ] || fail "a missing reproducer did not exit 2"
grep -q 'gone/.*: cannot open: ' err.txt || fail "the error does not name the missing reproducer"
echo "defect_report: 10 defects, review with 10 reproducers, fixed agrees, bad input rejected"
