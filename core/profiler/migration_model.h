#pragma once
// Estimated migration costs for a topology that is not the running machine,
// from the same mechanisms the measurement exercises:
//
//   1. the source writes a buffer of B bytes; each of its caches of size C
//      keeps the last min(C, B) bytes written, i.e. a fraction min(1, C/B);
//   2. the target writes its own buffer of B bytes: caches it shares with the
//      source keep only what is left of the shared buffer after B more bytes,
//      a fraction clamp((C - B) / B, 0, 1); its private caches hold none, and
//      are full of its own dirty lines;
//   3. the target then writes the shared buffer; each line is served by the
//      closest place holding it: a shared cache (that cache's latency), the
//      source's private caches (a cache-to-cache transfer across the bus or
//      interconnect) or the memory of the source's node; the last two pay
//      the local memory latency times the engine's latency ratio for the
//      node pair (MemoryModel::latency_ratio).
//
// How fast step 3 goes is the engine's rule for a thread refilling a cache
// (engine/memory_model.h), not a rule of its own: the writes are a stream,
// so each line stalls for its latency over mem_misses_in_flight; no core
// brings lines in from beyond its caches faster than
// cache_fill_bytes_per_ns; and the traffic is
// bounded by the bandwidth of the node it lands on and of the link it
// crosses. A write that misses reads its line first (read for ownership),
// and each line brought into a cache full of dirty lines writes one back to
// memory: the target's own buffer's lines at first (its node), then the
// shared buffer's (the source's node, where the buffer was first written).
// The step takes the longest of these bounds.
//
// Self-migration skips step 2: it is the pure dirtying cost of a buffer the
// PU itself has just written. Caches are treated as LRU and non-inclusive;
// the shapes (blocks by cache sharing and node distance, a flat off-diagonal
// with private caches on one node) follow from the mechanisms, not from
// target numbers.

#include "engine/memory_model.h"
#include "engine/model_params.h"
#include "profiler/pair_cost_source.h"
#include "topology/topology.h"

#include <cstdint>
#include <string>
#include <vector>

namespace schedscope {

class MigrationModel : public PairCostSource {
public:
    // `fallback_cache_bytes` stands in, as a private cache at
    // `fallback_level`, for a PU that has no cache of known size (numactl
    // input): without one, no PU would keep anything warm.
    MigrationModel(const Topology &topology, const ModelParams &params, std::uint64_t buffer_bytes, double line_bytes,
                   std::uint64_t fallback_cache_bytes, int fallback_level);

    std::vector<bool> usable_pus() override;
    double cost_ms(int source, int target, const std::atomic<bool> *cancel) override;
    std::vector<std::string> notes() const override { return notes_; }

private:
    struct CacheView {
        int level = 0;
        double size_bytes = 0;
        CpuSet sharers;
    };
    double hit_latency_ns(int level) const;

    // What step 3 moves, per line of the buffer: the stall of the lines
    // served by caches the target shares with the source, and the share
    // served from outside them (the source's private caches or memory).
    struct LineSources {
        double shared_hit_ns = 0; // summed over the buffer's lines, before overlap
        double outside_share = 0; // of the buffer's lines
    };
    // The time of step 3 from where its lines come from (the bounds above).
    double refill_ns(int source, int target, const LineSources &from) const;

    const Topology &topology_;
    ModelParams params_;
    MemoryModel memory_; // the engine's latency ratios and link hops for this machine
    double buffer_bytes_;
    double line_bytes_;
    std::vector<std::vector<CacheView>> caches_; // per logical PU, L1 outwards
    std::vector<std::string> notes_;
};

} // namespace schedscope
