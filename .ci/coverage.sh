#!/bin/bash
# Coverage gate (issue 4, docs/COVERAGE.md).
#
#   .ci/coverage.sh BUILD_DIR
#
# Configures BUILD_DIR with -DIRQSIM_COVERAGE=ON (gcc + gcov), builds it,
# runs the `coverage` target (the quick tier of the CTest suite, corpus replays
# included; no fuzzing), then enforces, from BUILD_DIR/coverage/irqsim.info:
#
#   every sim/*.c (the kernel model)      100% of lines and 100% of branches
#   every sim/*.h with lines in the report  the same (inline functions);
#                                           a header with none is listed
#
# The files are found by a glob, so a new model file is gated as soon as it
# exists; a sim/*.c missing from the report fails.
#
# Lines and branches excluded with LCOV_EXCL_* markers are listed with the
# reason written next to them. Exit status: 0 pass, 1 a threshold missed
# (each miss is named), 2 the build, the tests or the report failed.
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mkdir -p "$1"
build=$(cd "$1" && pwd) # absolute: the tests run in other directories

for tool in cmake lcov genhtml gcov awk; do
  if ! command -v "$tool" > /dev/null; then
    echo "coverage: $tool not found (Debian: apt-get install -y cmake lcov gcc)" >&2
    exit 2
  fi
done

echo "coverage: configuring $build"
gen=(); [ -f "$build/CMakeCache.txt" ] || gen=(-G Ninja) # a new folder: Ninja (scripts/test.sh)
CC=${CC:-gcc} cmake "${gen[@]}" -S "$root" -B "$build" -DIRQSIM_COVERAGE=ON || exit 2
cmake --build "$build" -j "$(nproc)" || exit 2
cmake --build "$build" --target coverage || {
  echo "coverage: the coverage target failed (a test failed, or lcov did)" >&2
  exit 2
}
info=$build/coverage/irqsim.info
[ -s "$info" ] || { echo "coverage: no tracefile $info" >&2; exit 2; }

echo
echo "coverage exclusions in sim/ and check/ (LCOV_EXCL markers, with their reasons):"
if ! grep -n 'LCOV_EXCL' "$root"/sim/*.c "$root"/sim/*.h "$root"/check/*.c "$root"/check/*.h 2> /dev/null |
  sed -e "s|^$root/||" -e 's/^/  /'; then
  echo "  none"
fi
echo

# file  minimum-lines%  minimum-branches%  (integers)
fail=0
check() {
  local file=$1 min_lines=$2 min_branches=$3
  local counts
  counts=$(awk -v want="/$file" '
    /^SF:/ { on = (substr($0, length($0) - length(want) + 1) == want) }
    on && /^LF:/ { lf = substr($0, 4) + 0 }
    on && /^LH:/ { lh = substr($0, 4) + 0 }
    on && /^BRF:/ { brf = substr($0, 5) + 0 }
    on && /^BRH:/ { brh = substr($0, 5) + 0 }
    on && /^end_of_record/ { found = 1; on = 0 }
    END { if (found) print lh + 0, lf + 0, brh + 0, brf + 0; else print "missing" }' "$info")
  if [ "$counts" = missing ]; then
    if [ "${file%.h}" != "$file" ]; then
      # a header is in the report only when it has code (inline functions)
      echo "coverage: ok   $file: no lines or branches in the report"
      return
    fi
    echo "coverage: FAIL $file: not in the report"
    fail=1
    return
  fi
  local lh lf brh brf
  read -r lh lf brh brf <<< "$counts"
  local lp bp
  lp=$(awk -v h="$lh" -v f="$lf" 'BEGIN { printf "%.2f", f ? 100 * h / f : 100 }')
  bp=$(awk -v h="$brh" -v f="$brf" 'BEGIN { printf "%.2f", f ? 100 * h / f : 100 }')
  local ok=1
  if [ $((lh * 100)) -lt $((min_lines * lf)) ]; then
    echo "coverage: FAIL $file: lines $lp% ($lh/$lf), needs $min_lines%"
    ok=0
  fi
  if [ $((brh * 100)) -lt $((min_branches * brf)) ]; then
    echo "coverage: FAIL $file: branches $bp% ($brh/$brf), needs $min_branches%"
    ok=0
  fi
  if [ $ok = 1 ]; then
    echo "coverage: ok   $file: lines $lp% ($lh/$lf), branches $bp% ($brh/$brf)"
  else
    fail=1
    # where: lines never run, and branches (line: taken/not taken by gcc's
    # numbering) never taken
    awk -v want="/$file" -v f="$file" '
      /^SF:/ { on = (substr($0, length($0) - length(want) + 1) == want) }
      on && /^DA:/ { split(substr($0, 4), a, ","); if (a[2] == 0) printf "  %s:%s: line not run\n", f, a[1] }
      on && /^BRDA:/ { split(substr($0, 6), a, ",");
                       if (a[4] == "-" || a[4] == 0) printf "  %s:%s: branch %s of block %s not taken\n", f, a[1], a[3], a[2] }
    ' "$info"
  fi
}

# the kernel model: every source and header of sim/
for src in "$root"/sim/*.c "$root"/sim/*.h; do
  [ -e "$src" ] || continue
  check "sim/${src##*/}" 100 100
done

echo "coverage: HTML report at $build/coverage/html/index.html"
if [ $fail != 0 ]; then
  echo "coverage: gate FAILED (the uncovered lines and branches are marked in the HTML report)"
  exit 1
fi
echo "coverage: gate passed"
