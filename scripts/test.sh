#!/usr/bin/env bash
# Installs what is missing, builds everything and runs every test through
# ctest (GUI tests on Qt's offscreen platform).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
schedscope_install_deps
jobs=$(nproc)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$jobs"
QT_QPA_PLATFORM=offscreen ctest --test-dir build --output-on-failure -j"$jobs"
