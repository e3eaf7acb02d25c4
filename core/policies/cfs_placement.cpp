// Where the `cfs` policy puts woken and new tasks, as Linux 3.6's
// select_task_rq_fair() does (kernel/sched/fair.c): wake_affine and
// select_idle_sibling on wakeup, find_idlest_group / find_idlest_cpu for
// fork and exec balancing.

#include "policies/cfs_balancer.h"

#include "engine/simulation.h"
#include "policies/policy_text.h"

namespace schedscope {

// Linux 3.6 kernel/sched/fair.c: wake_affine() for a wakeup that is not
// sync (the engine's are not): the waker's CPU takes the wakee if its load
// plus the wakee's stays within half the domain's imbalance_pct of the
// previous CPU's load (both scaled by the other's cpu_power), or if it is
// no busier than prev and both together carry less than one task's load.
bool CfsBalancer::wake_affine(PolicyView sim, const CfsDomain &sd, TaskId t, int this_cpu, int prev_cpu,
                              std::string *why) const
{
    const int idx = sd.wake_idx;
    const std::uint64_t load = source_load(sim, prev_cpu, idx);
    const std::uint64_t this_load = target_load(sim, this_cpu, idx);
    const auto w = static_cast<std::uint64_t>(weight(sim, t));
    bool balanced = true;
    if (this_load > 0) {
        const std::uint64_t this_eff = 100ull * static_cast<std::uint64_t>(cpu_power_[static_cast<size_t>(prev_cpu)]) *
                                       (this_load + w);
        const std::uint64_t prev_eff = static_cast<std::uint64_t>(100 + (sd.imbalance_pct - 100) / 2) *
                                       static_cast<std::uint64_t>(cpu_power_[static_cast<size_t>(this_cpu)]) * load;
        balanced = this_eff <= prev_eff;
    }
    const std::uint64_t nr = static_cast<std::uint64_t>(sim.nr_running(this_cpu));
    const std::uint64_t tl_per_task = nr > 0 ? weighted_cpuload(sim, this_cpu) / nr : 0; // cpu_avg_load_per_task
    const bool ok = balanced || (this_load <= load && this_load + target_load(sim, prev_cpu, idx) <= tl_per_task);
    if (ok && why)
        *why = task_text(t) + " woken near the waker's " + cpu_text(this_cpu) + " (wake_affine, " + sd.level +
               " level): load " + std::to_string(this_load) + " + " + std::to_string(w) + " within " +
               std::to_string(100 + (sd.imbalance_pct - 100) / 2) + "% of " + cpu_text(prev_cpu) + "'s " +
               std::to_string(load);
    return ok;
}

// Linux 3.6 kernel/sched/fair.c: select_idle_sibling(): the target if it is
// idle and is the waker's or the previous CPU; else, from the last-level-
// cache domain of the target down, the first group all of whose CPUs are
// idle (a whole idle core before an idle sibling thread).
int CfsBalancer::select_idle_sibling(PolicyView sim, TaskId t, int target, int this_cpu, int prev_cpu,
                                     std::string *why) const
{
    if (target == this_cpu && idle_cpu(sim, this_cpu))
        return this_cpu;
    if (target == prev_cpu && idle_cpu(sim, prev_cpu))
        return prev_cpu;
    const CpuSet &allowed = sim.task(t).cpus_allowed;
    for (int k = llc_level_[static_cast<size_t>(target)]; k >= 0; --k) {
        const CfsDomain &sd = domains_[static_cast<size_t>(target)][static_cast<size_t>(k)];
        const SchedDomain::Groups &g = *sd.groups;
        for (size_t gi = 0; gi < g.sets.size(); ++gi) {
            bool all_idle = true, any_allowed = false;
            int first = -1;
            for (int m = g.begin[gi]; m < g.begin[gi + 1]; ++m) {
                const int c = g.members[static_cast<size_t>(m)];
                if (!idle_cpu(sim, c)) {
                    all_idle = false;
                    break;
                }
                if (allowed.test(c)) {
                    any_allowed = true;
                    if (first < 0)
                        first = c;
                }
            }
            if (all_idle && any_allowed) {
                if (why && first != target)
                    *why = task_text(t) + " woken on idle " + cpu_text(first) + " (select_idle_sibling, " + sd.level +
                           " group {" + g.sets[gi].to_list_string() + "} idle, near " + cpu_text(target) + ")";
                return first;
            }
        }
    }
    return target;
}

// Linux 3.6 kernel/sched/fair.c: select_task_rq_fair() for a wakeup
// (SD_BALANCE_WAKE is set on no level in 3.6, so only the affine path can
// move the task): the lowest level of the waker's CPU with SD_WAKE_AFFINE
// that spans the previous CPU decides with wake_affine(); then
// select_idle_sibling() around the chosen CPU. No such level: prev.
//
// A previous CPU the task may no longer use: Linux 3.6 kernel/sched/core.c
// select_task_rq() first runs select_task_rq_fair() as usual and only if the
// CPU it returns is not allowed (or not online) calls select_fallback_rq():
// an allowed, active CPU on the previous CPU's node, else the first allowed
// one, with no load comparison. The model differs: it skips the wakeup path
// and places the task as at fork (select_cpu_fork(), the idlest group and
// CPU among the allowed ones).
int CfsBalancer::select_cpu_wakeup(PolicyContext sim, TaskId t, int waker_cpu)
{
    const Task &task = sim.task(t);
    const int prev = task.cpu;
    if (prev < 0 || !task.cpus_allowed.test(prev))
        return select_cpu_fork(sim, t); // select_fallback_rq(): somewhere allowed
    if (task.cpus_allowed.count() == 1)
        return prev; // nr_cpus_allowed == 1
    const int cpu = waker_cpu >= 0 ? waker_cpu : prev;
    const CfsDomain *affine = nullptr;
    if (task.cpus_allowed.test(cpu))
        for (const CfsDomain &sd : domains_[static_cast<size_t>(cpu)])
            if (sd.has(kCfsWakeAffine) && sd.span.test(prev)) {
                affine = &sd;
                break;
            }
    if (!affine)
        return prev;
    std::string why;
    int target = prev;
    if (cpu == prev || wake_affine(sim, *affine, t, cpu, prev, &why))
        target = cpu;
    const int chosen = select_idle_sibling(sim, t, target, cpu, prev, &why);
    if (chosen != prev)
        sim.log(DecisionKind::Wakeup, t, prev, chosen,
                why.empty() ? task_text(t) + " woken on " + cpu_text(chosen) : why);
    return chosen;
}

// Linux 3.6 kernel/sched/fair.c: find_idlest_group(): the group with the
// least load per cpu_power (target_load for others, source_load for ours),
// taken only if ours is more than half imbalance_pct busier.
int CfsBalancer::find_idlest_group(PolicyView sim, const CfsDomain &sd, const CpuSet &allowed, int this_cpu,
                                   int load_idx) const
{
    const SchedDomain::Groups &g = *sd.groups;
    std::uint64_t min_load = ~0ull, this_load = 0;
    int idlest = -1;
    const int imbalance = 100 + (sd.imbalance_pct - 100) / 2;
    for (size_t gi = 0; gi < g.sets.size(); ++gi) {
        if (!g.sets[gi].intersects(allowed))
            continue;
        const bool local = g.sets[gi].test(this_cpu);
        std::uint64_t avg = 0;
        for (int m = g.begin[gi]; m < g.begin[gi + 1]; ++m) {
            const int c = g.members[static_cast<size_t>(m)];
            avg += local ? source_load(sim, c, load_idx) : target_load(sim, c, load_idx);
        }
        avg = avg * kSchedPowerScale / static_cast<std::uint64_t>(sd.group_power[gi]);
        if (local)
            this_load = avg;
        else if (avg < min_load) {
            min_load = avg;
            idlest = static_cast<int>(gi);
        }
    }
    if (idlest < 0 || 100 * this_load < static_cast<std::uint64_t>(imbalance) * min_load)
        return -1;
    return idlest;
}

// Linux 3.6 kernel/sched/fair.c: find_idlest_cpu(): least weighted load,
// this CPU winning ties.
int CfsBalancer::find_idlest_cpu(PolicyView sim, const CpuSet &group, const CpuSet &allowed, int this_cpu) const
{
    std::uint64_t min_load = ~0ull;
    int idlest = -1;
    for (int c = group.first(); c >= 0; c = group.next(c)) {
        if (!allowed.test(c))
            continue;
        const std::uint64_t load = weighted_cpuload(sim, c);
        if (load < min_load || (load == min_load && c == this_cpu)) {
            min_load = load;
            idlest = c;
        }
    }
    return idlest;
}

// Linux 3.6 kernel/sched/fair.c: select_task_rq_fair() with SD_BALANCE_FORK
// (and SD_BALANCE_EXEC, the same walk): from the highest level of the
// forking CPU with the flag, the idlest group, then its idlest CPU, then
// again from that CPU's levels below that size.
//
// Where the walk starts is a modelling choice. In 3.6, wake_up_new_task()
// (kernel/sched/core.c) runs on the parent's CPU and select_task_rq_fair()
// starts from smp_processor_id(), so the walk starts from the forking
// parent's domains. The engine's tasks have no parent, so the model starts
// from the task's first allowed CPU. The start matters through which group
// counts as the local one at each level (find_idlest_group() keeps it
// unless another is lighter by more than half the imbalance_pct) and
// through find_idlest_cpu()'s ties.
//
// fork_node is a NUMA policy's narrowing, used by sched-numa home=process:
// sched/numa's March 2012 posting ([RFC][PATCH 13/26] "sched: Implement
// home-node awareness", 16 March 2012), select_task_rq_fair() with NUMA_BIAS
// (on by default) starts a fork or exec from a CPU of the task's home node
// and its node-sized domain (sd_node), so the idlest-group walk stays in the
// home node. The model gets the same effect by restricting the allowed CPUs
// to the home node's (when any are allowed). The October 2012 posting
// ([PATCH 23/31], 25 October 2012) has a similar branch behind
// NUMA_TTWU_BIAS, off by default; home=task returns no fork node, as a new
// task there has no home.
int CfsBalancer::select_cpu_fork(PolicyContext sim, TaskId t)
{
    CpuSet allowed = sim.task(t).cpus_allowed;
    if (const int node = fork_node(sim, t); node != kNoNode) {
        CpuSet on_node = sim.topology().pus_of_node(node);
        on_node &= allowed;
        if (!on_node.empty())
            allowed = on_node;
    }
    int cpu = allowed.first();
    int new_cpu = cpu;
    const auto highest_with_flag = [&](int c, int below_weight) {
        int found = -1;
        const auto &chain = domains_[static_cast<size_t>(c)];
        for (size_t k = 0; k < chain.size(); ++k) {
            if (below_weight > 0 && chain[k].span_weight >= below_weight)
                break;
            if (chain[k].has(kCfsBalanceFork))
                found = static_cast<int>(k);
        }
        return found;
    };
    int k = highest_with_flag(cpu, 0);
    while (k >= 0) {
        const CfsDomain &sd = domains_[static_cast<size_t>(cpu)][static_cast<size_t>(k)];
        if (!sd.has(kCfsBalanceFork)) {
            --k;
            continue;
        }
        const int group = find_idlest_group(sim, sd, allowed, cpu, sd.forkexec_idx);
        if (group < 0) {
            --k;
            continue;
        }
        new_cpu = find_idlest_cpu(sim, sd.groups->sets[static_cast<size_t>(group)], allowed, cpu);
        if (new_cpu < 0 || new_cpu == cpu) {
            new_cpu = new_cpu < 0 ? cpu : new_cpu;
            --k;
            continue;
        }
        const int weight = sd.span_weight;
        cpu = new_cpu;
        k = highest_with_flag(cpu, weight);
    }
    if (!allowed.test(new_cpu)) // the forking CPU itself when no level had anything better
        new_cpu = allowed.first();
    return new_cpu;
}

} // namespace schedscope
