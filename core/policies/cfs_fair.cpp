// The fair class of Linux 3.6 (kernel/sched/fair.c) as the `cfs` policy
// runs it: vruntime ordering, slices, preemption, placement of woken and
// new tasks. The balancer is in cfs_balancer.cpp.

#include "policies/cfs_balancer.h"

#include "engine/nice.h"
#include "engine/simulation.h"
#include "policies/policy_text.h"

#include <algorithm>

namespace schedscope {

void CfsBalancer::attach(Simulation &sim)
{
    const Topology &topo = sim.topology();
    const int npu = topo.pu_count();
    // Linux 3.6 kernel/sched/fair.c: update_sysctl(): the three times
    // scaled by get_update_sysctl_factor(); sched_nr_latency kept at
    // latency / min_granularity (sched_proc_update_handler(), rounded up).
    const int factor = cp_.scaling_factor(npu);
    latency_ns_ = cp_.sched_latency_ns * factor;
    min_gran_ns_ = cp_.sched_min_granularity_ns * factor;
    wakeup_gran_ns_ = cp_.sched_wakeup_granularity_ns * factor;
    nr_latency_ = static_cast<int>((latency_ns_ + min_gran_ns_ - 1) / min_gran_ns_);
    // Linux 3.6 kernel/sched/fair.c: update_max_interval(): HZ * cpus / 10
    // jiffies, in ms at HZ=1000.
    max_lb_interval_ms_ = std::max<SimTime>(1, SimTime{npu} * 1000 / 10);
    domains_ = build_cfs_domains(topo);
    cpu_power_ = cfs_cpu_power(topo);
    // Linux 3.6 kernel/sched/core.c: update_top_cache_domain(): sd_llc is the
    // highest level with SD_SHARE_PKG_RESOURCES.
    llc_level_.assign(static_cast<size_t>(npu), -1);
    for (int cpu = 0; cpu < npu; ++cpu)
        for (size_t k = 0; k < domains_[static_cast<size_t>(cpu)].size(); ++k)
            if (domains_[static_cast<size_t>(cpu)][k].has(kCfsSharePkgResources))
                llc_level_[static_cast<size_t>(cpu)] = static_cast<int>(k);
    min_vruntime_.assign(static_cast<size_t>(npu), 0);
    cpu_load_.assign(static_cast<size_t>(npu), {});
    // Linux 3.6 kernel/sched/core.c: sched_init(): avg_idle starts at twice
    // the migration cost.
    avg_idle_.assign(static_cast<size_t>(npu), 2 * cp_.sched_migration_cost_ns);
    idle_stamp_.assign(static_cast<size_t>(npu), -1);
    all_nice0_ = std::all_of(sim.tasks().begin(), sim.tasks().end(), [](const Task &t) { return t.nice == 0; });
    sim.log(DecisionKind::Other, -1, 0, 0,
            "cfs: sched_latency " + ms_text(static_cast<double>(latency_ns_) / 1e6) + ", min_granularity " +
                ms_text(static_cast<double>(min_gran_ns_) / 1e6) + ", wakeup_granularity " +
                ms_text(static_cast<double>(wakeup_gran_ns_) / 1e6) + " (x" + std::to_string(factor) + ", " +
                cp_.sched_tunable_scaling + " scaling for " + std::to_string(npu) + " CPUs)");
    if (!domains_.empty())
        for (const auto &sd : domains_.front())
            sim.log(DecisionKind::Other, -1, 0, 0, "sched domain of CPU 0: " + sd.describe());
}

ParamMap CfsBalancer::base_params() const
{
    ParamMap m;
    cp_.add_to(m);
    m["wakeup"] = wakeup_mode() == WakeupMode::Queued ? "queued" : "locked";
    return m;
}

bool CfsBalancer::move_task(Simulation &sim, TaskId t, int to_cpu, int by_cpu, DecisionKind kind,
                            const std::string &why)
{
    const bool was = acting_;
    acting_ = true;
    const bool ok = sim.migrate_task(t, to_cpu, by_cpu, kind, why);
    acting_ = was;
    return ok;
}

std::int64_t CfsBalancer::weight(const Simulation &sim, TaskId t) const
{
    return all_nice0_ ? kNice0Load : nice_weight(sim.task(t).nice);
}

std::uint64_t CfsBalancer::weighted_cpuload(const Simulation &sim, int cpu) const
{
    if (all_nice0_)
        return static_cast<std::uint64_t>(sim.nr_running(cpu)) * kNice0Load;
    const Runqueue &rq = sim.rq(cpu);
    std::uint64_t w = rq.current >= 0 ? static_cast<std::uint64_t>(weight(sim, rq.current)) : 0;
    for (TaskId t : rq.queue)
        w += static_cast<std::uint64_t>(weight(sim, t));
    return w;
}

SimTime CfsBalancer::curr_vruntime(const Simulation &sim, int cpu) const
{
    const Runqueue &rq = sim.rq(cpu);
    const Task &t = sim.task(rq.current);
    // Linux 3.6 kernel/sched/fair.c: update_curr() / __update_curr().
    return t.vruntime_ns + calc_delta_fair(sim.now() - t.slice_start_ns, weight(sim, rq.current));
}

// Linux 3.6 kernel/sched/fair.c: update_min_vruntime(): the smaller of the
// running task's and the leftmost queued task's vruntime, never backwards.
void CfsBalancer::update_min_vruntime(const Simulation &sim, int cpu)
{
    const Runqueue &rq = sim.rq(cpu);
    SimTime &minv = min_vruntime_[static_cast<size_t>(cpu)];
    bool any = false;
    SimTime v = minv;
    if (rq.current >= 0) {
        v = curr_vruntime(sim, cpu);
        any = true;
    }
    for (TaskId t : rq.queue) {
        const SimTime tv = sim.task(t).vruntime_ns;
        v = any ? std::min(v, tv) : tv;
        any = true;
    }
    minv = std::max(minv, v);
}

// Linux 3.6 kernel/sched/fair.c: sched_slice(): the period (__sched_period:
// sched_latency, or min_granularity per task past sched_nr_latency tasks)
// shared by weight. A task not yet on the runqueue counts as if it were.
SimTime CfsBalancer::sched_slice(const Simulation &sim, int cpu, TaskId t, bool on_rq) const
{
    const int nr = sim.nr_running(cpu) + (on_rq ? 0 : 1);
    const SimTime period = nr > nr_latency_ ? min_gran_ns_ * nr : latency_ns_;
    const std::uint64_t load = weighted_cpuload(sim, cpu) + (on_rq ? 0 : static_cast<std::uint64_t>(weight(sim, t)));
    return load == 0 ? period : static_cast<SimTime>(static_cast<std::uint64_t>(period) *
                                                     static_cast<std::uint64_t>(weight(sim, t)) / load);
}

void CfsBalancer::on_enqueue(Simulation &sim, TaskId t, int from_cpu, int cpu, EnqueueKind kind)
{
    Task &task = sim.task_mut(t);
    update_min_vruntime(sim, cpu);
    const SimTime minv = min_vruntime_[static_cast<size_t>(cpu)];
    // Linux 3.6 kernel/sched/fair.c: dequeue_entity() / task_waking_fair()
    // make vruntime relative to the old queue's min_vruntime and
    // enqueue_entity() adds the new queue's.
    if (from_cpu >= 0 && from_cpu != cpu) {
        update_min_vruntime(sim, from_cpu);
        task.vruntime_ns += minv - min_vruntime_[static_cast<size_t>(from_cpu)];
    }
    switch (kind) {
    case EnqueueKind::New:
        // Linux 3.6 kernel/sched/fair.c: task_fork_fair() / place_entity(initial)
        // with START_DEBIT: a new task starts one virtual slice after
        // min_vruntime, so that it does not take the current period from the
        // tasks already there.
        task.vruntime_ns = minv + calc_delta_fair(sched_slice(sim, cpu, t, false), weight(sim, t));
        break;
    case EnqueueKind::Wakeup: {
        // Linux 3.6 kernel/sched/fair.c: place_entity() with
        // GENTLE_FAIR_SLEEPERS: a sleeper gets at most half a latency of
        // credit, and never gains by being placed backwards.
        task.vruntime_ns = std::max(task.vruntime_ns, minv - latency_ns_ / 2);
        // Linux 3.6 kernel/sched/core.c: ttwu_do_wakeup(): how long the CPU
        // was idle, averaged (update_avg(), 1/8 weight), capped at twice
        // the migration cost.
        SimTime &stamp = idle_stamp_[static_cast<size_t>(cpu)];
        if (stamp >= 0) {
            const SimTime delta = sim.now() - stamp;
            const SimTime cap = 2 * cp_.sched_migration_cost_ns;
            SimTime &avg = avg_idle_[static_cast<size_t>(cpu)];
            avg = delta > cap ? cap : avg + (delta - avg) / 8;
            stamp = -1;
        }
        break;
    }
    case EnqueueKind::Migrate:
        break;
    }
}

// Linux 3.6 kernel/sched/fair.c: pick_next_entity(): the leftmost task, the
// smallest vruntime (the rb-tree keeps equal keys in insertion order, so
// the first of equals). The buddies (LAST_BUDDY, the skip buddy) are not
// modelled.
int CfsBalancer::pick_next(Simulation &sim, int cpu)
{
    const auto &q = sim.rq(cpu).queue;
    int best = 0;
    for (int i = 1; i < static_cast<int>(q.size()); ++i)
        if (sim.task(q[static_cast<size_t>(i)]).vruntime_ns < sim.task(q[static_cast<size_t>(best)]).vruntime_ns)
            best = i;
    return best;
}

// Linux 3.6 kernel/sched/fair.c: check_preempt_tick().
bool CfsBalancer::check_preempt_tick(Simulation &sim, int cpu)
{
    const Runqueue &rq = sim.rq(cpu);
    const Task &curr = sim.task(rq.current);
    const SimTime ideal = sched_slice(sim, cpu, rq.current, true);
    const SimTime delta_exec = sim.now() - curr.slice_start_ns;
    if (delta_exec > ideal)
        return true; // it ran its slice
    if (delta_exec < min_gran_ns_ || rq.queue.empty())
        return false;
    // A task that missed wakeup preemption by a narrow margin does not wait
    // a whole slice: the leftmost is more than a slice behind.
    SimTime left = sim.task(rq.queue.front()).vruntime_ns;
    for (TaskId t : rq.queue)
        left = std::min(left, sim.task(t).vruntime_ns);
    const SimTime delta = curr_vruntime(sim, cpu) - left;
    return delta > ideal;
}

// Linux 3.6 kernel/sched/fair.c: check_preempt_wakeup() via
// wakeup_preempt_entity(): the woken task preempts when the running one's
// vruntime is ahead of it by more than wakeup_granularity (in the woken
// task's virtual time, wakeup_gran()). Sync wakeups and buddies are not
// modelled (the engine's wakeups carry no WF_SYNC).
bool CfsBalancer::check_preempt_wakeup(Simulation &sim, int cpu, TaskId woken)
{
    const SimTime vdiff = curr_vruntime(sim, cpu) - sim.task(woken).vruntime_ns;
    if (vdiff <= 0)
        return false;
    return vdiff > calc_delta_fair(wakeup_gran_ns_, weight(sim, woken));
}

bool CfsBalancer::idle_cpu(const Simulation &sim, int cpu) const
{
    // Linux 3.6 kernel/sched/core.c: idle_cpu(): nothing running, nothing
    // queued, and no wakeup pending on its wake list.
    return sim.cpu_idle(cpu) && sim.rq(cpu).wake_list.empty();
}

// Linux 3.6 kernel/sched/fair.c: wake_affine() for a wakeup that is not
// sync (the engine's are not): the waker's CPU takes the wakee if its load
// plus the wakee's stays within half the domain's imbalance_pct of the
// previous CPU's load (both scaled by the other's cpu_power), or if it is
// no busier than prev and both together carry less than one task's load.
bool CfsBalancer::wake_affine(const Simulation &sim, const CfsDomain &sd, TaskId t, int this_cpu, int prev_cpu,
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
int CfsBalancer::select_idle_sibling(const Simulation &sim, TaskId t, int target, int this_cpu, int prev_cpu,
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
int CfsBalancer::select_cpu_wakeup(Simulation &sim, TaskId t, int waker_cpu)
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
        sim.log(DecisionKind::Wakeup, t, prev, chosen, why.empty() ? task_text(t) + " woken on " + cpu_text(chosen) : why);
    return chosen;
}

// Linux 3.6 kernel/sched/fair.c: find_idlest_group(): the group with the
// least load per cpu_power (target_load for others, source_load for ours),
// taken only if ours is more than half imbalance_pct busier.
int CfsBalancer::find_idlest_group(const Simulation &sim, const CfsDomain &sd, const CpuSet &allowed, int this_cpu,
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
int CfsBalancer::find_idlest_cpu(const Simulation &sim, const CpuSet &group, const CpuSet &allowed, int this_cpu) const
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
// again from that CPU's levels below that size. The forking CPU is the
// first allowed one (the engine's tasks have no parent); a NUMA policy's
// fork_node narrows where the walk may go.
int CfsBalancer::select_cpu_fork(Simulation &sim, TaskId t)
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
