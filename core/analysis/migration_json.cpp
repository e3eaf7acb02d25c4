#include "analysis/migration_json.h"

namespace schedscope {

namespace {

constexpr double kNsPerMs = 1e6;

nlohmann::json matrix_json(const SparseCountMatrix &m)
{
    nlohmann::json cells = nlohmann::json::array();
    for (const MatrixCell &c : m.cells)
        cells.push_back({c.from, c.to, c.count});
    return {{"size", m.size}, {"cells", std::move(cells)}};
}

nlohmann::json histogram_json(const LogHistogram &h)
{
    return {{"edges", h.edges()}, {"counts", h.counts()}, {"below", h.below()}, {"above", h.above()}};
}

} // namespace

nlohmann::json migrations_detail_json(const MigrationAnalysis &a)
{
    nlohmann::json j;
    j["cache_hot_time_ms"] = static_cast<double>(a.cache_hot_time_ns) / kNsPerMs;
    j["cache_hot_time_origin"] = a.cache_hot_time_origin;
    j["ping_pong_window_ms"] = static_cast<double>(a.ping_pong_window_ns) / kNsPerMs;
    j["pu_matrix"] = matrix_json(a.pu_matrix);
    j["node_matrix"] = matrix_json(a.node_matrix);
    nlohmann::json cls = nlohmann::json::object();
    for (int c = 0; c < kDistanceClassCount; ++c)
        if (static_cast<DistanceClass>(c) != DistanceClass::Self) // never a migration
            cls[distance_class_name(static_cast<DistanceClass>(c))] = a.by_class[static_cast<size_t>(c)];
    j["by_class"] = std::move(cls);
    nlohmann::json since = histogram_json(a.since_last_ran);
    since["cache_hot_time_ns"] = a.cache_hot_time_ns;
    j["since_last_ran_ns"] = std::move(since);
    j["cost_ns"] = histogram_json(a.cost);
    const MigrationTotals &t = a.totals;
    j["totals"] = {{"migrations", t.migrations},
                   {"per_second", t.per_second},
                   {"hot", t.hot},
                   {"hot_pct", 100.0 * t.hot_share},
                   {"refill_stall_ms", t.refill_stall_ns / kNsPerMs},
                   {"remote_stall_ms", t.remote_stall_ns / kNsPerMs},
                   {"ping_pongs", t.ping_pongs},
                   {"still_paying", t.still_paying}};
    if (a.not_kept > 0) // a long run: the figures cover the moves the recording kept
        j["not_kept"] = a.not_kept;
    return j;
}

} // namespace schedscope
