#!/bin/bash
# MC/DC of the fastpath model (issue 4 item 2, docs/COVERAGE.md).
#
#   .ci/mcdc.sh BUILD_DIR [--min PERCENT]
#
# Builds the project and its tests with Clang 19 source-based coverage and
# MC/DC instrumentation (-fprofile-instr-generate -fcoverage-mapping
# -fcoverage-mcdc), runs the CTest suite's quick tier (the corpus replays
# included; docs/COVERAGE.md, "Tiers"),
# merges the profiles with llvm-profdata-19, and prints for sim/irq_fast.c,
# sim/sig_fast.c (master's signal fastpath), sim/call_fast.c and
# sim/rr_fast.c (master's fastpath_call and fastpath_reply_recv), and
# sim/fastpath.c (what the IPC fastpaths share):
#
#   - llvm-cov-19 report --show-mcdc-summary (lines, branches, MC/DC),
#   - every condition whose independent effect on its decision's outcome
#     no pair of test vectors shows (from llvm-cov-19 show --show-mcdc).
#
# Without clang-19/llvm-19 (Debian 12: apt-get install -y clang-19 llvm-19)
# it says so and exits 0: skipped. With --min, it exits 1 when the MC/DC
# figure of one of those files is below PERCENT (CI does not pass --min: MC/DC
# is reported, the gate is line and branch coverage, .ci/coverage.sh).
set -euo pipefail

usage() {
  echo "usage: $0 BUILD_DIR [--min PERCENT]" >&2
  exit 2
}
[ $# -ge 1 ] || usage
mkdir -p "$1"
build=$(cd "$1" && pwd) # absolute: the tests run in other directories
shift
min=
while [ $# -gt 0 ]; do
  case $1 in
    --min) [ $# -ge 2 ] || usage; min=$2; shift 2 ;;
    *) usage ;;
  esac
done
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

missing=
for tool in clang-19 llvm-profdata-19 llvm-cov-19; do
  command -v "$tool" > /dev/null || missing="$missing $tool"
done
if [ -n "$missing" ]; then
  echo "mcdc: SKIPPED: not installed:$missing (Debian 12: apt-get install -y clang-19 llvm-19)"
  exit 0
fi

flags="-fprofile-instr-generate -fcoverage-mapping -fcoverage-mcdc"
echo "mcdc: configuring $build with clang-19 $flags"
gen=(); [ -f "$build/CMakeCache.txt" ] || gen=(-G Ninja) # a new folder: Ninja (scripts/test.sh)
cmake "${gen[@]}" -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang-19 -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_C_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fprofile-instr-generate" > /dev/null || exit 2
cmake --build "$build" -j "$(nproc)" > "$build/mcdc-build.log" 2>&1 || {
  cat "$build/mcdc-build.log" >&2
  exit 2
}

prof=$build/mcdc-profiles
rm -rf "$prof"
mkdir -p "$prof"
echo "mcdc: running the test suite"
# the quick tier (issue 27): the fastpaths' decisions are shown by the unit
# tests and reproducers; the campaign tier runs once, in the default-type build
(cd "$build" && LLVM_PROFILE_FILE="$prof/%p-%m.profraw" ctest --output-on-failure -j "$(nproc)" -LE campaign) || {
  echo "mcdc: the test suite failed" >&2
  exit 2
}
llvm-profdata-19 merge -sparse -o "$build/mcdc.profdata" "$prof"/*.profraw

# every executable CTest ran carries coverage mappings of sim/
objects=()
while IFS= read -r exe; do
  if [ ${#objects[@]} -eq 0 ]; then objects+=("$exe"); else objects+=(-object "$exe"); fi
done < <(find "$build" -maxdepth 2 -type f -perm -u+x \( -name 'test_*' -o -name 'replay_*' -o -name irqsim \) | sort)
[ ${#objects[@]} -gt 0 ] || { echo "mcdc: no test executables in $build" >&2; exit 2; }

# each fastpath model: PR #1227's IRQ fastpath, master's signal fastpath
failed=0
report_file() {
  file=$1
  echo
  echo "mcdc: llvm-cov-19 report --show-mcdc-summary $file"
  # ("functions have mismatched data": main() and the fuzz entry point exist
  # once per executable with different bodies; not a function of sim/)
  quiet() { grep -v 'functions have mismatched data' >&2 || true; }
  llvm-cov-19 report --show-mcdc-summary -instr-profile="$build/mcdc.profdata" "${objects[@]}" \
    "$root/$file" 2> >(quiet) | sed "s|$root/||"

  llvm-cov-19 show --show-mcdc -instr-profile="$build/mcdc.profdata" "${objects[@]}" "$root/$file" \
    > "$build/mcdc-show-$(basename "$file" .c).txt" 2> >(quiet)

  echo
  echo "mcdc: conditions of $file whose independent effect is not shown:"
  # A decision's block names its conditions "Condition Cn --> (line:col)"
  # and ends with one "Cn-Pair: covered|not covered" line per condition.
  awk -v src="$root/$file" -v name="$file" '
    BEGIN { while ((getline l < src) > 0) lines[++n] = l }
    /MC\/DC Decision Region/ {
      match($0, /\([0-9]+:[0-9]+\)/); split(substr($0, RSTART + 1, RLENGTH - 2), d, ":"); dline = d[1]
      delete cl; delete cc
    }
    /Condition C[0-9]+ --> \(/ {
      match($0, /C[0-9]+/); c = substr($0, RSTART, RLENGTH)
      match($0, /\([0-9]+:[0-9]+\)/); split(substr($0, RSTART + 1, RLENGTH - 2), p, ":")
      cl[c] = p[1]; cc[c] = p[2]
    }
    /C[0-9]+-Pair: not covered/ {
      match($0, /C[0-9]+/); c = substr($0, RSTART, RLENGTH)
      text = substr(lines[cl[c]], cc[c]); sub(/^[ \t]+/, "", text)
      if (length(text) > 60) text = substr(text, 1, 60) "..."
      printf "  %s:%d:%d: %s of the decision at line %d: %s\n", name, cl[c], cc[c], c, dline, text
      missed++
    }
    END { if (!missed) print "  none" }
  ' "$build/mcdc-show-$(basename "$file" .c).txt"

  figure=$(llvm-cov-19 report --show-mcdc-summary -instr-profile="$build/mcdc.profdata" "${objects[@]}" \
    "$root/$file" 2> /dev/null | awk '/^TOTAL/ { print $(NF) }')
  echo
  echo "mcdc: $file MC/DC ${figure:-n/a} (full listing: $build/mcdc-show-$(basename "$file" .c).txt)"
  if [ -n "$min" ] && [ -n "$figure" ]; then
    if awk -v f="${figure%\%}" -v m="$min" 'BEGIN { exit !(f + 0 < m + 0) }'; then
      echo "mcdc: FAIL: $file MC/DC $figure is below $min%"
      failed=1
    fi
  fi
}
for f in sim/irq_fast.c sim/sig_fast.c sim/call_fast.c sim/rr_fast.c sim/fastpath.c; do
  report_file "$f"
done
exit $failed
