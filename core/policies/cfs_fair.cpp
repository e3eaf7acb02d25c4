// The fair class of Linux 3.6 (kernel/sched/fair.c) as the `cfs` policy
// runs it: vruntime ordering, slices, preemption, vruntime placement.
// Where woken and new tasks go is in cfs_placement.cpp, the balancer in
// cfs_balancer.cpp.

#include "policies/cfs_balancer.h"

#include "engine/nice.h"
#include "engine/policy_actions.h"
#include "engine/simulation.h"
#include "engine/wakeup_param.h"
#include "policies/own_move.h"
#include "policies/policy_text.h"

#include <algorithm>

namespace schedscope {

void CfsBalancer::attach(PolicyContext sim)
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
    llc_id_.assign(static_cast<size_t>(npu), -1);
    for (int cpu = 0; cpu < npu; ++cpu) {
        const int k = llc_level_[static_cast<size_t>(cpu)];
        llc_id_[static_cast<size_t>(cpu)] = k < 0 ? cpu
                                                  : domains_[static_cast<size_t>(cpu)][static_cast<size_t>(k)]
                                                        .span.first();
    }
    min_vruntime_.assign(static_cast<size_t>(npu), 0);
    cpu_load_.assign(static_cast<size_t>(npu), {});
    // Linux 3.6 kernel/sched/core.c: sched_init(): avg_idle starts at twice
    // the migration cost.
    avg_idle_.assign(static_cast<size_t>(npu), 2 * cp_.sched_migration_cost_ns);
    idle_stamp_.assign(static_cast<size_t>(npu), -1);
    next_balance_.assign(static_cast<size_t>(npu), NextBalance{});
    // Linux 3.6 kernel/sched/core.c: init_sched_groups_power() starts every
    // group with all its CPUs busy; each leaves the count on its first
    // entry into idle (cfs_balancer.cpp).
    nohz_ = cp_.nohz == "on";
    nohz_idle_.assign(static_cast<size_t>(npu), 0);
    nohz_nr_cpus_ = 0;
    nohz_next_balance_ = 0;
    // sched/numa's October 2012 balancer (cfs_numa_pull.cpp) draws from a
    // stream of its own, a function of the run's seed: no other draw of
    // the run moves.
    constexpr std::uint64_t kNumaPullStream = 0x6e756d615f70756c; // "numa_pul"
    numa_rng_.reseed(sim.seed() ^ kNumaPullStream);
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
    add_wakeup(m, wakeup_mode());
    return m;
}

bool CfsBalancer::move_task(PolicyContext sim, TaskId t, int to_cpu, int by_cpu, DecisionKind kind,
                            const std::string &why)
{
    return own_move(sim, acting_, t, to_cpu, by_cpu, kind, why);
}

std::int64_t CfsBalancer::weight(PolicyView sim, TaskId t) const
{
    return all_nice0_ ? kNice0Load : nice_weight(sim.task(t).nice);
}

std::uint64_t CfsBalancer::weighted_cpuload(PolicyView sim, int cpu) const
{
    if (all_nice0_)
        return static_cast<std::uint64_t>(sim.nr_running(cpu)) * kNice0Load;
    const Runqueue &rq = sim.rq(cpu);
    std::uint64_t w = rq.current >= 0 ? static_cast<std::uint64_t>(weight(sim, rq.current)) : 0;
    for (TaskId t : rq.queue)
        w += static_cast<std::uint64_t>(weight(sim, t));
    return w;
}

SimTime CfsBalancer::curr_vruntime(PolicyView sim, int cpu) const
{
    const Runqueue &rq = sim.rq(cpu);
    const Task &t = sim.task(rq.current);
    // Linux 3.6 kernel/sched/fair.c: update_curr() / __update_curr().
    return t.vruntime_ns + calc_delta_fair(sim.now() - t.slice_start_ns, weight(sim, rq.current));
}

// Linux 3.6 kernel/sched/fair.c: update_min_vruntime(): the smaller of the
// running task's and the leftmost queued task's vruntime, never backwards.
void CfsBalancer::update_min_vruntime(PolicyView sim, int cpu)
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
SimTime CfsBalancer::sched_slice(PolicyView sim, int cpu, TaskId t, bool on_rq) const
{
    const int nr = sim.nr_running(cpu) + (on_rq ? 0 : 1);
    const SimTime period = nr > nr_latency_ ? min_gran_ns_ * nr : latency_ns_;
    const std::uint64_t load = weighted_cpuload(sim, cpu) + (on_rq ? 0 : static_cast<std::uint64_t>(weight(sim, t)));
    return load == 0 ? period
                     : static_cast<SimTime>(static_cast<std::uint64_t>(period) *
                                            static_cast<std::uint64_t>(weight(sim, t)) / load);
}

