#pragma once
// One level of a CPU's scheduling-domain hierarchy (Linux 2.6, 2004), built
// from the loaded topology: SMT siblings, cores sharing the last-level cache,
// the package, the NUMA node, then NUMA levels by SLIT distance, as they
// exist. Each level has the tunables of its kernel initialiser and the
// per-CPU balancing state the balancer keeps in it.

#include "engine/sim_types.h"
#include "policies/balancer_params.h"
#include "topology/topology.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace schedscope {

// SCHED_LOAD_SCALE of Linux 2.6.9 (include/linux/sched.h): one runnable
// task's load, and one CPU's power.
inline constexpr long kLoadScale = 128;

enum SchedDomainFlag : unsigned {
    kSdBalanceNewIdle = 1u << 0, // balance when a CPU runs out of work
    kSdBalanceExec = 1u << 1,    // spread new tasks over this level's groups
    kSdWakeAffine = 1u << 2,     // a wakeup may pull the wakee to the waker's CPU
    kSdWakeIdle = 1u << 3,       // a wakeup may go to an idle CPU of this level
    kSdWakeBalance = 1u << 4,    // a wakeup may pull the wakee to balance load (2.6.9 SD_WAKE_BALANCE)
};

struct SchedDomain {
    std::string level; // "SMT", "MC", "package", "node", "NUMA" (profiler level names)
    CpuSet span;
    // The child level's spans (single PUs at the lowest level) with their
    // sizes. Shared by every CPU of the span: on a 1024-CPU machine a copy
    // per CPU would cost tens of MiB and make every checkpoint slow.
    struct Groups {
        std::vector<CpuSet> sets;
        std::vector<int> sizes;
        // The same sets as one list of PUs, group after group: group g is
        // members[begin[g]] .. members[begin[g + 1]] (begin has one entry
        // more than there are groups). The balancer sums the load of every
        // group on each pass; one flat list is one indirection, where a
        // list per group was two, and walking a list beats walking the bits.
        std::vector<int> members;
        std::vector<int> begin;
        int uniform_size = 0; // the size of every group when they are all alike, else 0
        // Appends a group: its set, size and members.
        void add(CpuSet set)
        {
            if (begin.empty())
                begin.push_back(0);
            sizes.push_back(set.count());
            for (int m : set.members())
                members.push_back(m);
            begin.push_back(static_cast<int>(members.size()));
            sets.push_back(std::move(set));
        }
        // After the last add(): uniform_size.
        void close()
        {
            if (begin.empty())
                begin.push_back(0); // no group: begin still has its one entry more
            if (!sizes.empty() && std::all_of(sizes.begin(), sizes.end(), [&](int n) { return n == sizes.front(); }))
                uniform_size = sizes.front();
        }
        // Each group's cpu_power in SCHED_LOAD_SCALE units (128 = one CPU).
        // Linux 2.6.9 kernel/sched.c: arch_init_sched_domains() gives a
        // group of SMT siblings SCHED_LOAD_SCALE plus a tenth of it per
        // extra sibling, a lone CPU SCHED_LOAD_SCALE, and a node group the
        // sum of its packages' powers; here a group sums its cores so.
        std::vector<long> power;
    };
    std::shared_ptr<const Groups> shared_groups;
    int own_group = -1; // the group holding the CPU this domain belongs to
    const std::vector<CpuSet> &groups() const { return shared_groups->sets; }
    int group_size(int g) const { return shared_groups->sizes[static_cast<size_t>(g)]; }
    double min_interval_ms = 1;
    double max_interval_ms = 4;
    int busy_factor = 64;
    int imbalance_pct = 125;
    int cache_nice_tries = 1;
    double cache_hot_time_ms = kDefaultCacheHotTimeMs;
    unsigned flags = 0;

    // Per-CPU balancing state.
    double balance_interval_ms = 1;
    SimTime last_balance_ns = 0;
    int nr_balance_failed = 0;

    bool has(SchedDomainFlag f) const { return (flags & f) != 0; }
    int group_of(int cpu) const;  // index into groups(), or -1
    std::string describe() const; // one line for the explain view
};

// The set of one PU.
inline CpuSet single_pu(int pu)
{
    CpuSet s;
    s.set(pu);
    return s;
}

// The PUs of the nodes at most SLIT distance `d` from `pu`'s node: the span
// of the NUMA level of that distance (one level per distance, as Linux
// 3.6's sched_init_numa() builds them).
inline CpuSet pus_within_distance(const Topology &topo, int pu, int d)
{
    CpuSet s;
    const int home = topo.node_of_pu(pu);
    for (int n = 0; n < topo.numa_count(); ++n)
        if (topo.node_distance(home, n) <= d)
            s |= topo.pus_of_node(n);
    return s;
}

// A domain's groups as build_sched_groups() makes them (Linux 2.6.9
// kernel/sched.c, 3.6 kernel/sched/core.c): for each CPU of `span` in
// order that no group holds yet, the child level's span around it
// (`child_span(q)`), cut to `span`. With `disjoint`, a CPU an earlier group
// holds is cut from later ones too (3.6's overlapping NUMA groups of
// build_overlap_sched_groups(), each CPU kept in the first that covers it).
// `each(groups, group)` sees every group before it is added.
template <class ChildSpan, class Each>
std::shared_ptr<SchedDomain::Groups> build_sched_groups(const CpuSet &span, ChildSpan &&child_span, bool disjoint,
                                                        Each &&each)
{
    auto g = std::make_shared<SchedDomain::Groups>();
    CpuSet covered;
    for (int q = span.first(); q >= 0; q = span.next(q)) {
        if (covered.test(q))
            continue;
        CpuSet grp = child_span(q);
        grp &= span;
        if (disjoint)
            for (int m = covered.first(); m >= 0; m = covered.next(m))
                grp.reset(m);
        covered |= grp;
        each(*g, grp);
        g->add(std::move(grp));
    }
    g->close();
    return g;
}

// domains[cpu] = that CPU's levels, lowest first. Tunables from the kernel
// initialisers, cache-hot times and cache_nice_tries from `params`.
std::vector<std::vector<SchedDomain>> build_sched_domains(const Topology &topo, const BalancerParams &params);

} // namespace schedscope
