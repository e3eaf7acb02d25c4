#include "profiler/migration_model.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace schedscope {

namespace {
// SLIT's unit: a distance of 10 is local memory (ACPI).
constexpr double kLocalSlitDistance = 10.0;
constexpr double kNsPerMs = 1e6;
} // namespace

MigrationModel::MigrationModel(const Topology &topology, const ModelParams &params, std::uint64_t buffer_bytes,
                               double line_bytes, std::uint64_t fallback_cache_bytes, int fallback_level)
    : topology_(topology), params_(params), buffer_bytes_(static_cast<double>(buffer_bytes)), line_bytes_(line_bytes)
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

double MigrationModel::remote_line_ns(int slit_distance) const
{
    return params_.mem_latency_local_ns * (slit_distance / kLocalSlitDistance) +
           line_bytes_ / params_.cache_fill_bytes_per_ns;
}

double MigrationModel::cost_ms(int source, int target, const std::atomic<bool> *)
{
    const double b = buffer_bytes_;
    const double lines = b / line_bytes_;
    const int slit = source == target
                         ? static_cast<int>(kLocalSlitDistance)
                         : topology_.node_distance(topology_.node_of_pu(source), topology_.node_of_pu(target));
    double covered = 0; // fraction of the buffer's lines already served
    double ns_per_line = 0;
    auto serve = [&](double retained, double line_ns) {
        retained = std::clamp(retained, 0.0, 1.0);
        if (retained > covered) {
            ns_per_line += (retained - covered) * line_ns;
            covered = retained;
        }
    };

    if (source == target) {
        for (const auto &c : caches_[source])
            serve(c.size_bytes / b, hit_latency_ns(c.level));
    } else {
        // Caches the target shares with the source, after the target's own
        // buffer went through them.
        for (const auto &c : caches_[target])
            if (c.sharers.test(source))
                serve((c.size_bytes - b) / b, hit_latency_ns(c.level));
        // The source's other caches still hold their share; fetching from
        // them crosses the same interconnect as memory.
        for (const auto &c : caches_[source])
            if (!c.sharers.test(target))
                serve(c.size_bytes / b, remote_line_ns(slit));
    }
    serve(1.0, remote_line_ns(slit));
    return lines * ns_per_line / kNsPerMs;
}

} // namespace schedscope
