#!/usr/bin/env bash
# Side-by-side engine benchmark: this checkout against revision REV, N full
# `engine_bench` runs each, alternating, so both see the same host load.
# Prints, per case and build, the median and the best of the N runs, and
# target (c) of issue 36: the storm's events per CPU s over the bare
# binary-heap loop's (BM_bare_heap) in the same runs.
#
#   bash scripts/bench-vs.sh REV [N]     (N defaults to 7)
#
# The build host is shared and its speed drifts by up to 2x between hours
# and days (BENCHMARKS.md), so figures from different days compare only
# through a build measured on both: REV is built once in a worktree under
# build-bench/ and kept there for the next round.
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:?usage: bench-vs.sh REV [N]}
runs=${2:-7}
cfg=(-G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSCHEDSCOPE_BUILD_GUI=OFF -DSCHEDSCOPE_BUILD_BENCHMARKS=ON)
if command -v ccache >/dev/null; then
  cfg+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1 # hits across worktrees (see test.sh)
fi

sha=$(git rev-parse --short=12 "$rev^{commit}")
tree=build-bench/src-$sha
if [ ! -d "$tree" ]; then
  mkdir -p build-bench
  git worktree add --detach "$tree" "$sha" >/dev/null
fi
cmake -S "$tree" -B "build-bench/rel-$sha" "${cfg[@]}" >/dev/null
cmake --build "build-bench/rel-$sha" --target engine_bench >/dev/null
cmake -S . -B build-bench/rel-here "${cfg[@]}" >/dev/null
cmake --build build-bench/rel-here --target engine_bench >/dev/null

old="build-bench/rel-$sha/bench/engine_bench"
new=build-bench/rel-here/bench/engine_bench
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for i in $(seq "$runs"); do
  for b in "$old" "$new"; do
    label=$([ "$b" = "$old" ] && echo "$sha" || echo here)
    echo "run $i of $runs: $label (load $(cut -d' ' -f1 /proc/loadavg))" >&2
    "$b" --benchmark_format=csv 2>/dev/null | grep '^"BM' | sed "s/^/$label,/" >>"$out"
  done
done

# CSV columns after the label: name, iterations, real, cpu, unit, ..., then
# the counters in name order: events_per_s, peak_rss_MiB, sim_s_per_s.
python3 - "$out" "$sha" <<'EOF'
import csv, statistics, sys
rows = {}
for r in csv.reader(open(sys.argv[1])):
    label, name = r[0], r[1].split('/')[0]
    events = float(r[-3]) if r[-3] else 0.0
    rows.setdefault(name, {}).setdefault(label, []).append((float(r[-1]), events, float(r[-2])))
print(f"{'case':28} {'build':12} {'sim s/CPU s':>22} {'events/CPU s':>22} {'peak RSS':>9}")
for name, by in rows.items():
    for label in (sys.argv[2], 'here'):
        v = by.get(label, [])
        if not v:
            continue
        sims = [x[0] for x in v]
        evs = [x[1] / 1e6 for x in v]
        print(f"{name:28} {label:12} {statistics.median(sims):9.2f} (best {max(sims):7.2f})"
              f" {statistics.median(evs):8.3f} M (best {max(evs):6.3f})  {max(x[2] for x in v):6.1f} MiB")
        print(f"{'':28} {'':12} runs: {' / '.join(f'{s:.3g}' for s in sims)}")
# Target (c) is a share of the bare heap loop measured in the same runs
# (engine_bench runs it before and after the engine cases): per build, the
# storm's events per CPU s over the bare loop's, median of the runs, and
# best over best.
def events(name, label):
    return sorted(x[1] for x in rows.get(name, {}).get(label, []))
for label in (sys.argv[2], 'here'):
    # A build from before the bare loop was added is compared with the
    # bare loop of this checkout's runs, which alternate with its own.
    storm, bare = events('BM_sembench_2048_on_128', label), events('BM_bare_heap', label) or events('BM_bare_heap', 'here')
    if storm and bare:
        print(f"(c) storm / bare heap, {label:12} {statistics.median(storm) / statistics.median(bare):.3f}"
              f" (best {storm[-1] / bare[-1]:.3f})")
EOF
