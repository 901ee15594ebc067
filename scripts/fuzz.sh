#!/usr/bin/env bash
# The main job: a differential fuzzing run of the proposed fastpath (seL4
# PR #1227) against the slowpath, with a readable summary. Extra arguments
# go to `irqsim fuzz` (e.g. --seconds 600 --fastpath fixed --jobs 2).
# Exit status: 0 no divergence, 1 divergences found (listed), 2 error.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DIRQSIM_TESTS=OFF >/dev/null
cmake --build build-release -j"$(nproc)" --target irqsim >/dev/null
mkdir -p out
exec build-release/irqsim fuzz --out out/findings --json out/fuzz.json "$@"
