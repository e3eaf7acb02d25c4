#!/usr/bin/env bash
# Builds the Debian package: a Release build installed under /usr, packed by
# CPack into BUILD_DIR/schedscope_<version>-1_<arch>.deb.
#   scripts/package.sh [BUILD_DIR]      (default: build-deb; JOBS=2 by default)
# Only the shipped targets are built (tests are scripts/test.sh's business), so
# CPack's preinstall step must not pull in "all".
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
schedscope_install_deps
build_dir="${1:-build-deb}"
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DSCHEDSCOPE_BUILD_GUI=ON -DSCHEDSCOPE_BUILD_BENCHMARKS=OFF \
  -DCMAKE_INSTALL_PREFIX=/usr -DCMAKE_SKIP_INSTALL_ALL_DEPENDENCY=ON
cmake --build "$build_dir" -j "${JOBS:-2}" --target schedscope schedscope-cli schedscope_icons
(cd "$build_dir" && cpack -G DEB)
ls -1 "$build_dir"/schedscope_*.deb
