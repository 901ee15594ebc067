#!/bin/sh
# A divergence's class is a function of its state (issue 27, item 3): on a
# --checks budget, `irqsim fuzz` at --jobs 1 and --jobs 2 checks the same
# states, so its JSON must be the same but for the times and the number of
# jobs: the same classes in the same order, with the same counts, fields,
# first seeds, and the same defects. Before issue 27 a per-worker memo of
# causes by exit and fields made the counts depend on what a worker saw
# first: at --checks 5000 --seed 7 two IRQ classes differed.
#
#   fuzz_classes_jobs.sh IRQSIM [N]
set -u
irqsim=$1
n=${2:-5000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for t in irq signal; do
  for jobs in 1 2; do
    "$irqsim" fuzz --target $t --seed 7 --checks "$n" --jobs $jobs --quiet --json "$tmp/j$jobs.json" > /dev/null
    rc=$?
    if [ $rc -gt 1 ]; then
      echo "fuzz_classes_jobs: irqsim fuzz --target $t --jobs $jobs failed (exit $rc)" >&2
      exit 1
    fi
    # what may differ: the times and the number of jobs
    sed 's/"first_seconds": [0-9.]*//g; s/"seconds": [0-9.]*//; s/"checks_per_second": [0-9.]*//;
         s/"jobs": [0-9]*//' "$tmp/j$jobs.json" > "$tmp/n$jobs.json"
  done
  if ! grep -q '"count": [1-9]' "$tmp/n1.json"; then
    echo "fuzz_classes_jobs: FAIL ($t): no divergence class at --checks $n: the test checks nothing"
    fail=1
  fi
  if diff "$tmp/n1.json" "$tmp/n2.json" > "$tmp/d.txt"; then
    echo "$t: $(grep -c '"exit":' "$tmp/n1.json") classes, the same at --jobs 1 and 2"
  else
    echo "fuzz_classes_jobs: FAIL ($t): --jobs 1 and --jobs 2 differ (< jobs 1, > jobs 2); classes:"
    # each class on one line: exit, cause, count
    for j in 1 2; do
      tr -d '\n' < "$tmp/n$j.json" | sed 's/.*"classes": *\[//' | sed 's/}, *{/}\n{/g' |
        sed -n 's/.*"exit": "\([^"]*\)", "cause": "\([^"]*\)".*"count": \([0-9]*\).*/\1\/\2 \3/p' |
        sort > "$tmp/c$j.txt"
    done
    diff "$tmp/c1.txt" "$tmp/c2.txt"
    fail=1
  fi
done
exit $fail
