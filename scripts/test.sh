#!/usr/bin/env bash
# Builds and runs the test suite: GCC with AddressSanitizer and
# UndefinedBehaviorSanitizer, then Clang, both with -Wall -Wextra -Werror.
#
#   scripts/test.sh          the quick tier (ctest -LE campaign): unit tests,
#                            every regression reproducer, the matrix cells,
#                            short differential and workload runs, the
#                            real-kernel round trip on one board
#   scripts/test.sh --full   both tiers: the campaign tier adds the long
#                            differential, workload and enumeration runs and
#                            every real-kernel configuration
#
# The tiers are CTest labels (docs/COVERAGE.md, "Tiers"); CI runs the
# campaign tier once, in the coverage build (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
tier=(-LE campaign)
case ${1:-} in
  "") ;;
  --full) tier=() ;;
  -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "scripts/test.sh: unknown option '$1' (expected --full or nothing)" >&2; exit 2 ;;
esac
scripts/setup.sh
jobs=$(nproc)
for cc in gcc clang; do
  dir=build-test-$cc
  san=$([ "$cc" = gcc ] && echo ON || echo OFF)
  echo "== $cc (sanitizers: $san; tier: ${1:-quick})"
  CC=$cc cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DIRQSIM_SANITIZE="$san" >/dev/null
  cmake --build "$dir" -j"$jobs" >/dev/null
  (cd "$dir" && ctest --output-on-failure -j"$jobs" "${tier[@]}")
done
