#pragma once
// Migration analysis: where a simulated policy moved tasks, and what each
// move cost them. The profiler measures what a migration *would* cost on a
// machine; this reads what a run *did*.
//
// API (everything here is plain data, no Qt; docs/migration-analysis.md
// explains each figure):
//
//   MigrationAnalysis a = analyze_migrations(sim);          // any time, mid-run too
//   a.pu_matrix      sparse from-PU x to-PU counts, cells sorted by (from, to);
//                    a.pu_matrix.count(f, t) looks one up. PU indices are the
//                    topology's logical order, the order of the profiler's
//                    cost matrix (MigrationProfile), so the two line up.
//   a.node_matrix    the same folded by NUMA node pair (from node, to node)
//   a.by_class       counts by DistanceClass (index = static_cast<int>(cls))
//   a.items          every migration, in time order: time, task, PUs, nodes,
//                    since_last_ran_ns, hot?, refill/remote stall ns, still
//                    being paid?, ping-pong?, the index of its decision
//   a.since_last_ran, a.cost     log-spaced histograms (ns); cost is refill +
//                    remote stall per migration. a.cache_hot_time_ns is the
//                    threshold to draw on the first.
//   a.totals         migrations/s, hot share, refill and remote totals,
//                    ping-pongs
//
//   For a clicked heatmap cell (GUI):
//     for (size_t i : a.items_in_cell(from_pu, to_pu))
//         show(a.items[i], migration_reason(sim.recording(), a.items[i]));
//
// The analysis keeps indices into the run's Recording, not copies of the
// reasons: read them from the same simulation, and re-analyse after a
// restore() (a restore truncates the recording). A full analysis is one pass
// over the migrations and the decision log, so recomputing it for a view
// refresh is cheap.
//
// The costs come from the engine's hook (Task::mig_cost, sim_types.h):
// extra running time, in the engine's own rate model, against the rate the
// task would have had with the caches it had before the move (refill) and
// with its memory seen from the node it left (remote).

#include "analysis/log_histogram.h"
#include "engine/recording.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace schedscope {

class Simulation;

// A move back to the PU a task just left counts as a ping-pong if it comes
// within this time of the move away. 10 ms is the longest cache-hot time in
// use by our policies (linux-2.5-numa's cache decay) and four times the 2.6
// default: a task that returns this soon finds the caches it left still
// mostly warm, so the round trip paid two refills for nothing.
inline constexpr SimTime kPingPongWindowNs = 10'000'000;

// Histogram range: 100 ns is below a context switch (2 us in the model), so
// anything smaller is "no time" for both quantities; 10 s above covers any
// sleep or stall a run of minutes produces. Four bins per decade is the
// resolution of the cache_hot_time sweep in docs/background.md section 6 (2.5, 5, 10 ms).
inline constexpr double kHistogramLowestNs = 100.0;
inline constexpr int kHistogramDecades = 8;
inline constexpr int kHistogramBinsPerDecade = 4;

struct MatrixCell {
    int from = 0;
    int to = 0;
    std::int64_t count = 0;
};

// A sparse square matrix: a 1024-PU machine has a million cells of which a
// run touches few.
struct SparseCountMatrix {
    int size = 0;                  // rows = columns
    std::vector<MatrixCell> cells; // non-zero only, sorted by (from, to)
    std::int64_t count(int from, int to) const;
    std::int64_t total() const;
    std::int64_t max_count() const; // the largest cell: a heatmap's scale
};

struct MigrationItem {
    std::size_t record = 0; // index in Recording::migrations
    SimTime time_ns = 0;
    TaskId task = -1;
    int from_cpu = -1, to_cpu = -1;
    int from_node = 0, to_node = 0;
    DistanceClass cls = DistanceClass::Self;
    SimTime since_last_ran_ns = 0;
    bool hot = false; // since_last_ran_ns < cache_hot_time_ns
    double refill_stall_ns = 0;
    double remote_stall_ns = 0;
    bool cost_open = false;     // the task is still paying for it (the run is not over, or never settled)
    bool ping_pong = false;     // it returned the task to the PU its previous move took it from
    std::int64_t decision = -1; // index in Recording::decisions of the decision that made it; -1 if none kept
    double cost_ns() const { return refill_stall_ns + remote_stall_ns; }
};

struct MigrationTotals {
    std::int64_t migrations = 0;
    double elapsed_s = 0;
    double per_second = 0;
    std::int64_t hot = 0;
    double hot_share = 0;       // hot / migrations, 0..1 (0 when none)
    double refill_stall_ns = 0; // summed over migrations
    double remote_stall_ns = 0;
    std::int64_t ping_pongs = 0;
    std::int64_t still_paying = 0; // migrations whose cost phases are still open
};

struct MigrationAnalysisOptions {
    // < 0: take it from the policy (see policy_cache_hot_time_ns).
    SimTime cache_hot_time_ns = -1;
    SimTime ping_pong_window_ns = kPingPongWindowNs;
};

struct MigrationAnalysis {
    SparseCountMatrix pu_matrix;
    SparseCountMatrix node_matrix;
    std::array<std::int64_t, kDistanceClassCount> by_class{};
    std::vector<MigrationItem> items; // time order
    SimTime cache_hot_time_ns = 0;
    std::string cache_hot_time_origin; // "policy cache_hot_time_ms" or the default's name
    SimTime ping_pong_window_ns = kPingPongWindowNs;
    LogHistogram since_last_ran{kHistogramLowestNs, kHistogramDecades, kHistogramBinsPerDecade};
    LogHistogram cost{kHistogramLowestNs, kHistogramDecades, kHistogramBinsPerDecade};
    MigrationTotals totals;
    // Moves past the recording's limit (RecordingLimits::max_migrations):
    // counted by the run, not kept, so not in `items` or the figures above.
    std::int64_t not_kept = 0;

    // Indices into `items` of the migrations from one PU to another, in time order.
    std::vector<std::size_t> items_in_cell(int from_cpu, int to_cpu) const;
};

// The policy's machine-wide cache_hot_time, as the policy states it
// (Policy::cache_hot_time_ms), or the 2.6 default (kDefaultCacheHotTimeMs,
// engine/policy.h) when it has none;
// `origin` says which.
SimTime policy_cache_hot_time_ns(const Simulation &sim, std::string *origin = nullptr);

MigrationAnalysis analyze_migrations(const Simulation &sim, const MigrationAnalysisOptions &opt = {});

// The decision log's reason for a migration, or a plain note when the log
// kept none (a policy that logs no wakeup reason, or the log was full).
std::string migration_reason(const Recording &rec, const MigrationItem &item);

} // namespace schedscope
