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
# campaign tier once, in its default-type build (.ci/run).
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
# the quick tier checks leaks in the tests that run the engines in-process
# (CMakeLists.txt, irqsim_leak_checked), not in every start of the command
# line (LeakSanitizer's 0.1 s at each exit); --full checks them everywhere
if [ ${#tier[@]} -gt 0 ]; then
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
fi
for cc in gcc clang; do
  dir=build-test-$cc
  san=$([ "$cc" = gcc ] && echo ON || echo OFF)
  echo "== $cc (sanitizers: $san; tier: ${1:-quick})"
  # a new folder is built with Ninja (setup.sh installs it for the kernel's
  # own build): a third faster than CMake's Makefiles here (GCC+ASan 30 s
  # to 21 s, Clang 27 s to 17 s); a folder configured before keeps its own
  gen=(); [ -f "$dir/CMakeCache.txt" ] || gen=(-G Ninja)
  # the sanitized build at -O1, as AddressSanitizer's documentation
  # advises: its tests 95 s to 69 s here, for 13 s more of building
  opt=$([ "$cc" = gcc ] && echo "-g -O1" || echo "-g")
  CC=$cc cmake "${gen[@]}" -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="$opt" \
    -DIRQSIM_SANITIZE="$san" >/dev/null
  cmake --build "$dir" -j"$jobs" >/dev/null
  # twice the cores: a third of the tests wait (signals, progress lines,
  # kernel builds of another test) rather than compute
  (cd "$dir" && ctest --output-on-failure -j"$((2 * jobs))" "${tier[@]}")
  # the tests that read the repository only (label `source`: the docs'
  # links, the include graph, the Python tools) run under GCC only
  tier=(-LE "${tier[1]:-}${tier[1]:+|}source")
done
