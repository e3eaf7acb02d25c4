#pragma once
// The knobs of the `cfs` policy, spelled as Linux 3.6's sysctls
// (/proc/sys/kernel/sched_*). Values are the kernel's boot defaults before
// scaling (normalized_sysctl_*): at attach they are scaled by the CPU count
// as sched_tunable_scaling says (Linux 3.6 kernel/sched/fair.c:
// get_update_sysctl_factor()).

#include "engine/sim_types.h"
#include "params/param_table.h"
#include "params/params.h"

#include <string>
#include <vector>

namespace schedscope {

// Linux 3.6 boot defaults, before get_update_sysctl_factor() scales them
// (the values match). kernel/sched/fair.c: sysctl_sched_latency (6 ms) and
// sysctl_sched_min_granularity (0.75 ms) size the period and the slices in
// __sched_period() and sched_slice(); sysctl_sched_wakeup_granularity (1 ms)
// is wakeup_gran()'s base for wakeup preemption; sysctl_sched_migration_cost
// (0.5 ms) is task_hot()'s threshold and idle_balance()'s avg_idle cut-off.
// kernel/sched/core.c: sysctl_sched_nr_migrate (32) caps how many tasks one
// load_balance() pass looks at (env.loop_max = the smaller of it and the
// busiest queue's nr_running). Checked against 3.6-era fair.c text (the
// context lines of the 2012 NUMA patch mails), not a 3.6 tree.
inline constexpr SimTime kCfsLatencyNs = 6'000'000;           // sysctl_sched_latency
inline constexpr SimTime kCfsMinGranularityNs = 750'000;      // sysctl_sched_min_granularity
inline constexpr SimTime kCfsWakeupGranularityNs = 1'000'000; // sysctl_sched_wakeup_granularity
inline constexpr SimTime kCfsMigrationCostNs = 500'000;       // sysctl_sched_migration_cost (task_hot, idle_balance)
inline constexpr int kCfsNrMigrate = 32;                      // sysctl_sched_nr_migrate (kernel/sched/core.c)

struct CfsParams {
    SimTime sched_latency_ns = kCfsLatencyNs;
    SimTime sched_min_granularity_ns = kCfsMinGranularityNs;
    SimTime sched_wakeup_granularity_ns = kCfsWakeupGranularityNs;
    SimTime sched_migration_cost_ns = kCfsMigrationCostNs;
    std::string sched_tunable_scaling = "log"; // none | log | linear
    int sched_nr_migrate = kCfsNrMigrate;
    // CONFIG_NO_HZ: an idle CPU stops its tick, and one idle CPU balances
    // for the others when a busy one kicks it (cfs_balancer.cpp). On, as
    // x86_64_defconfig sets it.
    std::string nohz = "on"; // on | off
    std::string source;

    // The knobs, declared once: parsing, params(), list and docs read it.
    static const ParamTable<CfsParams> &table();
    void add_to(ParamMap &out) const { table().write(*this, out); }
    // Linux 3.6 kernel/sched/fair.c: get_update_sysctl_factor(): 1, 1 +
    // ilog2(cpus) or cpus, with the CPU count capped at 8.
    int scaling_factor(int ncpus) const;
};

} // namespace schedscope
