#include "engine/recording.h"

#include <algorithm>

namespace schedscope {

namespace {

// The figure over both windows, each weighted by its length.
float weighted(float a, double wa, float b, double wb)
{
    return wa + wb > 0 ? static_cast<float>((a * wa + b * wb) / (wa + wb)) : b;
}

// `later` absorbs `earlier`: `later` already holds the cumulative and
// instantaneous figures; only its window figures widen to cover both.
void absorb(MetricsSample &later, const MetricsSample &earlier, SimTime earlier_window_start)
{
    const double wa = static_cast<double>(earlier.time_ns - earlier_window_start);
    const double wb = static_cast<double>(later.time_ns - earlier.time_ns);
    const std::size_t npu = std::min(later.pu_busy.size(), earlier.pu_busy.size());
    for (std::size_t p = 0; p < npu; ++p)
        later.pu_busy[p] = weighted(earlier.pu_busy[p], wa, later.pu_busy[p], wb);
    // A process added after the earlier sample has no earlier window; -1
    // means no access in that window, which only the other window can fill.
    const std::size_t nproc = std::min(later.proc_local_pct.size(), earlier.proc_local_pct.size());
    for (std::size_t p = 0; p < nproc; ++p) {
        const float a = earlier.proc_local_pct[p], b = later.proc_local_pct[p];
        if (a < 0)
            continue;
        later.proc_local_pct[p] = b < 0 ? a : weighted(a, wa, b, wb);
    }
}

} // namespace

std::size_t sample_bytes(const MetricsSample &s)
{
    // Each inner vector of proc_node_bytes is an allocation of its own, with
    // the allocator's header.
    constexpr std::size_t kAllocOverhead = 16;
    std::size_t b = sizeof(MetricsSample) + s.pu_busy.capacity() * sizeof(float) +
                    s.cache_heat.capacity() * sizeof(float) + s.proc_local_pct.capacity() * sizeof(float) +
                    s.proc_node_bytes.capacity() * sizeof(std::vector<NodeBytes>);
    for (const auto &v : s.proc_node_bytes)
        if (v.capacity() > 0)
            b += v.capacity() * sizeof(NodeBytes) + kAllocOverhead;
    return b;
}

std::size_t Recording::sample_limit(const MetricsSample &typical) const
{
    const std::size_t by_bytes = limits.max_sample_bytes / std::max<std::size_t>(1, sample_bytes(typical));
    return std::max<std::size_t>(4, std::min(limits.max_samples, by_bytes));
}

void Recording::merge_samples()
{
    if (samples.size() < 3)
        return;
    std::size_t out = 1;
    std::size_t i = 1;
    for (; i + 1 < samples.size(); i += 2, ++out) {
        absorb(samples[i + 1], samples[i], samples[out - 1].time_ns);
        samples[out] = std::move(samples[i + 1]);
    }
    if (i < samples.size()) // an odd one at the end stays as it is
        samples[out++] = std::move(samples[i]);
    samples.resize(out);
    ++sample_merges;
}

void Recording::truncate(const Mark &m)
{
    decisions.resize(std::min(decisions.size(), m.decisions));
    migrations.resize(std::min(migrations.size(), m.migrations));
    decisions_dropped = m.decisions_dropped;
    // The dropped decisions' text may still be read by copies of them made
    // before the restore: leave it, and write what comes next elsewhere.
    text.start_new_chunk();
    migrations_dropped = m.migrations_dropped;
    if (sample_merges == m.sample_merges) {
        samples.resize(std::min(samples.size(), m.samples));
        return;
    }
    // Merged since the mark: keep what ends no later than the mark's last
    // sample. A merged sample that straddles the mark ends after it and goes.
    auto keep = std::find_if(samples.begin(), samples.end(),
                             [&](const MetricsSample &s) { return s.time_ns > m.last_sample_ns; });
    samples.erase(keep, samples.end());
}

const char *decision_kind_name(DecisionKind k)
{
    switch (k) {
    case DecisionKind::Place: return "place";
    case DecisionKind::Pull: return "pull";
    case DecisionKind::SkipHot: return "skip-hot";
    case DecisionKind::Wakeup: return "wakeup";
    case DecisionKind::PageMigrate: return "page-migrate";
    case DecisionKind::Exchange: return "exchange";
    case DecisionKind::PreferNode: return "prefer-node";
    case DecisionKind::Other: return "other";
    }
    return "other";
}

} // namespace schedscope
