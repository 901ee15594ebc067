#!/bin/sh
# The fuzzer's loop checks the same thing as `irqsim check` (issue 12, item
# 2: the fuzzer's speed-ups must not change what a check decides). Check i
# of `irqsim fuzz --seed 0 --checks N --jobs 1` is the state gen_state draws
# from seed i, which `irqsim gen --seed i` prints; `irqsim check` reads it
# back and runs it through the plain path (diff_run, no memo, no sampling).
# With --check-every 1 (invariants on every check, as `check` does) the
# fuzzer's histogram of fastpath exits and its number of divergent checks
# (the class counts summed) must equal those of `check` on the N files,
# for both fastpaths, and so must each class's count (check's "class:"
# line per state: a class is a function of the state, issue 27). Also
# checks --jobs 2 gives the same counts as --jobs 1.
#
#   fuzz_equiv.sh IRQSIM [N]    (N <= 256, the files one `check` takes)
set -u
irqsim=$1
n=${2:-256}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
while [ $i -lt "$n" ]; do
  "$irqsim" gen --seed $i > "$tmp/s$i.scen" || { echo "fuzz_equiv: irqsim gen --seed $i failed" >&2; exit 1; }
  i=$((i + 1))
done
fail=0
for v in pr1227 fixed; do
  # irqsim check: one verdict per file, exit 1 when any diverges
  "$irqsim" check --fastpath $v "$tmp"/s*.scen > "$tmp/check.txt"
  rc=$?
  if [ $rc -gt 1 ]; then
    echo "fuzz_equiv: irqsim check failed (exit $rc)" >&2
    exit 1
  fi
  sed -n 's/^fastpath exit: \([a-z_]*\) .*/\1/p' "$tmp/check.txt" | sort | uniq -c |
    awk '{ print $2, $1 }' > "$tmp/want-exits.txt"
  want_div=$(grep -c '^verdict: DIVERGE' "$tmp/check.txt")
  sed -n 's/^class: //p' "$tmp/check.txt" | sort | uniq -c | awk '{ print $2, $1 }' > "$tmp/want-classes.txt"
  for jobs in 1 2; do
    "$irqsim" fuzz --fastpath $v --seed 0 --checks "$n" --jobs $jobs --check-every 1 --quiet \
      --json "$tmp/fuzz.json" > /dev/null
    rc=$?
    if [ $rc -gt 1 ]; then
      echo "fuzz_equiv: irqsim fuzz failed (exit $rc)" >&2
      exit 1
    fi
    # "exits": {"name": count, ...} on one line; "count": per class
    tr -d '\n' < "$tmp/fuzz.json" | sed 's/.*"exits": *{\([^}]*\)}.*/\1/' | tr ',' '\n' |
      sed 's/[" ]//g; s/:/ /' | awk '$2 > 0' | sort > "$tmp/got-exits.txt"
    # the classes' counts (they follow the per-defect sums in the file)
    got_div=$(tr -d '\n' < "$tmp/fuzz.json" | sed 's/.*"classes": *\[//' | tr ',' '\n' |
      sed -n 's/.*"count": *\([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
    # "classes": [{"exit": E, "cause": C, ... "count": N, ...}, ...]: "E/C N"
    tr -d '\n' < "$tmp/fuzz.json" | sed 's/.*"classes": *\[//' | sed 's/}, *{/}\n{/g' |
      sed -n 's/.*"exit": "\([^"]*\)", "cause": "\([^"]*\)".*"count": \([0-9]*\).*/\1\/\2 \3/p' |
      sort > "$tmp/got-classes.txt"
    if ! diff "$tmp/want-classes.txt" "$tmp/got-classes.txt" > "$tmp/d.txt"; then
      echo "fuzz_equiv: FAIL ($v, --jobs $jobs): class counts differ (< irqsim check, > irqsim fuzz)"
      cat "$tmp/d.txt"
      fail=1
    fi
    if ! diff "$tmp/want-exits.txt" "$tmp/got-exits.txt" > "$tmp/d.txt"; then
      echo "fuzz_equiv: FAIL ($v, --jobs $jobs): fastpath exits differ (< irqsim check, > irqsim fuzz)"
      cat "$tmp/d.txt"
      fail=1
    fi
    if [ "$want_div" != "$got_div" ]; then
      echo "fuzz_equiv: FAIL ($v, --jobs $jobs): irqsim check finds $want_div divergent states, irqsim fuzz $got_div"
      fail=1
    fi
    echo "$v --jobs $jobs: $(wc -l < "$tmp/got-exits.txt") exits, $got_div of $n divergent in $(wc -l < "$tmp/got-classes.txt") classes, as irqsim check"
  done
done
exit $fail
