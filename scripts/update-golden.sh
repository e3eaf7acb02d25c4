#!/usr/bin/env bash
# Rewrites the reference outputs under tests/golden/ from the current build
# (the build dir is `build`, or $1). Review the result with
#   git diff tests/golden
# and commit it with the change that moved the numbers, saying why they moved.
# One case only: bash scripts/update-golden.sh build NAME
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
[ -f "$build/CMakeCache.txt" ] ||
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$build" --target schedscope-cli golden_check
args=(--cli "$build/app/cli/schedscope-cli" --samples "$PWD/samples" --test-data "$PWD/tests/data"
      --cases tests/golden/cases.txt --golden tests/golden --scratch "$build/tests/golden/out" --update)
[ $# -ge 2 ] && args+=(--case "$2")
"$build/tests/golden/golden_check" "${args[@]}"
