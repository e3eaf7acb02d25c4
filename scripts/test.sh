#!/usr/bin/env bash
# Installs what is missing, builds everything with warnings as errors and
# runs every test through ctest (GUI tests on Qt's offscreen platform; the
# reference outputs of tests/golden and the include graph of core are tests
# too) and clang-tidy over the files the change touches; then builds the
# core, the CLI and the core tests again with ASan+UBSan (CMakePresets.json
# "asan") and runs those tests under the sanitizers; last, a few short
# reference runs again with the engine's invariants checked after every
# event (SCHEDSCOPE_CHECK_INVARIANTS=1, the test preset "invariants"), whose
# outputs must not change.
#
# Both builds carry line tables only (-g1, enough for the sanitizers' and a
# debugger's backtraces): full debug information took about a third of the
# compile time (docs/reliability.md, "CI time").
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
schedscope_install_deps
jobs=$(nproc)
# Warnings in our own code fail this build (third-party headers are system
# headers and do not count).
build_flags=(-DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG")
# ccache, where the machine happens to have it (it is not in the install
# list, and nothing needs it): paths relative to the checkout, and the
# working directory left out of the hash (ccache hashes it by default when
# the compile writes debug information, as -g1 does), so a clone elsewhere
# hits the same cache entries; its line tables may then name the directory
# of the clone that filled the cache.
if command -v ccache >/dev/null 2>&1; then
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
  build_flags+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSCHEDSCOPE_WERROR=ON "${build_flags[@]}"
# The install list must cover every package the configure step used, even
# where a package was installed by hand (scripts/check-deps.sh).
bash scripts/check-deps.sh build
cmake --build build -j"$jobs"
# The published-table cases written Size::Nightly at their files' --quick
# size; the full size is the nightly form, `ctest --preset nightly`
# (docs/reliability.md, "CI time").
SCHEDSCOPE_CALIBRATION=quick QT_QPA_PLATFORM=offscreen ctest --test-dir build --output-on-failure -j"$jobs"

# clang-tidy (.clang-tidy's checks) over the C++ files changed since HEAD
# left origin/main (or main), or in the last commit; any finding fails.
bash scripts/lint.sh -p build -j "$jobs"

# Sanitizer pass (docs/reliability.md). Left out, and why:
#  [calibration] (the "published table ..." cases too): reproduces published
#    tables over three seeds each; it runs
#    minutes in the normal build and ~10x that under ASan, and exercises no
#    code path the engine tests do not.
#  golden: scenario-*: the sample scenarios' full runs; the other reference
#    runs (traces, CSV, profiles, topology reports) do run under ASan.
#  "any topology written as hwloc XML reads back...": a round trip of every
#    sample through hwloc, 81 s under ASan (half the pass, alone at its end);
#    the export stays under ASan in "topo --save writes hwloc XML...", the
#    import in the topology tests and the hwloc-XML reference runs.
cmake --preset asan "${build_flags[@]}" >/dev/null
cmake --build build-asan -j"$jobs" --target schedscope-cli core_tests golden_check
# tests/lsan.supp: hwloc's own leaks when it refuses a file (found by fuzzing).
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1 \
LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs" \
  -E '^(any topology written as hwloc XML reads back as the same machine|cache_hot_time on OLTP|autonuma-benchmark on [24] nodes|published table |AutoNUMA stops migrating|AutoNUMA.s system time on 4-node|numa01 converges under AutoNUMA|sembench -t 2048|golden: scenario-)'

# The engine's invariants (docs/reliability.md): the check is O(PUs + tasks
# + chunks) per event, so only the short reference runs.
QT_QPA_PLATFORM=offscreen ctest --preset invariants -j"$jobs"
