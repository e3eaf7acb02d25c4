#include "profiler/migration_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

namespace schedscope {

namespace {
constexpr double kNsPerMs = 1e6;
} // namespace

MigrationModel::MigrationModel(const Topology &topology, const ModelParams &params, std::uint64_t buffer_bytes,
                               double line_bytes, std::uint64_t fallback_cache_bytes, int fallback_level)
    : topology_(topology), params_(params),
      // Not owned: the profiler's caller keeps the topology alive for the run.
      memory_(std::shared_ptr<const Topology>(std::shared_ptr<const void>(), &topology), params),
      buffer_bytes_(static_cast<double>(buffer_bytes)), line_bytes_(line_bytes)
{
    bool ignored_unknown = false, used_fallback = false;
    caches_.resize(topology.pu_count());
    for (int pu = 0; pu < topology.pu_count(); ++pu) {
        for (ObjId id : topology.caches_of_pu(pu)) {
            const auto &o = topology.obj(id);
            if (o.cache_size_bytes == 0) {
                ignored_unknown = true;
                continue;
            }
            caches_[pu].push_back({cache_level(o.type), static_cast<double>(o.cache_size_bytes), o.cpuset});
        }
        if (caches_[pu].empty()) {
            CpuSet self(topology.pu_count());
            self.set(pu);
            caches_[pu].push_back({fallback_level, static_cast<double>(fallback_cache_bytes), self});
            used_fallback = true;
        }
    }
    if (ignored_unknown)
        notes_.push_back("model: caches of unknown size are left out of the estimate");
    if (used_fallback)
        notes_.push_back("model: PUs without a known cache were given a private " +
                         std::to_string(fallback_cache_bytes / 1024) + " KiB L" + std::to_string(fallback_level) +
                         " (ModelParams::default_cache_size_bytes)");
}

std::vector<bool> MigrationModel::usable_pus() { return std::vector<bool>(topology_.pu_count(), true); }

double MigrationModel::hit_latency_ns(int level) const
{
    switch (level) {
    case 1: return params_.l1_latency_ns;
    case 2: return params_.l2_latency_ns;
    default: return params_.l3_latency_ns;
    }
}

double MigrationModel::refill_ns(int source, int target, const LineSources &from) const
{
    const double lines = buffer_bytes_ / line_bytes_;
    const bool numa = topology_.numa_count() > 0;
    const int sn = numa ? topology_.node_of_pu(source) : 0;
    const int tn = numa ? topology_.node_of_pu(target) : 0;
    const double outside_lines = lines * from.outside_share;
    // Latency: the writes are a stream, so each line stalls for its latency
    // over the lines in flight (MemoryModel::overlap of a task with no
    // dependent accesses).
    const double outside_ns = params_.mem_latency_local_ns * (numa ? memory_.latency_ratio(tn, sn) : 1.0);
    const double latency_bound = (from.shared_hit_ns + outside_lines * outside_ns) / params_.mem_misses_in_flight;
    // A core brings lines in from beyond its caches no faster than this
    // (ModelParams::cache_fill_bytes_per_ns, which MemoryModel::warm()
    // applies to a task's refill; a shared cache's hits are not refills
    // from memory and are bounded by their latency above).
    const double fill_bound = outside_lines * line_bytes_ / params_.cache_fill_bytes_per_ns;
    // Bandwidth. Each line read from outside (read for ownership) displaces
    // a dirty line the target's caches write back: its own buffer's first,
    // homed on its node, as much as its largest private cache held; then
    // the shared buffer's, homed on the source's node. Demand is charged to
    // the node whose memory it is, as the engine charges it, and a remote
    // node's share also crosses the link between the two.
    double private_bytes = 0;
    for (const auto &c : caches_[target])
        if (source == target || !c.sharers.test(source))
            private_bytes = std::max(private_bytes, c.size_bytes);
    const double read_bytes = outside_lines * line_bytes_;
    const double wb_target = std::min(read_bytes, private_bytes);
    const double wb_source = read_bytes - wb_target;
    const double bw = params_.mem_bandwidth_bytes_per_ns;
    double bandwidth_bound = 0;
    if (sn == tn) {
        bandwidth_bound = (2 * read_bytes) / bw;
    } else {
        const double crossing = read_bytes + wb_source;
        bandwidth_bound = std::max({crossing / bw, wb_target / bw,
                                    crossing * memory_.link_hops(tn, sn) / params_.link_bandwidth_bytes_per_ns});
    }
    return std::max({latency_bound, fill_bound, bandwidth_bound});
}

double MigrationModel::cost_ms(int source, int target, const std::atomic<bool> *)
{
    const double b = buffer_bytes_;
    const double lines = b / line_bytes_;
    double covered = 0; // fraction of the buffer's lines already served
    LineSources from;
    // Lines a cache the target reads from holds, beyond those served closer.
    auto serve_hit = [&](double retained, double line_ns) {
        retained = std::clamp(retained, 0.0, 1.0);
        if (retained > covered) {
            from.shared_hit_ns += (retained - covered) * lines * line_ns;
            covered = retained;
        }
    };

    if (source == target) {
        for (const auto &c : caches_[source])
            serve_hit(c.size_bytes / b, hit_latency_ns(c.level));
    } else {
        // Caches the target shares with the source, after the target's own
        // buffer went through them.
        for (const auto &c : caches_[target])
            if (c.sharers.test(source))
                serve_hit((c.size_bytes - b) / b, hit_latency_ns(c.level));
    }
    // Everything else comes from outside the target's caches: the source's
    // private caches (a cache-to-cache transfer, at the cost of a memory
    // access on the source's node) or that node's memory.
    from.outside_share = 1.0 - covered;
    return refill_ns(source, target, from) / kNsPerMs;
}

} // namespace schedscope