void CfsBalancer::on_enqueue(PolicyContext sim, TaskId t, int from_cpu, int cpu, EnqueueKind kind)
{
    SimTime vruntime = sim.task(t).vruntime_ns;
    update_min_vruntime(sim, cpu);
    const SimTime minv = min_vruntime_[static_cast<size_t>(cpu)];
    // Linux 3.6 kernel/sched/fair.c: dequeue_entity() / task_waking_fair()
    // make vruntime relative to the old queue's min_vruntime and
    // enqueue_entity() adds the new queue's.
    if (from_cpu >= 0 && from_cpu != cpu) {
        update_min_vruntime(sim, from_cpu);
        vruntime += minv - min_vruntime_[static_cast<size_t>(from_cpu)];
    }
    switch (kind) {
    case EnqueueKind::New:
        // Linux 3.6 kernel/sched/fair.c: task_fork_fair() / place_entity(initial)
        // with START_DEBIT: a new task starts one virtual slice after
        // min_vruntime, so that it does not take the current period from the
        // tasks already there.
        vruntime = minv + calc_delta_fair(sched_slice(sim, cpu, t, false), weight(sim, t));
        break;
    case EnqueueKind::Wakeup: {
        // Linux 3.6 kernel/sched/fair.c: place_entity() with
        // GENTLE_FAIR_SLEEPERS: a sleeper gets at most half a latency of
        // credit, and never gains by being placed backwards.
        vruntime = std::max(vruntime, minv - latency_ns_ / 2);
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
    case EnqueueKind::Migrate: break;
    }
    PolicyActions::set_vruntime(sim, t, vruntime);
}

// Linux 3.6 kernel/sched/fair.c: pick_next_entity(): the leftmost task, the
// smallest vruntime (the rb-tree keeps equal keys in insertion order, so
// the first of equals). The buddies (LAST_BUDDY, the skip buddy) are not
// modelled.
int CfsBalancer::pick_next(PolicyContext sim, int cpu)
{
    const auto &q = sim.rq(cpu).queue;
    int best = 0;
    for (int i = 1; i < static_cast<int>(q.size()); ++i)
        if (sim.task(q[static_cast<size_t>(i)]).vruntime_ns < sim.task(q[static_cast<size_t>(best)]).vruntime_ns)
            best = i;
    return best;
}

// Linux 3.6 kernel/sched/fair.c: check_preempt_tick().
bool CfsBalancer::check_preempt_tick(PolicyContext sim, int cpu)
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

// Linux 3.6 kernel/sched/core.c: ttwu_queue() and cpus_share_cache(): two
// CPUs share a cache when their sd_llc_id (update_top_cache_domain()) is the
// same.
bool CfsBalancer::queues_wakeup(int waker_cpu, int target) const
{
    return llc_id_.at(static_cast<size_t>(waker_cpu)) != llc_id_.at(static_cast<size_t>(target));
}

// Linux 3.6 kernel/sched/fair.c: check_preempt_wakeup() via
// wakeup_preempt_entity(): the woken task preempts when the running one's
// vruntime is ahead of it by more than wakeup_granularity (in the woken
// task's virtual time, wakeup_gran()). Sync wakeups and buddies are not
// modelled (the engine's wakeups carry no WF_SYNC).
bool CfsBalancer::check_preempt_wakeup(PolicyContext sim, int cpu, TaskId woken)
{
    const SimTime vdiff = curr_vruntime(sim, cpu) - sim.task(woken).vruntime_ns;
    if (vdiff <= 0)
        return false;
    return vdiff > calc_delta_fair(wakeup_gran_ns_, weight(sim, woken));
}

bool CfsBalancer::idle_cpu(PolicyView sim, int cpu) const
{
    // Linux 3.6 kernel/sched/core.c: idle_cpu(): nothing running, nothing
    // queued, and no wakeup pending on its wake list.
    return sim.cpu_idle(cpu) && sim.rq(cpu).wake_list.empty();
}

} // namespace schedscope
