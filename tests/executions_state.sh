#!/bin/sh
# irqsim exhaust --executions --state (issue 19 item 3): a run stopped by
# --stop-after, --seconds or SIGTERM and resumed from its state file ends
# with a straight run's totals (its JSON equal but for "seconds", its
# summary but for the time line); a state file of other options, a
# doctored or a cut one is refused with FILE:LINE: problem, exit 2, before
# anything in it is used or the file is written over.
#
#   executions_state.sh IRQSIM WORKDIR
set -u
irqsim=$1
work=$2
fail() { echo "executions_state: FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
# depth 1 (7*7*5*2 = 490 workloads), half of it: a few seconds
ex() { "$irqsim" exhaust --executions --depth 1 --quiet "$@"; }
one="--shard 1/2"
untimed() { grep -v '"seconds"' "$1"; }

# the straight run: 245 workloads; the proposal diverges (F1 at least),
# so exit 1
ex $one --json straight.json > straight.txt
[ $? = 1 ] || fail "the straight run did not exit 1"
grep -q '"workloads": 245,' straight.json || fail "the straight run did not simulate 245 workloads"
grep -q '"finished"' straight.json && fail "a run without --state says \"finished\""

# three slices: 80 workloads, 60 more, the rest
ex $one --stop-after 80 --state s.state --json part.json > part.txt
[ $? = 1 ] || fail "the first slice (with divergences) did not exit 1"
grep -q '^position 80$' s.state || fail "the first slice did not save position 80"
grep -q '"workloads": 80,' part.json || fail "the first slice's JSON is not of 80 workloads"
grep -q '"finished": false,' part.json || fail "the first slice's JSON does not say it is not finished"
grep -q '(not finished: --state resumes from there)' part.txt || fail "the first slice does not say it resumes"
cp s.state good.state
"$irqsim" exhaust --executions --depth 1 $one --stop-after 60 --state s.state > /dev/null 2> mid.err
grep -q 'resuming from s.state at workload 80 of the 245 of the shard' mid.err || { cat mid.err; fail "no resumption at 80"; }
grep -q '^position 140$' s.state || fail "the second slice did not save position 140"
ex $one --state s.state --json resumed.json > resumed.txt
[ $? = 1 ] || fail "the resumed run did not exit 1"
untimed straight.json > a.json
untimed resumed.json > b.json
cmp -s a.json b.json || { diff a.json b.json; fail "the resumed JSON differs from the straight run's"; }
grep -v '^time:' straight.txt > a.txt
grep -v '^time:' resumed.txt > b.txt
cmp -s a.txt b.txt || { diff a.txt b.txt; fail "the resumed summary differs from the straight run's"; }
# a finished state file resumes to the same figures, nothing run
ex $one --state s.state --json again.json > /dev/null
untimed again.json > c.json
cmp -s a.json c.json || fail "a finished state file does not give the same figures"

# two cores, KernelSignalFastpath beside, shard 2/7 (lock waits, F10):
# a stop after 1 ms of workloads, then the rest
two="--cores 2 --signal-fastpath --shard 2/7"
ex $two --json straight2.json > /dev/null
ex $two --seconds 0.001 --state t.state > t.txt
grep -q 'not finished' t.txt || fail "--seconds 0.001 did not stop the run early"
ex $two --state t.state --json resumed2.json > /dev/null
untimed straight2.json > a2.json
untimed resumed2.json > b2.json
cmp -s a2.json b2.json || { diff a2.json b2.json; fail "the two-core shard's resumed JSON differs"; }
grep -q '"lock_waits": [1-9]' b2.json || fail "the two-core run has no lock wait (the test lost its point)"

# SIGTERM (a background job's SIGINT is ignored by sh) saves the state and
# ends the run by the signal
"$irqsim" exhaust --executions --depth 2 --quiet --state sig.state > sig.txt &
pid=$!
sleep 1
kill -TERM $pid
wait $pid
rc=$?
[ $rc = 143 ] || fail "SIGTERM: exit $rc, expected 143"
grep -q 'interrupted by SIGTERM: .*(--state resumes from there)' sig.txt || { cat sig.txt; fail "SIGTERM: not said"; }
grep -q '^position [1-9]' sig.state || fail "SIGTERM: no position saved"
"$irqsim" exhaust --executions --depth 2 --quiet --stop-after 1 --state sig.state > /dev/null 2>&1
# (5: not finished and no divergence yet, issue 32)
case $? in 0|1|5) ;; *) fail "SIGTERM: the saved state does not resume" ;; esac

# a state file that cannot be written: exit 4
ex $one --stop-after 1 --state nodir/x.state > /dev/null 2> nodir.err
[ $? = 4 ] || fail "an unwritable state file did not exit 4"
grep -q 'nodir/x.state' nodir.err || fail "an unwritable state file is not named"

