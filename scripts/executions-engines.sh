#!/bin/sh
# The two engines of `irqsim exhaust --executions` on one bound, side by
# side in one run (docs/results/executions-depth3.md): for each engine,
# wall time, workloads covered per second, kernel entry states simulated,
# distinct entry states, divergence classes, exit status. Figures only, no
# assertion (test_exectree holds the answers equal).
#
#   scripts/executions-engines.sh IRQSIM [exhaust options...]
#   default options: today's bound (issue 31): --depth 2 --no-ipi-latency
#   TREE_OPTS: options of the tree engine only (TREE_OPTS="--jobs 2")
set -u
irqsim=${1:?usage: executions-engines.sh IRQSIM [exhaust options...]}
shift
[ $# -gt 0 ] || set -- --depth 2 --no-ipi-latency
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
field() { # field NAME FILE: a number of the JSON summary
  sed -n "s/^  \"$1\": \([0-9.]*\),*$/\1/p" "$2" | head -1
}
printf '%-8s %9s %12s %14s %9s %8s %5s\n' engine seconds workloads/s entry-states distinct classes exit
for engine in restart tree; do
  own=
  [ "$engine" = tree ] && own=${TREE_OPTS:-}
  # shellcheck disable=SC2086 # TREE_OPTS is a list of options
  "$irqsim" exhaust --executions "$@" $own --engine "$engine" --quiet --json "$work/$engine.json" > "$work/$engine.txt"
  echo $? > "$work/$engine.rc"
  s=$(field seconds "$work/$engine.json")
  w=$(field workloads "$work/$engine.json")
  printf '%-8s %9s %12.0f %14s %9s %8s %5s\n' "$engine" "$s" "$(echo "$w $s" | awk '{print $1 / $2}')" \
    "$(field states_checked "$work/$engine.json")" "$(field distinct_entry_states "$work/$engine.json")" \
    "$(grep -c '"class":' "$work/$engine.json")" "$(cat "$work/$engine.rc")"
done
echo "classes, restart: $(grep -o '"class": "[^"]*"' "$work/restart.json" | sort | tr '\n' ' ')"
echo "classes, tree:    $(grep -o '"class": "[^"]*"' "$work/tree.json" | sort | tr '\n' ' ')"
grep -E '^(covered|visited)' "$work/tree.txt"
