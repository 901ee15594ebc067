#!/usr/bin/env bash
# Speed of `irqsim fuzz` against an earlier revision, as a ratio measured in
# one run (issue 12, item 2). Builds BASE_REV (from `git archive`, in a
# temporary directory) and the working tree in Release, then runs both on
# one core, alternately, RUNS times per fastpath variant, and prints each
# rate, the median, the spread and the ratio of the medians. The baseline
# may predate --checks, so both run for --seconds and rates are compared.
#
#   scripts/bench-compare.sh BASE_REV [--seconds S] [--runs N] [--cpu C]
#                            [--cpu-time] [--variants "fixed pr1227"] [-- ARGS for the new build]
#
# The machine may be shared: the alternation spreads load changes over
# both builds, and the spread says how much to trust the ratio. With
# --cpu-time a rate is checks per second of the process's own CPU time
# (user + system, /usr/bin/time) instead of per second of wall time: the
# time slices other processes take from core C do not count.
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 1 ] || usage
base_rev=$1
shift
seconds=5 runs=3 cpu=0 variants="fixed pr1227" extra=() cpu_time=0
while [ $# -gt 0 ]; do
  case $1 in
  --seconds) seconds=${2:?--seconds needs a value}; shift 2 ;;
  --runs) runs=${2:?--runs needs a value}; shift 2 ;;
  --cpu) cpu=${2:?--cpu needs a value}; shift 2 ;;
  --variants) variants=${2:?--variants needs a value}; shift 2 ;;
  --cpu-time) cpu_time=1; shift ;;
  --) shift; extra=("$@"); break ;;
  *) echo "bench-compare: unknown argument '$1'" >&2; usage ;;
  esac
done
case "$runs$seconds$cpu" in *[!0-9.]*) echo "bench-compare: --runs, --seconds and --cpu take numbers" >&2; exit 2 ;; esac
base_sha=$(git rev-parse --verify --quiet "$base_rev^{commit}") || {
  echo "bench-compare: '$base_rev' is not a revision of this repository" >&2
  exit 2
}
command -v taskset > /dev/null || { echo "bench-compare: taskset not found (Debian: util-linux)" >&2; exit 2; }
[ $cpu_time = 0 ] || [ -x /usr/bin/time ] || { echo "bench-compare: --cpu-time needs /usr/bin/time (Debian: time)" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "building $base_rev (${base_sha:0:12}) and the working tree (Release) ..." >&2
mkdir "$tmp/base"
git archive "$base_sha" | tar -x -C "$tmp/base"
build() { # src dir
  cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DIRQSIM_TESTS=OFF > /dev/null &&
    cmake --build "$2" -j2 --target irqsim > /dev/null
}
build "$tmp/base" "$tmp/base-build" || { echo "bench-compare: building $base_rev failed" >&2; exit 2; }
build . "$tmp/new-build" || { echo "bench-compare: building the working tree failed" >&2; exit 2; }

rate() { # binary variant [args...]: checks per second of one run
  local bin=$1 v=$2
  shift 2
  if [ $cpu_time = 1 ]; then
    { /usr/bin/time -f "cpu: %U %S" -o "$tmp/time" taskset -c "$cpu" "$bin" fuzz --fastpath "$v" \
      --seconds "$seconds" --jobs 1 --quiet "$@" || true; } | awk '/^checks:/ { print $2 }' > "$tmp/checks"
    awk '/^cpu:/ { t = $2 + $3 } END { getline n < "'"$tmp/checks"'"; printf "%d\n", (t > 0 ? n / t : 0) }' "$tmp/time"
    return
  fi
  { taskset -c "$cpu" "$bin" fuzz --fastpath "$v" --seconds "$seconds" --jobs 1 --quiet "$@" || true; } |
    awk '/^checks:/ { gsub(/\(/, "", $3); print $3 }'
}
stats() { # rates...: median min max
  printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END {
    m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; print m, a[1], a[NR] }'
}
echo "base: $base_rev ${base_sha:0:12}; new: working tree $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo '+changes')" \
  "${extra[*]:+(new with ${extra[*]})}"
echo "one core (cpu $cpu), $seconds s per run, $runs runs per build and variant, alternating;" \
  "$([ $cpu_time = 1 ] && echo "checks per CPU second (user + system)" || echo "checks per wall-clock second")"
for v in $variants; do
  b=() n=()
  for r in $(seq "$runs"); do
    b+=("$(rate "$tmp/base-build/irqsim" "$v")")
    n+=("$(rate "$tmp/new-build/irqsim" "$v" "${extra[@]}")")
  done
  read -r bm bmin bmax <<< "$(stats "${b[@]}")"
  read -r nm nmin nmax <<< "$(stats "${n[@]}")"
  awk -v v="$v" -v b="${b[*]}" -v n="${n[*]}" -v bm="$bm" -v bmin="$bmin" -v bmax="$bmax" \
    -v nm="$nm" -v nmin="$nmin" -v nmax="$nmax" 'BEGIN {
      printf "%-7s base %s checks/s (median %d, %d..%d)\n", v, b, bm, bmin, bmax
      printf "%-7s new  %s checks/s (median %d, %d..%d)\n", "", n, nm, nmin, nmax
      printf "%-7s ratio of medians %.2fx (worst pairing %.2fx, best %.2fx)\n", "", nm / bm, nmin / bmax, nmax / bmin
    }'
done
