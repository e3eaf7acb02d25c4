#pragma once
// What a run leaves behind for reports and views: decisions with their
// reasons, every migration, and metrics sampled on a fixed interval. It is
// append-only and ordered by time, so a checkpoint only has to remember its
// sizes and a restore truncates back to them.

#include "engine/sim_types.h"
#include "engine/text_arena.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace schedscope {

enum class DecisionKind { Place, Pull, SkipHot, Wakeup, PageMigrate, Exchange, PreferNode, Other };
const char *decision_kind_name(DecisionKind k);

struct Decision {
    SimTime time_ns = 0;
    DecisionKind kind = DecisionKind::Other;
    TaskId task = -1;
    int from = -1; // PU or node, depending on kind
    int to = -1;
    ReasonText reason; // plain words, e.g. "CPU 3 idle: pulled task 17 from CPU 0 ..."
};

inline constexpr int kDistanceClassCount = 7; // DistanceClass values

struct MigrationRecord {
    SimTime time_ns = 0;
    TaskId task = -1;
    int from_cpu = -1;
    int to_cpu = -1;
    DistanceClass cls = DistanceClass::Self;
    SimTime since_last_ran_ns = 0; // what cache_hot_time judges
    // What the move cost the task afterwards, in ns of its own running time
    // beyond what it would have needed without the move (Task::mig_cost says
    // how it is measured). They grow while the phase is open, so a record
    // read mid-run shows the bill so far.
    double refill_stall_ns = 0; // until its caches were as warm as before the move
    double remote_stall_ns = 0; // until its memory was no further than from the PU it left
};

struct NodeBytes {
    int node = 0;
    double bytes = 0;
};

// One sample of the whole simulation. Cumulative counters are totals since
// the start; "window" figures cover the interval since the previous sample.
struct MetricsSample {
    SimTime time_ns = 0;
    double user_ns = 0, sys_ns = 0, idle_ns = 0;                         // cumulative, summed over PUs
    std::array<std::int64_t, kDistanceClassCount> migrations_by_class{}; // cumulative
    std::int64_t page_migrations = 0;                                    // cumulative, in chunks
    std::int64_t hinting_faults = 0;                                     // cumulative
    double lock_wait_ns = 0;                                             // cumulative
    std::int64_t ops = 0;                                                // cumulative CountOps (throughput workloads)
    double progress = 0;                                                 // fraction of fixed work done, 0..1
    std::vector<float> pu_busy;                                          // window busy fraction per PU
    std::vector<float> cache_heat; // per cache (CacheState order): used / capacity
    // [process] -> resident bytes on each node that holds some. Sparse: a
    // 512-node machine with 1024 processes would otherwise keep 4 MiB a sample.
    std::vector<std::vector<NodeBytes>> proc_node_bytes;
    std::vector<float> proc_local_pct; // [process] window local-access %, -1 if no access
};

// How much a Recording keeps, so that a long run (an hour of simulated time,
// a GUI left running) stays bounded in memory. Past a limit, decisions and
// migrations are counted but not kept (the samples' cumulative counters stay
// exact); samples are merged in neighbouring pairs and the simulation samples
// half as often from then on, so a run of any length keeps at most
// max_samples of them, covering the whole run at a coarser interval.
struct RecordingLimits {
    std::size_t max_decisions = 200'000;
    std::size_t max_migrations = 200'000;
    std::size_t max_samples = 4096; // at least 4
    // And no more samples than fit in this many bytes (a sample of a machine
    // with thousands of PUs and processes takes hundreds of KiB).
    std::size_t max_sample_bytes = std::size_t{32} << 20;
};

// Room for decisions and for migrations is reserved in two steps: 4096 at
// the first record (192 KiB, from the ordinary heap), then, when those are
// full, the default limit at once (9 MiB of address space at 48 bytes a
// record, in huge pages, touched only as records arrive). A storm fills the
// limits within its first simulated second, and growing by doubling moved
// every record kept so far, each time into fresh pages; a quiet run keeps
// a few thousand and does not take a 2 MiB page for them.
inline constexpr std::size_t kRecordsFirst = 4096;
inline constexpr std::size_t kRecordsReserved = 200'000;

// Makes room for one more record in `v` (limit: the most it may keep).
template <class List> void make_room_for_record(List &v, std::size_t limit)
{
    if (v.size() < v.capacity())
        return;
    if (v.capacity() < kRecordsFirst)
        v.reserve(std::min(limit, kRecordsFirst));
    else if (v.capacity() < kRecordsReserved)
        v.reserve(std::min(limit, kRecordsReserved));
}

// Heap and inline bytes one sample takes, near enough for a budget.
std::size_t sample_bytes(const MetricsSample &s);

// A storm fills these to their limits within a simulated second: tens of
// megabytes, in huge pages where the system has them (text_arena.h).
using DecisionList = std::vector<Decision, BigArrayAllocator<Decision>>;
using MigrationList = std::vector<MigrationRecord, BigArrayAllocator<MigrationRecord>>;

struct Recording {
    DecisionList decisions;
    MigrationList migrations;
    TextArena text; // where the decisions' reasons are written
    std::vector<MetricsSample> samples;
    RecordingLimits limits;
    std::int64_t decisions_dropped = 0;
    std::int64_t migrations_dropped = 0;
    // How many times the samples were merged in pairs (merge_samples).
    int sample_merges = 0;

    // Merges samples[1..] in neighbouring pairs (the first sample, the start,
    // stays as it is). A merged sample keeps the later sample's time,
    // cumulative counters and instantaneous figures (cache heat, resident
    // memory); its window figures (PU busy, local-access share) are the two
    // windows' averages weighted by their length.
    void merge_samples();
    // How many samples like `typical` the limits allow (never fewer than 4).
    std::size_t sample_limit(const MetricsSample &typical) const;

    // Where a checkpoint was. Decisions and migrations only ever grow until
    // their limit, so their sizes mark it; samples may have been merged since,
    // so they are marked by time as well.
    struct Mark {
        std::size_t decisions = 0, migrations = 0, samples = 0;
        std::int64_t decisions_dropped = 0, migrations_dropped = 0;
        int sample_merges = 0;
        SimTime last_sample_ns = -1; // -1: no sample yet
    };
    Mark mark() const
    {
        return {decisions.size(),
                migrations.size(),
                samples.size(),
                decisions_dropped,
                migrations_dropped,
                sample_merges,
                samples.empty() ? SimTime{-1} : samples.back().time_ns};
    }
    // Back to a mark. Samples merged after the mark stay merged: the history
    // before it is then at the coarser interval, and the figures are the same.
    void truncate(const Mark &m);
};

} // namespace schedscope
