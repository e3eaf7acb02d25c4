#include "policies/cfs_params.h"

#include <algorithm>
#include <bit>

namespace schedscope {

const ParamTable<CfsParams> &CfsParams::table()
{
    constexpr std::int64_t kMaxNs = 10'000'000'000; // 10 s: any sane setting
    static const ParamTable<CfsParams> t = [] {
        ParamTable<CfsParams> t;
        t.integer("sched_latency_ns", &CfsParams::sched_latency_ns, 100'000, kMaxNs, "ns",
                  "targeted preemption latency: every runnable task runs once per period (before scaling)");
        t.integer("sched_min_granularity_ns", &CfsParams::sched_min_granularity_ns, 100'000, kMaxNs, "ns",
                  "shortest slice; with more than latency/min_granularity tasks the period stretches (before "
                  "scaling)");
        t.integer("sched_wakeup_granularity_ns", &CfsParams::sched_wakeup_granularity_ns, 0, kMaxNs, "ns",
                  "a woken task preempts only if its vruntime is this much behind the running one's (before "
                  "scaling)");
        t.integer("sched_migration_cost_ns", &CfsParams::sched_migration_cost_ns, 0, kMaxNs, "ns",
                  "a task that ran less than this ago is cache hot; a CPU idle on average less than this skips "
                  "new-idle balancing");
        t.choice("sched_tunable_scaling", &CfsParams::sched_tunable_scaling, {"none", "log", "linear"},
                 "scaling of the three times above by CPU count (max 8): none, log (1+log2), linear");
        t.integer("sched_nr_migrate", &CfsParams::sched_nr_migrate, 1, 1'000'000, "tasks",
                  "tasks a balancing pass looks at, at most");
        t.choice("nohz", &CfsParams::nohz, {"on", "off"},
                 "CONFIG_NO_HZ: idle CPUs stop their tick and are balanced by one of them when a busy CPU "
                 "kicks it (on), or every CPU ticks and balances for itself (off)");
        // Kept for the messages of checks made at attach.
        t.check([](CfsParams &c, const ParamMap &, const std::string &source) { c.source = source; });
        return t;
    }();
    return t;
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
