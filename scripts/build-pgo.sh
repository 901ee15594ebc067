#!/usr/bin/env bash
# A profile-guided build of irqsim (GCC, Release): build it with counters,
# train it on a fixed set of short runs (the enumeration engines on one
# and two cores, the state and workload fuzzers of each target), build it
# again from the counts. For the long runs: the depth-3 enumeration of
# issue 31 runs 1.2-1.3x faster with it than with the plain Release
# build (docs/results/executions-depth3.md, "Ninth pass"). Its answers are
# the plain build's (CTest pgo_same compares their JSON summaries).
#
#   scripts/build-pgo.sh [DIR]   (default ./build-pgo; prints DIR/irqsim)
#
# The training is a fixed list of counted runs (no --seconds): the same
# counts, and so the same binary, on every run of a given compiler.
set -euo pipefail
dir=${1:-build-pgo}
case $dir in /*) ;; *) dir=$PWD/$dir ;; esac # DIR as the caller named it, before the cd
cd "$(dirname "$0")/.."
scripts/setup.sh
command -v gcc >/dev/null || { echo "build-pgo.sh: needs gcc" >&2; exit 2; }
profile=$(mkdir -p "$dir" && cd "$dir" && pwd)/pgo-profile
say() { echo "build-pgo.sh: $*" >&2; }

config() { # config generate|use
  CC=gcc cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DIRQSIM_TESTS=OFF \
    -DIRQSIM_PGO="$1" -DIRQSIM_PGO_DIR="$profile" >/dev/null
  cmake --build "$dir" -j"$(nproc)" --target irqsim >/dev/null
}

# one training run: its verdict (exit 0 or 1) is not the point, an error is
run() {
  local rc=0
  "$dir/irqsim" "$@" --quiet >/dev/null || rc=$?
  [ "$rc" -le 1 ] || { say "training run failed (exit $rc): irqsim $*"; exit 1; }
}

# what the training runs: each command's hot path, a few seconds each
train() {
  local s=$dir/pgo-train
  mkdir -p "$s"
  run exhaust --executions --depth 1 --cores 2 --signal-fastpath --fastpath fixed
  run exhaust --executions --depth 1 --cores 2 --signal-fastpath --fastpath pr1227
  run exhaust --executions --depth 2 --cores 1
  run exhaust --shard 1/2000
  run fuzz --checks 400000 --seed 1 --out "$s/f1"
  run fuzz --checks 200000 --seed 2 --fastpath fixed --out "$s/f2"
  run fuzz --checks 100000 --seed 3 --target signal --kernel master --out "$s/f3"
  run fuzz --checks 100000 --seed 4 --target call --kernel master --out "$s/f4"
  run fuzz --checks 100000 --seed 5 --target reply_recv --kernel master --out "$s/f5"
  run fuzz --mode workload --cores 2 --checks 300 --seed 6 --out "$s/f6"
  rm -rf "$s"
}

say "1/3 the build with counters ($dir)"
config generate
rm -rf "$profile"
say "2/3 training (some 15 s)"
train
[ -d "$profile" ] || { say "the training left no counts in $profile"; exit 1; }
say "3/3 the build from the counts"
config use
echo "$dir/irqsim"
