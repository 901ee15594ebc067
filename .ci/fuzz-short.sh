#!/usr/bin/env bash
# CI's short fuzz run: every libFuzzer target of fuzz/ (one per reader and
# engine: docs/FUZZING.md) built with Clang, AddressSanitizer and
# UndefinedBehaviorSanitizer, and run for SECONDS (default 20) from its seed
# corpus. A crash, a sanitizer report, a leak or a timeout fails the run;
# the input that did it is left in BUILD/crashes/<target>/.
#
#   .ci/fuzz-short.sh BUILD [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:?usage: .ci/fuzz-short.sh BUILD [SECONDS]}
secs=${2:-20}
cc=$(command -v clang-19 || command -v clang)
CC=$cc cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIRQSIM_LIBFUZZER=ON -DIRQSIM_TESTS=OFF >/dev/null
targets=$(ls fuzz/fuzz_*.c | sed 's|fuzz/\(fuzz_.*\)\.c|\1|')
# shellcheck disable=SC2086
cmake --build "$build" -j"$(nproc)" --target $targets >/dev/null
fail=0
for t in $targets; do
  corpus=$build/corpus/$t crashes=$build/crashes/$t
  rm -rf "$corpus" "$crashes"
  mkdir -p "$corpus" "$crashes"
  seeds=fuzz/corpus/${t#fuzz_}
  [ -d "$seeds" ] && cp -r "$seeds"/. "$corpus"/
  if "$build/$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$crashes/" \
       "$corpus" >"$build/$t.log" 2>&1; then
    echo "fuzz-short: $t: ${secs} s, $(grep -o 'stat::number_of_executed_units: [0-9]*' "$build/$t.log" |
          grep -o '[0-9]*$' || echo '?') runs, nothing found"
  else
    echo "fuzz-short: $t FAILED (log: $build/$t.log, input: $crashes/)"
    tail -20 "$build/$t.log"
    fail=1
  fi
done
exit $fail
