#pragma once
// Estimated migration costs for a topology that is not the running machine,
// from the same mechanisms the measurement exercises:
//
//   1. the source writes a buffer of B bytes; each of its caches of size C
//      keeps the last min(C, B) bytes written, i.e. a fraction min(1, C/B);
//   2. the target writes its own buffer of B bytes: caches it shares with the
//      source keep only what is left of the shared buffer after B more bytes,
//      a fraction clamp((C - B) / B, 0, 1); its private caches hold none;
//   3. the target then writes the shared buffer; each line is served by the
//      closest place holding it: a shared cache (that cache's latency), the
//      source's private caches (a cache-to-cache transfer across the bus or
//      interconnect) or the memory of the source's node; the last two pay
//      the local memory latency scaled by SLIT/10 plus the line's transfer
//      time at the core's cache fill bandwidth.
//
// Self-migration skips step 2: it is the pure dirtying cost of a buffer the
// PU itself has just written. Caches are treated as LRU and non-inclusive;
// the shapes (blocks by cache sharing and node distance, a flat off-diagonal
// with private caches on one node) follow from the mechanisms, not from
// target numbers.

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
    // Latency plus transfer time of one line fetched from outside the
    // target's caches at the given SLIT distance.
    double remote_line_ns(int slit_distance) const;

    const Topology &topology_;
    ModelParams params_;
    double buffer_bytes_;
    double line_bytes_;
    std::vector<std::vector<CacheView>> caches_; // per logical PU, L1 outwards
    std::vector<std::string> notes_;
};

} // namespace schedscope
