// The load-balancer side of sched/numa as Peter Zijlstra posted it on 25
// October 2012 ([PATCH 23/31] "sched, numa, mm: Implement home-node
// awareness", linux-mm and linux-kernel, with the feature defaults the
// series leaves: NUMA_HOT, NUMA_PULL and NUMA_PULL_BIAS on, NUMA_TTWU_BIAS
// and NUMA_TTWU_TO off), for CfsBalancer under NumaPull::OffnodeFirst
// (numa_pull.h). A task's home node is the policy's preferred_node(); a
// task with none is neither on nor off its node (the kernel keeps it on
// cfs_tasks and out of the on/off-node counts). The call sites are in
// cfs_balancer.cpp: move_tasks() and active_load_balance_cpu_stop() walk
// the off-node tasks first, can_migrate_task() adds task_numa_hot(), and
// load_balance() asks check_numa_busiest_group() where find_busiest_group()
// would give up at out_balanced.

#include "policies/cfs_balancer.h"

#include "engine/simulation.h"

#include <algorithm>

namespace schedscope {

namespace {
using u64 = std::uint64_t;
} // namespace

// sched/numa, 25 October 2012 posting: account_numa_enqueue(): a task
// whose home is set and is not the node of its CPU goes on the runqueue's
// offnode_tasks list instead of cfs_tasks.
bool CfsBalancer::offnode(PolicyView sim, TaskId t, int cpu) const
{
    const int home = preferred_node(sim, t);
    return home != kNoNode && sim.topology().node_of_pu(cpu) != home;
}

// sched/numa, 25 October 2012 posting: task_numa_hot(): with a home, a
// move counts as hot unless the destination's node is nearer the home
// than the source's by node_distance(); a task with no home never.
bool CfsBalancer::task_numa_hot(PolicyView sim, TaskId t, int from_cpu, int to_cpu) const
{
    const int home = preferred_node(sim, t);
    if (home == kNoNode)
        return false;
    const Topology &topo = sim.topology();
    const int from_dist = topo.node_distance(topo.node_of_pu(from_cpu), home);
    const int to_dist = topo.node_distance(topo.node_of_pu(to_cpu), home);
    return to_dist >= from_dist;
}

// sched/numa, 25 October 2012 posting: the runqueue's two lists as
// move_tasks() and move_one_task() walk them with NUMA_PULL: offnode_tasks,
// then cfs_tasks. Each list keeps the order the model gives the runqueue.
size_t CfsBalancer::offnode_first(PolicyView sim, int cpu, std::vector<TaskId> &order) const
{
    const auto split = std::stable_partition(order.begin(), order.end(),
                                             [&](TaskId t) { return offnode(sim, t, cpu); });
    return static_cast<size_t>(split - order.begin());
}

// sched/numa, 25 October 2012 posting: a runqueue's onnode_running,
// offnode_running and offnode_weight (account_numa_enqueue(),
// account_numa_dequeue()), over its running and queued tasks; the weight
// is the task's load (task_h_load() without groups).
CfsBalancer::NumaRq CfsBalancer::numa_rq(PolicyView sim, int cpu) const
{
    NumaRq r;
    const int node = sim.topology().node_of_pu(cpu);
    const auto count = [&](TaskId t) {
        const int home = preferred_node(sim, t);
        if (home == kNoNode)
            return;
        if (home == node) {
            ++r.onnode_running;
            return;
        }
        ++r.offnode_running;
        r.offnode_weight += static_cast<u64>(weight(sim, t));
    };
    const Runqueue &rq = sim.rq(cpu);
    if (rq.current >= 0)
        count(rq.current);
    for (TaskId t : rq.queue)
        count(t);
    return r;
}

// sched/numa, 25 October 2012 posting: update_sg_numa_stats() summed per
// group and update_sd_numa_stats(), on a level with SD_NUMA (the levels
// sd_numa_init() builds, "NUMA" here): the local group's counts, and each
// other group with off-node tasks as a candidate for the pull, in the order
// the groups are walked (the local one first).
void CfsBalancer::update_sd_numa_stats(PolicyView sim, const CfsDomain &sd, const CpuSet &excluded,
                                       DomainStats &sds) const
{
    const SchedDomain::Groups &groups = *sd.groups;
    const int ngroups = static_cast<int>(groups.sizes.size());
    sds.numa_level = true;
    for (int step = 0; step < ngroups; ++step) {
        const int gi = (sd.own_group + step) % ngroups;
        NumaRq g;
        for (int m = groups.begin[static_cast<size_t>(gi)]; m < groups.begin[static_cast<size_t>(gi) + 1]; ++m) {
            const int c = groups.members[static_cast<size_t>(m)];
            if (excluded.test(c))
                continue;
            const NumaRq r = numa_rq(sim, c);
            g.offnode_running += r.offnode_running;
            g.onnode_running += r.onnode_running;
            g.offnode_weight += r.offnode_weight;
        }
        if (gi == sd.own_group) {
            sds.this_offnode_running = g.offnode_running;
            sds.this_onnode_running = g.onnode_running;
        } else if (g.offnode_running > 0) {
            const u64 size = static_cast<u64>(std::max(1, groups.sizes[static_cast<size_t>(gi)]));
            sds.numa_groups.push_back(
                {gi, g.offnode_weight, g.offnode_running, std::max<u64>(1, static_cast<u64>(sd.span_weight) / size)});
        }
    }
}

// sched/numa, 25 October 2012 posting: pick_numa_rand(): true one time in
// n (get_random_int() % n == 0), from the policy's own stream.
bool CfsBalancer::pick_numa_rand(u64 n) { return numa_rng_.below(n) == 0; }

// sched/numa, 25 October 2012 posting: check_numa_busiest_group() with
// NUMA_PULL_BIAS (on): a level found balanced still pulls, if some other
// group runs a task off its home node, and only if our group has a task to
// trade for it, one off its node or one with no home (the group's
// nr_running less its on- and off-node counts). The source group is the
// first candidate, replaced by each later one with a 1-in-(span weight /
// group weight) chance (update_sd_numa_stats()); the imbalance is that
// group's mean off-node task load.
bool CfsBalancer::check_numa_busiest_group(DomainStats &sds, long *imbalance)
{
    if (!sds.numa_level || sds.numa_groups.empty())
        return false;
    const u64 homeless = sds.this_nr_running -
                         std::min(sds.this_nr_running, sds.this_onnode_running + sds.this_offnode_running);
    if (sds.this_offnode_running == 0 && homeless == 0)
        return false;
    const DomainStats::NumaGroup *chosen = nullptr;
    for (const DomainStats::NumaGroup &g : sds.numa_groups)
        if (!chosen || pick_numa_rand(g.rand_n))
            chosen = &g;
    *imbalance = static_cast<long>(chosen->offnode_weight / chosen->offnode_running);
    sds.busiest = chosen->group;
    return true;
}

// sched/numa, 25 October 2012 posting: find_busiest_numa_queue(): of the
// group's CPUs (those not left out as all pinned) running an off-node task,
// the first, replaced by each later one with a 1-in-(group weight) chance;
// -1 if none.
int CfsBalancer::find_busiest_numa_queue(PolicyView sim, const CfsDomain &sd, int group, const CpuSet &excluded)
{
    const SchedDomain::Groups &g = *sd.groups;
    const u64 weight = static_cast<u64>(std::max(1, g.sizes[static_cast<size_t>(group)]));
    int busiest = -1;
    for (int m = g.begin[static_cast<size_t>(group)]; m < g.begin[static_cast<size_t>(group) + 1]; ++m) {
        const int c = g.members[static_cast<size_t>(m)];
        if (excluded.test(c) || numa_rq(sim, c).offnode_running == 0)
            continue;
        if (busiest < 0 || pick_numa_rand(weight))
            busiest = c;
    }
    return busiest;
}

} // namespace schedscope
