#!/usr/bin/env bash
# Builds and runs the test suite: GCC with AddressSanitizer and
# UndefinedBehaviorSanitizer, then Clang, both with -Wall -Wextra -Werror.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
jobs=$(nproc)
for cc in gcc clang; do
  dir=build-test-$cc
  san=$([ "$cc" = gcc ] && echo ON || echo OFF)
  echo "== $cc (sanitizers: $san)"
  CC=$cc cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DIRQSIM_SANITIZE="$san" >/dev/null
  cmake --build "$dir" -j"$jobs" >/dev/null
  (cd "$dir" && ctest --output-on-failure -j"$jobs")
done
