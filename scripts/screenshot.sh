#!/bin/sh
# Regenerates docs/screenshot.png (the README's picture) with the GUI's
# headless mode: the NUMA convergence lesson's comparison (sched-domains,
# autonuma, bind on a 2-node Xeon) run to 5 s, with the charts and the
# lesson beside the panes. Needs a build; BUILD_DIR picks which one.
set -eu
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
QT_QPA_PLATFORM=offscreen "$BUILD_DIR/app/gui/schedscope" \
  --scenario samples/scenarios/lesson-numa-convergence.json \
  --run-to 5s --docks charts,lessons --size 1600x1000 \
  --screenshot docs/screenshot.png
echo "wrote docs/screenshot.png ($(wc -c < docs/screenshot.png) bytes)"
