#!/usr/bin/env bash
# Installs what is missing, builds schedscope and launches the GUI on the
# detected machine. Extra arguments go to the app (e.g. --topology sample:dl980-8node).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
schedscope_install_deps
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSCHEDSCOPE_BUILD_BENCHMARKS=OFF
cmake --build build --target schedscope schedscope-cli
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
  echo "schedscope: no display found; starting it under Xvfb (xvfb-run)" >&2
  exec xvfb-run -a -s "-screen 0 1600x1000x24" build/app/gui/schedscope "$@"
fi
exec build/app/gui/schedscope "$@"
