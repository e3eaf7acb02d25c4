#include "analysis/migration_analysis.h"

#include "engine/policy.h"
#include "engine/simulation.h"
#include "params/param_table.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

namespace schedscope {

namespace {

constexpr double kNsPerMs = 1e6;
constexpr double kNsPerS = 1e9;

// Cells counted in an ordered map while scanning, then flattened: the map
// keeps (from, to) order, which is the order the sparse matrix promises.
SparseCountMatrix flatten(int size, const std::map<std::pair<int, int>, std::int64_t> &counts)
{
    SparseCountMatrix m;
    m.size = size;
    m.cells.reserve(counts.size());
    for (const auto &[key, n] : counts)
        m.cells.push_back(MatrixCell{key.first, key.second, n});
    return m;
}

// The decision made at the record's time about the same task and PUs.
// `from` is where to start looking; decisions and records are both in time
// order, so the caller keeps it moving forward.
std::int64_t find_decision(const DecisionList &decisions, std::size_t &from, const MigrationRecord &r)
{
    while (from < decisions.size() && decisions[from].time_ns < r.time_ns)
        ++from;
    for (std::size_t j = from; j < decisions.size() && decisions[j].time_ns == r.time_ns; ++j) {
        const Decision &d = decisions[j];
        if (d.task == r.task && d.from == r.from_cpu && d.to == r.to_cpu && d.kind != DecisionKind::Place)
            return static_cast<std::int64_t>(j);
    }
    return -1;
}

} // namespace

std::int64_t SparseCountMatrix::count(int from, int to) const
{
    auto it = std::lower_bound(cells.begin(), cells.end(), std::pair{from, to},
                               [](const MatrixCell &c, const std::pair<int, int> &k) {
                                   return std::pair{c.from, c.to} < k;
                               });
    return it != cells.end() && it->from == from && it->to == to ? it->count : 0;
}

std::int64_t SparseCountMatrix::total() const
{
    std::int64_t n = 0;
    for (const auto &c : cells)
        n += c.count;
    return n;
}

std::int64_t SparseCountMatrix::max_count() const
{
    std::int64_t m = 0;
    for (const auto &c : cells)
        m = std::max(m, c.count);
    return m;
}

std::vector<std::size_t> MigrationAnalysis::items_in_cell(int from_cpu, int to_cpu) const
{
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < items.size(); ++i)
        if (items[i].from_cpu == from_cpu && items[i].to_cpu == to_cpu)
            out.push_back(i);
    return out;
}

SimTime policy_cache_hot_time_ns(const Simulation &sim, std::string *origin)
{
    const double ms = sim.policy().cache_hot_time_ms();
    if (std::isfinite(ms) && ms >= 0) {
        if (origin)
            *origin = "policy cache_hot_time_ms";
        return static_cast<SimTime>(std::llround(ms * kNsPerMs));
    }
    if (origin)
        *origin = "default " + real_text(kDefaultCacheHotTimeMs) + " ms (the policy has no cache_hot_time_ms)";
    return static_cast<SimTime>(std::llround(kDefaultCacheHotTimeMs * kNsPerMs));
}

MigrationAnalysis analyze_migrations(const Simulation &sim, const MigrationAnalysisOptions &opt)
{
    MigrationAnalysis a;
    const Topology &topo = sim.topology();
    const Recording &rec = sim.recording();
    const int npu = topo.pu_count();
    const int nnode = std::max(1, topo.numa_count());
    a.ping_pong_window_ns = opt.ping_pong_window_ns;
    a.not_kept = rec.migrations_dropped;
    if (opt.cache_hot_time_ns >= 0) {
        a.cache_hot_time_ns = opt.cache_hot_time_ns;
        a.cache_hot_time_origin = "given";
    } else {
        a.cache_hot_time_ns = policy_cache_hot_time_ns(sim, &a.cache_hot_time_origin);
    }

    std::map<std::pair<int, int>, std::int64_t> pu_counts, node_counts;
    // Per task: its previous migration, to recognise a move straight back.
    std::vector<std::int64_t> last_item(sim.tasks().size(), -1);
    std::size_t decision_cursor = 0;
    a.items.reserve(rec.migrations.size());
    for (std::size_t i = 0; i < rec.migrations.size(); ++i) {
        const MigrationRecord &r = rec.migrations[i];
        MigrationItem m;
        m.record = i;
        m.time_ns = r.time_ns;
        m.task = r.task;
        m.from_cpu = r.from_cpu;
        m.to_cpu = r.to_cpu;
        m.from_node = topo.node_of_pu(r.from_cpu);
        m.to_node = topo.node_of_pu(r.to_cpu);
        m.cls = r.cls;
        m.since_last_ran_ns = r.since_last_ran_ns;
        m.hot = r.since_last_ran_ns < a.cache_hot_time_ns;
        m.refill_stall_ns = r.refill_stall_ns;
        m.remote_stall_ns = r.remote_stall_ns;
        m.cost_open = sim.task(r.task).mig_cost.record == static_cast<std::int64_t>(i);
        m.decision = find_decision(rec.decisions, decision_cursor, r);
        auto &prev = last_item.at(static_cast<size_t>(r.task));
        if (prev >= 0) {
            const MigrationItem &p = a.items[static_cast<size_t>(prev)];
            m.ping_pong = m.to_cpu == p.from_cpu && m.time_ns - p.time_ns <= a.ping_pong_window_ns;
        }
        prev = static_cast<std::int64_t>(a.items.size());

        ++pu_counts[{m.from_cpu, m.to_cpu}];
        ++node_counts[{m.from_node, m.to_node}];
        ++a.by_class[static_cast<int>(m.cls)];
        a.since_last_ran.add(static_cast<double>(m.since_last_ran_ns));
        a.cost.add(m.cost_ns());

        MigrationTotals &t = a.totals;
        ++t.migrations;
        t.hot += m.hot ? 1 : 0;
        t.refill_stall_ns += m.refill_stall_ns;
        t.remote_stall_ns += m.remote_stall_ns;
        t.ping_pongs += m.ping_pong ? 1 : 0;
        t.still_paying += m.cost_open ? 1 : 0;
        a.items.push_back(m);
    }
    a.pu_matrix = flatten(npu, pu_counts);
    a.node_matrix = flatten(nnode, node_counts);

    MigrationTotals &t = a.totals;
    const SimTime end = sim.finished() ? sim.end_time() : sim.now();
    t.elapsed_s = static_cast<double>(end) / kNsPerS;
    t.per_second = t.elapsed_s > 0 ? static_cast<double>(t.migrations) / t.elapsed_s : 0.0;
    t.hot_share = t.migrations > 0 ? static_cast<double>(t.hot) / static_cast<double>(t.migrations) : 0.0;
    return a;
}

std::string migration_reason(const Recording &rec, const MigrationItem &item)
{
    if (item.decision >= 0 && static_cast<std::size_t>(item.decision) < rec.decisions.size()) {
        const Decision &d = rec.decisions[static_cast<std::size_t>(item.decision)];
        if (!d.reason.empty())
            return d.reason.str();
        return std::string(decision_kind_name(d.kind)) + " (no reason given)";
    }
    // migrate_task always logs, so only a wakeup placed without a reason or a
    // full log leaves a move without a decision.
    if (rec.decisions_dropped > 0)
        return "no decision kept (the decision log was full, or a wakeup placed without a reason)";
    return "no decision logged (a wakeup the policy placed without a reason)";
}

} // namespace schedscope
