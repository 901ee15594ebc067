#!/bin/sh
# `irqsim report` on a signal run (master's fastpath_signal,
# docs/FINDINGS-signal.md). The run of docs/FUZZING.md that made
# docs/review-signal.md must show all eight defects S1-S6, S9 and S10, each as a
# section with its shrunk reproducer (a signal scenario: a 'syscall send'
# line) inline; the committed review must be that run's report (but for
# the seconds, which are wall-clock); and a JSON whose target or defect
# ids do not fit must be refused with exit 2 and a message naming the file.
#
#   defect_report_signal.sh IRQSIM WORKDIR SRCDIR
set -u
irqsim=$1
work=$2
src=$3
fail() { echo "defect_report_signal: FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
ids="S1 S2 S3 S4 S5 S6 S9 S10"

# the command of docs/FUZZING.md (section 1) for docs/review-signal.md
"$irqsim" fuzz --target signal --fastpath merged --checks 100000 --seed 1 --jobs 1 --quiet \
  --out sig-out --json sig-run.json > summary.txt
rc=$?
[ $rc = 1 ] || fail "irqsim fuzz --target signal exited $rc, expected 1 (divergences found)"
grep -q '^  "target": "signal",$' sig-run.json || fail "the signal run's JSON does not name its target"
"$irqsim" report -o review-signal.md sig-run.json || fail "irqsim report of the signal run exited $?"

# one section per defect, each with its own reproducer: split at the headings
for s in $ids; do
  awk -v h="### $s. " 'index($0, h) == 1 { on = 1; next } /^### / { on = 0 } on' review-signal.md > "sec-$s.md"
  [ -s "sec-$s.md" ] || fail "the review lacks a section for $s"
  grep -q '^<details><summary>Smallest reproducer' "sec-$s.md" || fail "$s has no reproducer"
  grep -q '^# irqsim scenario' "sec-$s.md" || fail "$s's reproducer is not a scenario file"
  grep -q '^syscall send ' "sec-$s.md" || fail "$s's reproducer is not a SysSend state"
  grep -q '^\*\*Trade-off or defect\.\*\* ' "sec-$s.md" || fail "$s has no trade-off verdict"
done
n=$(grep -c '^### ' review-signal.md)
[ "$n" = 8 ] || fail "the review has $n sections, expected 8 ($ids)"
# worded for master's function, not for PR #1227
grep -q "^## irqsim: master's signal fastpath (\`merged\`) against the slowpath$" review-signal.md ||
  fail "the title is not the signal fastpath's"
grep -q 'slowpath (`slowpath(SysSend)`)' review-signal.md || fail "the slowpath is not named"
! grep -q 'PR #1227' review-signal.md || fail "the signal review mentions PR #1227"
# verdicts from docs/FINDINGS-signal.md: S1 a trade-off, S6 not
grep -q 'Design trade-off, not a bug' sec-S1.md || fail "S1's verdict is missing"
grep -q 'Not a trade-off: fastpath_call checks extraCaps == 0' sec-S6.md || fail "S6's verdict is missing"
grep -q '`msg_info`: ' sec-S6.md || fail "S6's fix is not read from the signal fix table"

# the committed review is this run's report; only the wall-clock differs
# (on every build: the states of a seed do not depend on the compiler,
# CTest gen_digest)
strip() { sed -e 's/ in [0-9]* s (/ in N s (/' -e 's/first after [0-9.]* s/first after N s/' "$1"; }
strip "$src/docs/review-signal.md" > committed.md
strip review-signal.md > fresh.md
diff committed.md fresh.md > review.diff ||
  { head -20 review.diff; fail "docs/review-signal.md is not the report of the documented run"; }

# bad input: a target that is not one, a JSON whose ids are another target's
sed 's/"target": "signal"/"target": "sgnl"/' sig-run.json > unknown.json
"$irqsim" report unknown.json > /dev/null 2> err.txt
[ $? = 2 ] || fail "an unknown target did not exit 2"
grep -q "^unknown.json: unknown target 'sgnl'" err.txt || { cat err.txt; fail "the error does not name the file and target"; }
grep -v '"target"' sig-run.json > untagged.json
"$irqsim" report untagged.json > /dev/null 2> err.txt
[ $? = 2 ] || fail "signal ids under the IRQ target did not exit 2"
grep -q "^untagged.json: defect id 'S1' .* is a defect of target signal, but the JSON's target is irq" err.txt ||
  { cat err.txt; fail "the error does not say the ids are the signal target's"; }
"$irqsim" fuzz --fastpath pr1227 --seed 1 --checks 20000 --quiet --json irq.json > /dev/null
sed '1a\  "target": "signal",' irq.json > mislabelled.json
"$irqsim" report mislabelled.json > /dev/null 2> err.txt
[ $? = 2 ] || fail "IRQ ids under the signal target did not exit 2"
grep -q "^mislabelled.json: defect id 'F1' .* is a defect of target irq, but the JSON's target is signal$" err.txt ||
  { cat err.txt; fail "the error does not say the ids are the IRQ target's"; }
# truncated JSON: refused as invalid, never a crash (ASan builds abort)
size=$(wc -c < sig-run.json)
for cut in 1 17 $((size / 3)) $((size / 2)) $((size - 3)); do
  head -c $cut sig-run.json > cut.json
  "$irqsim" report cut.json > /dev/null 2> err.txt
  [ $? = 2 ] || fail "JSON cut at $cut bytes did not exit 2"
  grep -q '^cut.json:[0-9]*: not valid JSON' err.txt || { cat err.txt; fail "JSON cut at $cut: no parse error"; }
done
echo "defect_report_signal: 8 sections with reproducers, committed review matches, bad input rejected"
