#include "policies/cfs_params.h"

#include <algorithm>
#include <bit>

namespace schedscope {

std::vector<ParamInfo> CfsParams::infos()
{
    return {
        {"sched_latency_ns", std::to_string(kCfsLatencyNs),
         "targeted preemption latency: every runnable task runs once per period (before scaling)"},
        {"sched_min_granularity_ns", std::to_string(kCfsMinGranularityNs),
         "shortest slice; with more than latency/min_granularity tasks the period stretches (before scaling)"},
        {"sched_wakeup_granularity_ns", std::to_string(kCfsWakeupGranularityNs),
         "a woken task preempts only if its vruntime is this much behind the running one's (before scaling)"},
        {"sched_migration_cost_ns", std::to_string(kCfsMigrationCostNs),
         "a task that ran less than this ago is cache hot; a CPU idle on average less than this skips new-idle "
         "balancing"},
        {"sched_tunable_scaling", "log",
         "scaling of the three times above by CPU count (max 8): none, log (1+log2), linear"},
        {"sched_nr_migrate", std::to_string(kCfsNrMigrate), "tasks a balancing pass looks at, at most"},
    };
}

CfsParams CfsParams::parse(const ParamMap &p, const std::string &source)
{
    CfsParams c;
    c.source = source;
    constexpr std::int64_t kMaxNs = 10'000'000'000; // 10 s: any sane setting
    c.sched_latency_ns = param_int(p, "sched_latency_ns", kCfsLatencyNs, 100'000, kMaxNs, source);
    c.sched_min_granularity_ns = param_int(p, "sched_min_granularity_ns", kCfsMinGranularityNs, 100'000, kMaxNs,
                                           source);
    c.sched_wakeup_granularity_ns = param_int(p, "sched_wakeup_granularity_ns", kCfsWakeupGranularityNs, 0, kMaxNs,
                                              source);
    c.sched_migration_cost_ns = param_int(p, "sched_migration_cost_ns", kCfsMigrationCostNs, 0, kMaxNs, source);
    c.sched_tunable_scaling = param_choice(p, "sched_tunable_scaling", "log", {"none", "log", "linear"}, source);
    c.sched_nr_migrate = static_cast<int>(param_int(p, "sched_nr_migrate", kCfsNrMigrate, 1, 1'000'000, source));
    return c;
}

void CfsParams::add_to(ParamMap &out) const
{
    out["sched_latency_ns"] = std::to_string(sched_latency_ns);
    out["sched_min_granularity_ns"] = std::to_string(sched_min_granularity_ns);
    out["sched_wakeup_granularity_ns"] = std::to_string(sched_wakeup_granularity_ns);
    out["sched_migration_cost_ns"] = std::to_string(sched_migration_cost_ns);
    out["sched_tunable_scaling"] = sched_tunable_scaling;
    out["sched_nr_migrate"] = std::to_string(sched_nr_migrate);
}

int CfsParams::scaling_factor(int ncpus) const
{
    const int cpus = std::clamp(ncpus, 1, 8);
    if (sched_tunable_scaling == "none")
        return 1;
    if (sched_tunable_scaling == "linear")
        return cpus;
    return 1 + std::bit_width(static_cast<unsigned>(cpus)) - 1; // 1 + ilog2(cpus)
}

} // namespace schedscope