# refused files: the good one is the first slice's (classes, hashes)
# bad NAME LINE PATTERN OPTIONS...: good.state edited by $edit, read by a
# run with OPTIONS, is refused at LINE with PATTERN, exit 2, no summary,
# the file as it was
bad() {
  name=$1 line=$2 pat=$3; shift 3
  "$irqsim" exhaust --executions --quiet "$@" --state "$name.state" > "$name.out" 2> "$name.err"
  rc=$?
  [ $rc = 2 ] || { cat "$name.err"; fail "$name: exit $rc, expected 2"; }
  grep -q -e "^irqsim exhaust --executions: $name.state:$line: $pat" "$name.err" ||
    { cat "$name.err"; fail "$name: no '$name.state:$line: $pat'"; }
  [ ! -s "$name.out" ] || fail "$name: a summary was printed"
  cmp -s "$name.state" "$name.keep" || fail "$name: the state file was written over"
}
edit() { # edit NAME SED-SCRIPT: NAME.state from good.state
  sed "$2" good.state > "$1.state"
  cp "$1.state" "$1.keep"
  cmp -s good.state "$1.state" && fail "$1: the edit changed nothing"
}
ln() { grep -n "^$1" good.state | head -n 1 | cut -d: -f1; }
for o in "--depth 2" "--depth 1 --cores 2" "--depth 1 --fastpath fixed" "--depth 1" "--depth 1 --shard 2/2" \
         "--depth 1 --signal-fastpath" "--depth 1 --kernel master"; do
  cp good.state other.state && cp good.state other.keep
  case "$o" in "--depth 1"|*--shard*) ;; *) o="$o $one" ;; esac
  bad other 2 "is the state of another run" $o
done
edit magic 's/^irqsim-executions-state 4$/irqsim-exhaust-state 1/'
bad magic 1 "not an irqsim exhaust --executions state file" --depth 1 $one
# format 2 hashed the distinct entry states otherwise (format 1 ran the
# GIC's choices in two orders, not six): their totals do not add up with these
edit oldformat 's/^irqsim-executions-state 4$/irqsim-executions-state 2/'
bad oldformat 1 "a state file of another format (irqsim-executions-state 2; this irqsim writes irqsim-executions-state 4)" --depth 1 $one
edit position 's/^position 80$/position 246/'
bad position "$(ln position)" "position 246 is beyond the shard's 245 workloads" --depth 1 $one
edit counts 's/^counts 80 /counts 79 /'
bad counts "$(ln counts)" "simulated + refused at setup is not the position (80)" --depth 1 $one
edit exits 's/^exits 0 /exits 1 /'
bad exits "$(ln exits)" "exits: more than the checked entries" --depth 1 $one
edit sits 's/^sits \([0-9]*\) /sits 99999999 /'
bad sits "$(ln sits)" "sits: more than the checked entries" --depth 1 $one
edit classfirst '0,/^class/s/^class \([0-9]*\) \([0-9]*\) \([0-9]*\) \([0-9]*\) [0-9]* \([0-5]\)$/class \1 \2 \3 \4 170 \5/'
bad classfirst "$(ln class)" "hits or first workload out of range" --depth 1 $one
edit classorder '0,/^class/s/^class \([0-9 ]*\) [0-5]$/class \1 6/'
bad classorder "$(ln class)" "bad class (an exit below" --depth 1 $one
edit classagain '0,/^class/{/^class/p}'
bad classagain "$(($(ln class) + 1))" "the class of line $(ln class) again" --depth 1 $one
edit cause '0,/^class/s/^class \([0-9]*\) [0-9]* /class \1 2147483647 /'
bad cause "$(ln class)" "cause 2147483647 is not a cause" --depth 1 $one
edit hashdup '0,/^seen/s/^seen \([0-9a-f]*\) [0-9a-f]*/seen \1 \1/'
bad hashdup "$(ln seen)" "hash [0-9a-f]* again" --depth 1 $one
edit hasheven '0,/^seen/s/^seen \([0-9a-f]*\)[13579bdf] /seen \10 /'
bad hasheven "$(ln seen)" "hash [0-9a-f]* is even" --depth 1 $one
edit hashshort '0,/^seen/s/^seen \([0-9a-f]*\)[0-9a-f] /seen \1 /'
bad hashshort "$(ln seen)" "hash 1 is not 16 lowercase hex digits" --depth 1 $one
edit hashgone '0,/^seen/s/^seen \([0-9a-f]*\) /seen /'
bad hashgone "$(ln seen)" "[0-9]* hashes for [0-9]* distinct entry states" --depth 1 $one
edit refusal '/^end$/i refusal 3 t=5: made up'
bad refusal "$(ln end)" "a refusal without refused states" --depth 1 $one
edit unknown 's/^elapsed/elapsd/'
bad unknown "$(ln elapsed)" "unknown key 'elapsd'" --depth 1 $one
edit again '/^exits/p'
bad again "$(($(ln exits) + 1))" "'exits' again" --depth 1 $one
edit after '$a class 0 0 0 1 0 0'
bad after "$(($(wc -l < good.state) + 1))" "'class' after 'end'" --depth 1 $one
# cut short: at a line's end (no 'end'), and within a line
n=$(wc -l < good.state)
head -n 5 good.state > cut.state && cp cut.state cut.keep
bad cut 5 "incomplete" --depth 1 $one
head -c "$(($(wc -c < good.state) - 30))" good.state > mid.state && cp mid.state mid.keep
bad mid "$((n - 1))" "cut short" --depth 1 $one
[ "$n" -gt 5 ] || fail "the good state file has $n lines"
awk 'NR == 3 { printf "#"; for (i = 0; i < 3000; i++) printf "x"; print "" } { print }' good.state > long.state
cp long.state long.keep
bad long 3 "line longer than" --depth 1 $one
echo "executions_state: stopped and resumed runs end with the straight runs' figures; bad state files refused"
