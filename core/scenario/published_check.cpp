// Whole-file checks of published experiments (published_check.h) and the
// metrics files may name (published.h).

#include "scenario/published_check.h"

#include "engine/recording.h"
#include "util/input_error.h"

#include <algorithm>
#include <map>
#include <set>

namespace schedscope {

const std::vector<PublishedMetric> &published_metrics()
{
    static const std::vector<PublishedMetric> metrics = [] {
        const PublishedKind sim = PublishedKind::Simulation;
        std::vector<PublishedMetric> m = {
            {"elapsed_s", "simulated seconds until the fixed work was done (or the duration)", sim},
            {"throughput", "operations per simulated second (burns, transactions, ...)", sim},
            {"user_s", "CPU seconds in user mode, all CPUs", sim},
            {"sys_s", "CPU seconds in the kernel (locks, scans, faults, page copies), all CPUs", sim},
            {"task_sys_s",
             "the workload's own system time as `time` reports it (tick-based accounting: interrupts that "
             "arrive in user mode count as user time; kernel threads are not the workload's)",
             sim},
            {"task_user_s",
             "the workload's own user time as `time` reports it (its user mode and the interrupts that arrive "
             "then; a background command the timed one does not wait for is not counted)",
             sim},
            {"idle_pct", "idle share of all CPUs' time, %", sim},
            {"migrations_total", "task migrations, all distances", sim},
            {"page_migrations", "pages moved between nodes", sim},
            {"hinting_faults", "NUMA hinting faults taken", sim},
            {"lock_wait_s", "seconds spent waiting for runqueue locks, all CPUs", sim},
            {"local_access_pct", "memory accesses served by the local node, %", sim},
            {"hot_migration_pct", "migrations of a task that ran less than cache_hot_time ago, %", sim},
            {"refill_cost_ms", "stall refilling caches after migrations, summed over tasks, ms", sim},
        };
        for (int c = 1; c < kDistanceClassCount; ++c) {
            const std::string cls = distance_class_name(static_cast<DistanceClass>(c));
            m.push_back({"migrations." + cls, "task migrations between PUs of class " + cls, sim});
        }
        m.push_back({"migration_cost_ms", "migration profiler, model mode: cost of moving a cache-hot task, ms",
                     PublishedKind::Profile});
        return m;
    }();
    return metrics;
}

namespace {

const PublishedRow &row_by_label(const PublishedExperiment &e, const std::string &label)
{
    return *std::find_if(e.rows.begin(), e.rows.end(), [&](const PublishedRow &x) { return x.label == label; });
}

bool has_row(const PublishedExperiment &e, const std::string &label)
{
    return std::any_of(e.rows.begin(), e.rows.end(), [&](const PublishedRow &x) { return x.label == label; });
}

} // namespace

void resolve_relative_rows(PublishedExperiment &e, const std::string &exp_rel,
                           const std::vector<std::string> &row_relative)
{
    auto fail = [&](const std::string &field, const std::string &msg) { throw InputError(e.path, 0, field, msg); };
    for (size_t i = 0; i < e.rows.size(); ++i) {
        PublishedRow &row = e.rows[i];
        const std::string f = "rows[" + std::to_string(i) + "].relative_to";
        if (!row_relative[i].empty()) {
            if (!has_row(e, row_relative[i]))
                fail(f, "no row labelled '" + row_relative[i] + "'");
            row.relative_to = row_relative[i];
        } else if (!exp_rel.empty() && row_by_label(e, exp_rel).metric == row.metric) {
            row.relative_to = exp_rel;
        }
    }
    for (size_t i = 0; i < e.rows.size(); ++i) {
        const PublishedRow &row = e.rows[i];
        if (row.relative_to.empty() || row.relative_to == row.label)
            continue;
        const std::string f = "rows[" + std::to_string(i) + "].relative_to";
        const PublishedRow &ref = row_by_label(e, row.relative_to);
        if (ref.metric != row.metric)
            fail(f, "row '" + ref.label + "' has metric " + ref.metric + ", this row " + row.metric);
        if (!ref.relative_to.empty() && ref.relative_to != ref.label)
            fail(f, "row '" + ref.label + "' is itself relative to another row");
        if (ref.published == 0)
            fail(f, "row '" + ref.label + "' has a published value of 0: nothing can be relative to it");
    }
    std::set<std::string> metrics;
    for (const auto &row : e.rows)
        metrics.insert(row.metric);
    if (metrics.size() > 1)
        e.metric = "mixed";
}

void check_claims(const PublishedExperiment &e)
{
    std::map<std::string, double> published;
    for (const auto &row : e.rows)
        published[row.label] = row.published;
    for (size_t i = 0; i < e.claims.size(); ++i) {
        const PublishedClaim &c = e.claims[i];
        const std::string f = "direction.claims[" + std::to_string(i) + "]";
        std::set<std::string> claim_metrics;
        for (const auto &l : c.rows)
            claim_metrics.insert(row_by_label(e, l).metric);
        for (const auto &l : c.than)
            claim_metrics.insert(row_by_label(e, l).metric);
        if (claim_metrics.size() > 1)
            throw InputError(e.path, 0, f, "compares rows of different metrics");
        if (!claim_holds(c, published))
            throw InputError(e.path, 0, f, "does not hold on the published figures themselves: " + describe_claim(c));
    }
}

} // namespace schedscope
