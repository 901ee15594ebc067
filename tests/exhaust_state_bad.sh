#!/bin/sh
# irqsim exhaust --state on doctored state files (issue 20): each is
# refused with FILE:LINE: problem and exit 2 before anything in it is used
# (digits as indices, counts in the bound statement), and the good file
# still resumes.
#
#   exhaust_state_bad.sh IRQSIM WORKDIR
set -u
irqsim=$1
work=$2
fail() { echo "exhaust_state_bad: FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
opts="--threads 1 --quiet"

"$irqsim" exhaust $opts --stop-after 500 --state good.state > /dev/null
[ $? = 1 ] || fail "the first 500 states did not diverge"
grep -q '^best_class 0 ' good.state || fail "no class in the state file"

# bad NAME LINE PATTERN SED-SCRIPT: the good file edited by SED-SCRIPT is
# refused at LINE with a message matching PATTERN
bad() {
  sed "$4" good.state > "$1.state"
  cmp -s good.state "$1.state" && fail "$1: the edit changed nothing"
  "$irqsim" exhaust $opts --state "$1.state" > "$1.out" 2> "$1.err"
  rc=$?
  [ $rc = 2 ] || { cat "$1.err"; fail "$1: exit $rc, expected 2"; }
  grep -q -e "^irqsim exhaust: $1.state:$2: $3" "$1.err" || { cat "$1.err"; fail "$1: no '$1.state:$2: $3'"; }
  [ ! -s "$1.out" ] || fail "$1: a summary was printed"
}
ln() { grep -n "^$1" good.state | head -n 1 | cut -d: -f1; }

bad digit "$(ln digits)" "its position is not a state\|the digits are not" 's/^digits \([0-9]*\) [0-9]*/digits \1 200/'
bad ordinal "$(ln ordinal)" "ordinal 100000000000 is not a state of the space of 54542" 's/^ordinal .*/ordinal 100000000000/'
# the digits of state 501 with the ordinal 500: each in range, but another state
"$irqsim" exhaust $opts --stop-after 501 --state next.state > /dev/null
next=$(grep '^digits' next.state)
bad shifted "$(ln digits)" "the digits are not those of state 500" "s/^digits .*/$next/"
bad enumerated "$(ln counts)" "100000000000 states enumerated, but the shard has 500" 's/^counts 500 /counts 100000000000 /'
bad agree "$(ln counts)" "agree + diverged" 's/^counts \([0-9]*\) \([0-9]*\) \([0-9]*\) \([0-9]*\) /counts \1 \2 \3 7 /'
bad exits "$(ln exits)" "the exits do not add up" 's/^exits \([0-9]*\)/exits 1\1/'
bad exitrange "$(ln class)" "bad class (exit below" 's/^class [0-9]* /class 99 /'
bad cause "$(ln class)" "cause 2147483647 is not a cause" 's/^class \([0-9]*\) [0-9]* /class \1 2147483647 /'
bad fields "$(ln class)" "fields 0x.* name no field" 's/^class \([0-9]*\) \([0-9]*\) [0-9]* /class \1 \2 4294967295 /'
bad defects "$(ln defects)" "defect F12's count is not its classes'" 's/^defects \(.*\) \([0-9]*\)$/defects \1 12345/'
bad size "$(ln best_defect)" "size 1 is not the size of state" '0,/^best_defect/s/^best_defect \([0-9]*\) [0-9]* /best_defect \1 1 /'
bad bestord "$(ln best_class)" "the digits are not those of state\|before the class's first\|not a state of this shard" '0,/^best_class/s/^best_class 0 \([0-9]*\) \([0-9]*\) /best_class 0 \1 300 /'
bad again "$(($(ln exits) + 1))" "'exits' again" '/^exits/p'
bad donebad "$(ln done)" "'done' is not 0 or 1" 's/^done 0/done 7/'
bad magic 1 "not an irqsim exhaust state file" '1s/ 1$/ 1x/'
bad unknown "$(ln elapsed)" "unknown key 'elapsd'" 's/^elapsed/elapsd/'
bad finished "$(ln ordinal)" "ordinal 500 is not the last state" 's/^done 0/done 1/'
awk 'NR == 3 { printf "#"; for (i = 0; i < 3000; i++) printf "x"; print "" } { print }' good.state > long.state
"$irqsim" exhaust $opts --state long.state > /dev/null 2> long.err
[ $? = 2 ] && grep -q "long.state:3: line longer than" long.err || { cat long.err; fail "long line"; }

# the good file resumes and finishes as a straight run does
"$irqsim" exhaust $opts --state good.state --json resumed.json > /dev/null
[ $? = 1 ] || fail "the good state file did not resume"
"$irqsim" exhaust $opts --json straight.json > /dev/null
for k in enumerated checked diverged; do
  a=$(grep "\"$k\"" resumed.json) b=$(grep "\"$k\"" straight.json)
  [ "$a" = "$b" ] || fail "resumed $k '$a' differs from the straight run's '$b'"
done
echo "exhaust_state_bad: every doctored state file refused with exit 2"
