#!/usr/bin/env bash
# ClusterFuzzLite's build, here and without Docker: run
# .clusterfuzzlite/build.sh as the engine runs it in OSS-Fuzz's base-builder
# image (CC, CXX, CFLAGS, LIB_FUZZING_ENGINE, SRC with the checkout as
# $SRC/irqsim, OUT, WORK), so that a change that breaks the
# ClusterFuzzLite workflows (.github/workflows/cflite_*.yml) fails here
# first. Then check what the engine will find in $OUT: every fuzz/fuzz_*.c
# built as $OUT/<target>, and a seed corpus zip for each; and start each
# target for SECONDS (default 3) on its unzipped seed corpus, as
# run_fuzzers would. A build error, a missing target or corpus, a target
# that does not start, or a crash, sanitizer report, leak or timeout fails
# the script, which then keeps its directory (build.log, <target>.log, the
# crashing input in crashes/<target>/) and names it.
#
#   .ci/cflite.sh [SECONDS]
#   KEEP=DIR .ci/cflite.sh [SECONDS]   build in DIR and keep it ($OUT is DIR/out)
#
# It needs clang (with libFuzzer: Debian's clang package), zip, unzip and
# zlib1g-dev, as the image of .clusterfuzzlite/Dockerfile has them.
# The flags are base-builder's for the address sanitizer and for the
# undefined one together (OSS-Fuzz builds each alone: one build here
# catches a break in either), with libFuzzer's coverage instrumentation.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-3}
if ! [[ $secs =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: .ci/cflite.sh [SECONDS]" >&2
  exit 2
fi
for tool in clang clang++ zip unzip; do
  command -v "$tool" >/dev/null || { echo "cflite: $tool is missing (apt-get install clang zip unzip)" >&2; exit 2; }
done

if [ -n "${KEEP:-}" ]; then
  top=$KEEP
  rm -rf "$top/src" "$top/out" "$top/work" "$top/corpus" "$top/crashes"
  mkdir -p "$top"
else
  top=$(mktemp -d)
  # kept when something failed: the log and the crashing input are in it
  trap '[ "${fail:-1}" = 0 ] && rm -rf "$top" || echo "cflite: kept $top"' EXIT
fi
# base-builder's layout: the project at $SRC/<name>, its build.sh at $SRC
mkdir -p "$top/src" "$top/out" "$top/work"
ln -s "$here" "$top/src/irqsim"
cp "$here/.clusterfuzzlite/build.sh" "$top/src/build.sh"

# base-builder (infra/base-images/base-clang, base-builder): CFLAGS of every
# build, SANITIZER_FLAGS_address, SANITIZER_FLAGS_undefined, and libFuzzer's
# COVERAGE_FLAGS; compile appends the sanitizer and coverage flags.
base="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION"
asan="-fsanitize=address -fsanitize-address-use-after-scope"
ub_checks=array-bounds,bool,builtin,enum,float-divide-by-zero,function,integer-divide-by-zero,null,object-size,return,returns-nonnull-attribute,shift,signed-integer-overflow,unreachable,vla-bound,vptr
ubsan="-fsanitize=$ub_checks,unsigned-integer-overflow -fno-sanitize-recover=$ub_checks"
cflags="$base $asan $ubsan -fsanitize=fuzzer-no-link"

fail=1
start=$(date +%s)
log=$top/build.log
if ! (cd "$top/src/irqsim" &&
      env CC=clang CXX=clang++ CFLAGS="$cflags" CXXFLAGS="$cflags" LIB_FUZZING_ENGINE=-fsanitize=fuzzer \
          SANITIZER=address FUZZING_ENGINE=libfuzzer FUZZING_LANGUAGE=c ARCHITECTURE=x86_64 \
          SRC="$top/src" OUT="$top/out" WORK="$top/work" \
          bash -eu "$top/src/build.sh") >"$log" 2>&1; then
  echo "cflite: .clusterfuzzlite/build.sh FAILED; its output:"
  tail -40 "$log"
  exit 1
fi
built=$(find "$top/out" -maxdepth 1 -type f -name 'fuzz_*' ! -name '*.zip' | wc -l)
echo "cflite: .clusterfuzzlite/build.sh built $built targets in $(( $(date +%s) - start )) s"

# base-runner's options, where they matter here: UBSan's unsigned overflow
# (well defined, and the model's hashes use it) is silenced, leaks are found
export ASAN_OPTIONS=alloc_dealloc_mismatch=0:allocator_may_return_null=1:detect_leaks=1:detect_stack_use_after_return=1:symbolize=1
export UBSAN_OPTIONS=print_stacktrace=1:print_summary=1:silence_unsigned_overflow=1:halt_on_error=1
fail=0
for c in "$here"/fuzz/fuzz_*.c; do
  t=$(basename "${c%.c}")
  bin=$top/out/$t zip=$top/out/${t}_seed_corpus.zip
  corpus=$top/corpus/$t crashes=$top/crashes/$t
  if [ ! -x "$bin" ]; then
    echo "cflite: $t: not built as \$OUT/$t"; fail=1; continue
  fi
  if [ ! -s "$zip" ]; then
    echo "cflite: $t: no \$OUT/${t}_seed_corpus.zip"; fail=1; continue
  fi
  mkdir -p "$corpus" "$crashes"
  unzip -q -o "$zip" -d "$corpus"
  seeds=$(find "$corpus" -type f | wc -l)
  if "$bin" -max_total_time="$secs" -timeout=25 -rss_limit_mb=2560 -print_final_stats=1 \
       -artifact_prefix="$crashes/" "$corpus" >"$top/$t.log" 2>&1; then
    runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$top/$t.log" | grep -o '[0-9]*$' || echo '?')
    echo "cflite: $t: $seeds seeds, ${secs} s, $runs runs, nothing found"
  else
    echo "cflite: $t FAILED (log $top/$t.log, input in $crashes/)"
    tail -30 "$top/$t.log"
    fail=1
  fi
done
exit $fail
