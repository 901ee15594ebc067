#!/bin/sh
# `irqsim exhaust --shard K/N` as the jobs of an array, merged as
# docs/EXHAUSTIVE.md ("Spreading a large bound over a farm") says: each
# shard a separate process with --state, then `irqsim exhaust --merge` of
# their state files. The merge must report what the straight run of the
# whole space reports: its JSON equal but for "seconds", its --out
# reproducers the same files, its summary the same but for the time and
# the situations (which state files do not keep), its exit status the
# same. Shards of another split, a missing, repeated or unfinished shard
# and a state file of other options are refused (exit 2, naming it).
#
#   tests/exhaust_merge.sh IRQSIM
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=$(mktemp -d /tmp/irqsim-merge-XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$work" || exit 1

# same NAME: the straight run and the merge of N shards report alike
same() {
  name=$1 n=$2
  shift 2
  "$bin" exhaust "$@" --quiet --json "$name.json" --out "$name.out" > "$name.txt"
  want=$?
  k=1
  while [ "$k" -le "$n" ]; do
    "$bin" exhaust "$@" --quiet --shard "$k/$n" --state "$name-$k.state" > /dev/null &
    k=$((k + 1))
  done
  wait
  # in another order than K, as a job array's results arrive
  files=$(printf '%s\n' "$name"-*.state | sort -r)
  # shellcheck disable=SC2086
  "$bin" exhaust "$@" --quiet --merge $files --json "$name-m.json" --out "$name-m.out" > "$name-m.txt"
  got=$?
  [ "$got" -eq "$want" ] || fail "$name: the merge exits $got, the straight run $want"
  grep -v '"seconds"' "$name.json" > a.json
  grep -v '"seconds"' "$name-m.json" > b.json
  diff a.json b.json || fail "$name: the merged JSON is not the straight run's"
  diff -r "$name.out" "$name-m.out" || fail "$name: the merged --out is not the straight run's"
  # the summary: all but the situations (never kept) and the time
  sed '/^situations/,/^time:/d' "$name.txt" > a.txt
  sed '/^situations/,/^time:/d' "$name-m.txt" > b.txt
  diff a.txt b.txt || fail "$name: the merged summary is not the straight run's"
  grep -q '^time: .* summed over the shards' "$name-m.txt" || fail "$name: the merged time is not called a sum"
  echo "$name: $n shards merged = the straight run ($(grep -o '"enumerated": [0-9]*' "$name.json"), exit $want)"
}

B="--threads 1 --refills 1 --domains 2"
# shellcheck disable=SC2086
same irq 3 $B
# shellcheck disable=SC2086
same fixed 2 $B --fastpath fixed
same signal 4 --target signal --threads 1 --refills 1 --domains 1
grep -q '"diverged": [1-9]' irq.json || fail "the pr1227 bound shows no divergence: the merge of classes goes untested"
[ "$(find irq.out -name '*.scen' | wc -l)" -ge 2 ] || fail "the pr1227 bound writes fewer than 2 reproducers"

# refuse EXPECT-PATTERN ARGS...: exit 2 with the pattern on stderr
refuse() {
  pat=$1
  shift
  "$bin" exhaust "$@" > out.txt 2> err.txt
  rc=$?
  [ "$rc" -eq 2 ] || { cat err.txt; fail "$*: expected exit 2, got $rc"; }
  grep -q -- "$pat" err.txt || { cat err.txt; fail "$*: no '$pat' in the message"; }
}
# shellcheck disable=SC2086
refuse 'missing: 2/3' $B --merge irq-1.state irq-3.state
# shellcheck disable=SC2086
refuse 'shard 1/3 twice' $B --merge irq-1.state irq-2.state irq-1.state
# shellcheck disable=SC2086
refuse 'not one split' $B --merge irq-1.state irq-2.state fixed-1.state
# shellcheck disable=SC2086
refuse 'is the state of another run' --threads 1 --refills 1 --domains 1 --merge irq-1.state irq-2.state irq-3.state
# shellcheck disable=SC2086
"$bin" exhaust $B --quiet --shard 2/3 --stop-after 10 --state cut-2.state > /dev/null
# shellcheck disable=SC2086
refuse 'is not finished' $B --merge irq-1.state cut-2.state irq-3.state
# shellcheck disable=SC2086
refuse 'cannot read nothing-3.state: No such file' $B --merge irq-1.state irq-2.state nothing-3.state
# shellcheck disable=SC2086
refuse 'not with --shard' $B --shard 1/2 --merge irq-1.state
# shellcheck disable=SC2086
refuse 'takes files only with --merge' $B irq-1.state
echo "exhaust_merge: ok"
