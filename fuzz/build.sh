#!/bin/bash -eu
# Build the fuzz targets under the OSS-Fuzz / ClusterFuzzLite build
# contract (https://google.github.io/oss-fuzz/getting-started/new-project-guide/):
#
#   $CC                  C compiler (clang, afl-clang-fast, ...)
#   $CFLAGS              sanitizer and coverage flags chosen by the engine
#   $LIB_FUZZING_ENGINE  what links the fuzzing engine's main() in
#                        (-fsanitize=fuzzer for libFuzzer, AFL++'s driver)
#   $OUT                 where <target> and <target>_seed_corpus.zip go
#   $SRC                 (optional) directory holding this repository
#   $WORK                (optional) scratch directory for objects
#
# Each fuzz/fuzz_<name>.c becomes $OUT/fuzz_<name>; the model (sim/*.c) and
# the checking machinery (check/*.c) are compiled with the same $CFLAGS so the engine sees its edges. Tested
# locally with:
#
#   CC=clang CFLAGS="-fsanitize=address,undefined -g" \
#     LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=/tmp/out bash fuzz/build.sh
#
# See docs/FUZZING.md for AFL++ and ClusterFuzzLite.

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ -n "${SRC:-}" ] && [ -d "$SRC/irqsim/sim" ]; then
  root=$SRC/irqsim
else
  root=$here
fi
: "${CC:=clang}"
: "${CFLAGS:=}"
: "${LIB_FUZZING_ENGINE:=-fsanitize=fuzzer}"
: "${OUT:?set OUT to the output directory}"
work=${WORK:-$(mktemp -d)}
obj=$work/irqsim-fuzz-obj
mkdir -p "$OUT" "$obj"

# The engine's coverage instrumentation must reach the model, which is
# where the branches are. For a plain libFuzzer build ($CFLAGS without
# -fsanitize=fuzzer-no-link, as in the local test above) add it here.
model_cflags=$CFLAGS
if [[ "$LIB_FUZZING_ENGINE" == *-fsanitize=fuzzer* && "$CFLAGS" != *fuzzer-no-link* && "$CC" != *afl* ]]; then
  model_cflags="$CFLAGS -fsanitize=fuzzer-no-link"
fi

# no -Werror: an engine's newer compiler must not fail the build on a new warning
std="-std=c11 -Wall -Wextra -I$root/sim -I$root/check"

objs=()
for c in "$root"/sim/*.c "$root"/check/*.c; do
  o=$obj/$(basename "${c%.c}").o
  # shellcheck disable=SC2086  # flag lists are word-split on purpose
  $CC $std $model_cflags -c "$c" -o "$o"
  objs+=("$o")
done

for c in "$root"/fuzz/fuzz_*.c; do
  target=$(basename "${c%.c}")
  # a target that fuzzes a command's reader links the command's source
  # (as CMakeLists.txt's IRQSIM_FUZZ_TOOLS_<name>)
  case $target in
    fuzz_report_json) tools=(report reportreal mdtext cli) ;;
    fuzz_exhaust_state) tools=(exhaustcmd statefile cli) ;;
    fuzz_exec_state) tools=(execcmd execstate statefile cli) ;;
    *) tools=() ;;
  esac
  tobjs=()
  for t in "${tools[@]}"; do
    # shellcheck disable=SC2086
    $CC $std -I"$root/tools" $model_cflags -c "$root/tools/$t.c" -o "$obj/tool-$t.o"
    tobjs+=("$obj/tool-$t.o")
  done
  # shellcheck disable=SC2086
  $CC $std -I"$root/tools" $model_cflags -c "$c" -o "$obj/$target.o"
  # the engine's driver may be C++ (libFuzzer, AFL++'s libAFLDriver): link
  # with the C++ driver when there is one, as OSS-Fuzz does with $CXX
  # shellcheck disable=SC2086
  ${CXX:-${CC/clang/clang++}} $CFLAGS "$obj/$target.o" "${tobjs[@]}" "${objs[@]}" $LIB_FUZZING_ENGINE -lz -lpthread -o "$OUT/$target"
  corpus=$root/fuzz/corpus/${target#fuzz_}
  if [ -d "$corpus" ]; then
    rm -f "$OUT/${target}_seed_corpus.zip"
    (cd "$corpus" && zip -q -j "$OUT/${target}_seed_corpus.zip" ./*)
  fi
  echo "built $OUT/$target"
done
[ -n "${WORK:-}" ] || rm -rf "$work"
