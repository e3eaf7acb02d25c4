#pragma once
// The scheduling domains of Linux 3.6 (kernel/sched/core.c:
// build_sched_domains() over default_topology[] plus sched_init_numa()'s
// levels), built from the loaded topology: SMT (the core's PUs), MC (the
// PUs sharing the last-level cache), CPU (the NUMA node), then one NUMA
// level per SLIT distance. Each level has its 3.6 initialiser's tunables
// (include/linux/topology.h SD_SIBLING_INIT, SD_MC_INIT, SD_CPU_INIT;
// core.c sd_numa_init()) and the per-CPU balancing state the balancer keeps.

#include "engine/sim_types.h"
#include "policies/sched_domain.h"
#include "topology/topology.h"

#include <memory>
#include <string>
#include <vector>

namespace schedscope {

// Linux 3.6 include/linux/sched.h SD_* flags (only those the model uses).
enum CfsDomainFlag : unsigned {
    kCfsLoadBalance = 1u << 0,       // SD_LOAD_BALANCE
    kCfsBalanceNewIdle = 1u << 1,    // SD_BALANCE_NEWIDLE
    kCfsBalanceExec = 1u << 2,       // SD_BALANCE_EXEC
    kCfsBalanceFork = 1u << 3,       // SD_BALANCE_FORK
    kCfsWakeAffine = 1u << 4,        // SD_WAKE_AFFINE
    kCfsShareCpuPower = 1u << 5,     // SD_SHARE_CPUPOWER (SMT siblings)
    kCfsSharePkgResources = 1u << 6, // SD_SHARE_PKG_RESOURCES (a shared cache)
    kCfsSerialize = 1u << 7,         // SD_SERIALIZE
    kCfsPreferSibling = 1u << 8,     // SD_PREFER_SIBLING
};

// Linux 3.6 include/linux/topology.h SD_SIBLING_INIT: smt_gain, the power
// of a whole SMT core against SCHED_POWER_SCALE (1024): 15 % more than one
// thread alone.
inline constexpr int kSmtGain = 1178;
inline constexpr int kSchedPowerScale = 1024; // SCHED_POWER_SCALE
// Linux 3.6 include/linux/topology.h RECLAIM_DISTANCE: NUMA levels further
// than this lose fork/exec balancing and wake-affine (sd_local_flags()).
inline constexpr int kReclaimDistance = 30;

struct CfsDomain {
    std::string level; // SMT, MC, CPU, NUMA (the kernel's SIBLING, MC, CPU, NUMA)
    CpuSet span;
    int span_weight = 0;
    std::shared_ptr<const SchedDomain::Groups> groups; // the child level's spans
    std::vector<int> group_power;                      // per group: sum of its PUs' cpu_power
    int own_group = -1;
    unsigned flags = 0;
    int min_interval_ms = 1, max_interval_ms = 4, busy_factor = 64, imbalance_pct = 125;
    int cache_nice_tries = 0;
    int busy_idx = 0, idle_idx = 0, newidle_idx = 0, wake_idx = 0, forkexec_idx = 0;

    // Per-CPU balancing state.
    int balance_interval_ms = 1;
    SimTime last_balance_ns = 0;
    int nr_balance_failed = 0;

    bool has(CfsDomainFlag f) const { return (flags & f) != 0; }
    int ngroups() const { return static_cast<int>(groups->sizes.size()); }
    std::string describe() const;
};

// domains[cpu] = that CPU's levels, lowest first, degenerate ones removed
// (core.c: sd_degenerate(), sd_parent_degenerate()).
std::vector<std::vector<CfsDomain>> build_cfs_domains(const Topology &topo);

// Per PU: its cpu_power (core.c/fair.c update_cpu_power(): an SMT sibling
// gets smt_gain / siblings, others SCHED_POWER_SCALE).
std::vector<int> cfs_cpu_power(const Topology &topo);

} // namespace schedscope
