#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/) with clang, ASan and UBSan and runs
# each for a bounded time: scripts/fuzz.sh [seconds-per-target] [target...]
# Not part of CI. Crashes land in build-fuzz/artifacts/<target>/; each one
# found becomes a regression test (tests/core/test_fuzz_regressions.cpp, input
# under tests/data/fuzz/). Needs: clang libclang-rt-14-dev.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-120}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(numactl sample_text synthetic hwloc_xml scenario snapshot_archive)
jobs=${FUZZ_BUILD_JOBS:-2}

if ! command -v clang++ >/dev/null; then
  echo "fuzz.sh: clang++ not found (apt-get install clang libclang-rt-14-dev)" >&2
  exit 1
fi
CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSCHEDSCOPE_BUILD_FUZZERS=ON -DSCHEDSCOPE_SANITIZE=ON \
  -DSCHEDSCOPE_BUILD_GUI=OFF -DSCHEDSCOPE_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build build-fuzz -j"$jobs" --target "${targets[@]/#/fuzz_}"

# Seed corpora: what the tests and samples already feed each importer.
seed() {
  local name=$1 dir=build-fuzz/seeds/$1; shift
  rm -rf "$dir"; mkdir -p "$dir"
  for f in "$@"; do [ -f "$f" ] && cp "$f" "$dir/"; done
  # The regression inputs and curated corpus of this target (tests/data/fuzz/<target>/).
  local kept=(tests/data/fuzz/"$name"/*)
  if [ -f "${kept[0]}" ]; then cp "${kept[@]}" "$dir/"; fi
}
seed numactl tests/data/topology/numactl-*.txt tests/data/topology/*.txt
seed sample_text samples/topologies/*.topo tests/data/topology/*.topo
seed synthetic
printf 'pack:2 [numa] l3:1 core:6 pu:2' > build-fuzz/seeds/synthetic/a
printf 'numa:4 core:8 pu:1' > build-fuzz/seeds/synthetic/b
printf 'pack:2 l3:2 l2:4 core:2 pu:2' > build-fuzz/seeds/synthetic/c
seed hwloc_xml tests/data/hwloc-xml/*.xml tests/data/topology/*.xml
seed scenario samples/scenarios/*.json tests/data/topology/scenario-*.json
# The 48-PU snapshot (3 602 entries) takes over the 10 s bound under ASan; the kept corpus holds the 16-PU one.
seed snapshot_archive tests/data/linux-sysfs/hostile/*

status=0
for t in "${targets[@]}"; do
  corpus=build-fuzz/corpus/$t
  art=build-fuzz/artifacts/$t/
  mkdir -p "$corpus" "$art"
  echo "== fuzz_$t for ${seconds}s"
  # rss/malloc limits: an importer must refuse an enormous machine, not build it.
  if ! ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
      LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
      "build-fuzz/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -max_len=65536 -artifact_prefix="$art" -print_final_stats=1 \
      "$corpus" "build-fuzz/seeds/$t" 2>"build-fuzz/fuzz_$t.log"; then
    echo "fuzz_$t: FOUND A CRASH, see $art and build-fuzz/fuzz_$t.log" >&2
    status=1
  fi
  grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb" "build-fuzz/fuzz_$t.log" || true
done
exit $status
