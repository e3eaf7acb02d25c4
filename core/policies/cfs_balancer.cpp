// The load balancer of Linux 3.6 (kernel/sched/fair.c, "Fair scheduling
// class load-balancing methods") over the levels of cfs_domain.h.
// Simplifications, each said where it is made: cpu_power is SMT's smt_gain
// share or SCHED_POWER_SCALE (no RT or frequency scaling); no task groups
// (task_h_load is the task's weight); LBF_SOME_PINNED's alternative
// destination is not tried; SD_SERIALIZE needs no lock in a sequential
// simulation; the stopper runs at once.

#include "policies/cfs_balancer.h"

#include "engine/nice.h"
#include "engine/simulation.h"
#include "policies/policy_text.h"

#include <algorithm>
#include <limits>

namespace schedscope {

namespace {
using u64 = std::uint64_t;

const char *idle_name(int kind)
{
    switch (kind) {
    case 1: return " idle";
    case 2: return " newly idle";
    default: return " busy";
    }
}

// Linux 3.6 kernel/sched/fair.c: struct sg_lb_stats (and sd_lb_stats,
// CfsBalancer::DomainStats below), the fields the model uses.
struct GroupStats {
    u64 avg_load = 0, group_load = 0, sum_nr_running = 0, sum_weighted_load = 0, group_capacity = 0;
    u64 idle_cpus = 0, group_weight = 0;
    bool group_imb = false, has_capacity = false;
};
u64 div_round_closest(u64 a, u64 b) { return (a + b / 2) / b; }
} // namespace

// Linux 3.6 kernel/sched/fair.c: source_load(): a low guess of a source
// CPU's load, min(cpu_load[type-1], now); type 0 is the load now.
u64 CfsBalancer::source_load(PolicyView sim, int cpu, int type) const
{
    const u64 total = weighted_cpuload(sim, cpu);
    return type == 0 ? total : std::min(cpu_load_[static_cast<size_t>(cpu)][static_cast<size_t>(type - 1)], total);
}

// Linux 3.6 kernel/sched/fair.c: target_load(): a high guess, the max.
u64 CfsBalancer::target_load(PolicyView sim, int cpu, int type) const
{
    const u64 total = weighted_cpuload(sim, cpu);
    return type == 0 ? total : std::max(cpu_load_[static_cast<size_t>(cpu)][static_cast<size_t>(type - 1)], total);
}

// Linux 3.6 kernel/sched/core.c: __update_cpu_load() from
// update_cpu_load_active() on every tick: cpu_load[i] = (old * (2^i - 1) +
// new) / 2^i, rounded up while the load rises. Every PU updates it on
// every tick here, a tickless idle one (NO_HZ) too, where 3.6 applies the
// missed ticks' decay at once when the CPU is next balanced or woken.
void CfsBalancer::update_cpu_load(PolicyView sim, int cpu)
{
    auto &load = cpu_load_[static_cast<size_t>(cpu)];
    const u64 now = weighted_cpuload(sim, cpu);
    // Every index already at the load now (a CPU whose load has not moved
    // for a while, on most ticks): each would become (now * (2^i - 1) +
    // now) / 2^i, which is now exactly, so none moves.
    if (std::all_of(load.begin(), load.end(), [now](u64 l) { return l == now; }))
        return;
    load[0] = now;
    for (u64 i = 1, scale = 2; i < load.size(); ++i, scale += scale) {
        const u64 old = load[i];
        const u64 add = now > old ? now + scale - 1 : now;
        load[i] = (old * (scale - 1) + add) >> i;
    }
}

void CfsBalancer::on_tick(PolicyContext sim, int cpu)
{
    // The common case, without the calls of the whole (on_tick_in_full),
    // whose register saves and restores cost more than the case itself
    // (every PU runs it on every tick): every task at nice 0, no task
    // queued behind the running one (or none runs), cpu_load[] already at
    // the load now, and no level due. The same steps in the same order as
    // there, each as the function it stands for would take it.
    const auto c = static_cast<size_t>(cpu);
    const Runqueue &rq = sim.rq(cpu);
    if (!all_nice0_ || !rq.queue.empty())
        return on_tick_in_full(sim, cpu);
    // update_cpu_load(): at nice 0 the load now (weighted_cpuload()) is
    // the task count times NICE_0_LOAD; with every index already there,
    // none moves.
    const u64 load_now = static_cast<u64>(sim.nr_running(cpu)) * kNice0Load;
    const auto &load = cpu_load_[c];
    for (const u64 l : load)
        if (l != load_now)
            return on_tick_in_full(sim, cpu);
    // update_min_vruntime() with nothing queued: the running task's
    // vruntime now, which at nice 0 (calc_delta_fair() with NICE_0_LOAD)
    // is its vruntime plus the wall time since its slice started; with no
    // task running, min_vruntime stays.
    if (rq.current >= 0) {
        const Task &t = sim.task(rq.current);
        SimTime &minv = min_vruntime_[c];
        minv = std::max(minv, t.vruntime_ns + (sim.now() - t.slice_start_ns));
    }
    balanced_busy_on_last_tick_ = false;
    if (acting_)
        return;
    const NextBalance &next = next_balance_[c];
    const bool idle = sim.cpu_idle(cpu);
    if (sim.checks_each_event())
        return balance_on_tick(sim, cpu);
    if (nohz_) {
        // An idle CPU's tick is stopped (balance_on_tick() marks it once);
        // a busy one's leaves the nohz set, or checks for a kick when
        // nohz.next_balance has come, besides its own due levels.
        if (idle ? !nohz_idle_[c]
                 : nohz_idle_[c] || (nohz_nr_cpus_ > 0 && sim.now() >= nohz_next_balance_) || sim.now() >= next.busy)
            return balance_on_tick(sim, cpu);
        return;
    }
    if (sim.now() >= next.at(idle))
        return balance_on_tick(sim, cpu);
}

void CfsBalancer::on_tick_in_full(PolicyContext sim, int cpu)
{
    update_cpu_load(sim, cpu);
    update_min_vruntime(sim, cpu);
    balanced_busy_on_last_tick_ = false;
    if (acting_)
        return;
    balance_on_tick(sim, cpu);
}

void CfsBalancer::balance_on_tick(PolicyContext sim, int cpu)
{
    // Linux 3.6 kernel/sched/fair.c: trigger_load_balance() raises
    // SCHED_SOFTIRQ when rq->next_balance, the earliest time a level is
    // due, has come; run_rebalance_domains() balances as idle if the CPU
    // runs nothing. The levels are checked here every tick, so the softirq
    // "ran" on the ticks where one was due.
    const bool idle = sim.cpu_idle(cpu);
    // Before the kept time no level is due: the walk would find none and
    // change nothing (and the softirq would not have been raised).
    if (sim.checks_each_event()) [[unlikely]]
        check_next_balance(sim, cpu);
    // CONFIG_NO_HZ: an idle CPU has no tick (the tick stopped when it went
    // idle); it is balanced only by a kicked idle CPU, below.
    if (nohz_ && idle)
        return nohz_enter_idle(cpu);
    // trigger_load_balance(): the tick raises the CPU's own softirq if a
    // level is due, then asks nohz_kick_needed() (which first takes the CPU
    // out of the nohz set on its first busy tick) on the runqueue as the
    // tick found it; both softirqs run after the tick, the CPU's own first
    // here.
    bool kick = false;
    if (nohz_) {
        nohz_exit_idle(cpu);
        kick = nohz_kick_needed(sim, cpu);
    }
    const NextBalance &next = next_balance_[static_cast<size_t>(cpu)];
    if (sim.now() >= next.at(idle)) {
        const bool due = rebalance_domains(sim, cpu, idle ? IdleType::Idle : IdleType::NotIdle);
        balanced_busy_on_last_tick_ = due && !idle;
    }
    if (kick)
        nohz_balancer_kick(sim);
}

void CfsBalancer::on_idle(PolicyContext sim, int cpu)
{
    // Emptied by a move this balancer is making (acting_): no new-idle pass
    // from inside it, but the CPU goes idle all the same.
    if (!acting_)
        idle_balance(sim, cpu);
    // On the way into the idle loop, when new-idle balancing found nothing,
    // the tick stops (kernel/time/tick-sched.c, not read here) and the CPU
    // enters the nohz set, leaving the busy counts.
    if (nohz_ && sim.cpu_idle(cpu))
        nohz_enter_idle(cpu);
}

// CONFIG_NO_HZ, Linux 3.6 kernel/sched/fair.c, the scheme 3.3 brought in
// ("sched, nohz: Implement sched group, domain aware nohz idle load
// balancing"); the functions below were read in a 3.4-based vendor tree,
// as 3.6's own text is not in our sources: nohz_balance_enter_idle() and
// set_cpu_sd_state_idle() mark a CPU entering idle with its tick stopped;
// nohz_balance_exit_idle() and set_cpu_sd_state_busy(), from
// nohz_kick_needed() on its first busy tick, unmark it. The model keeps one
// mark for both: nohz.idle_cpus_mask and the CPU's place in nr_busy_cpus.
void CfsBalancer::nohz_enter_idle(int cpu)
{
    char &mark = nohz_idle_[static_cast<size_t>(cpu)];
    if (mark)
        return;
    mark = 1;
    ++nohz_nr_cpus_;
}

void CfsBalancer::nohz_exit_idle(int cpu)
{
    char &mark = nohz_idle_[static_cast<size_t>(cpu)];
    if (!mark)
        return;
    mark = 0;
    --nohz_nr_cpus_;
}

// Linux 3.6 kernel/sched/fair.c: nohz_kick_needed(), on a busy CPU's tick:
// none while no CPU is tickless or before nohz.next_balance; a kick when
// this CPU runs two tasks or more, or when, at a level sharing the package
// (SD_SHARE_PKG_RESOURCES: SMT siblings, cores under one cache), this CPU's
// own group has more than one busy CPU; the walk stops at the first level
// that shares nothing. (SD_ASYM_PACKING, POWER7 only, is not modelled.)
// The CPU itself is out of the nohz set by now (balance_on_tick()).
bool CfsBalancer::nohz_kick_needed(PolicyView sim, int cpu) const
{
    if (nohz_nr_cpus_ == 0 || sim.now() < nohz_next_balance_)
        return false;
    if (sim.nr_running(cpu) >= 2)
        return true;
    for (const CfsDomain &sd : domains_[static_cast<size_t>(cpu)]) {
        if (!sd.has(kCfsSharePkgResources))
            break;
        const SchedDomain::Groups &groups = *sd.groups;
        const auto g = static_cast<size_t>(sd.own_group);
        int nr_busy = 0;
        for (int m = groups.begin[g]; m < groups.begin[g + 1]; ++m)
            nr_busy += nohz_idle_[static_cast<size_t>(groups.members[static_cast<size_t>(m)])] ? 0 : 1;
        if (nr_busy > 1)
            return true;
    }
    return false;
}

// Linux 3.6 kernel/sched/fair.c: nohz_balancer_kick(): nohz.next_balance
// moves on a jiffy (a tick here), and find_new_ilb() names the first CPU of
// nohz.idle_cpus_mask (the power-savings search is off by default), if it
// is idle; the IPI makes it run the balancing softirq as idle at once.
void CfsBalancer::nohz_balancer_kick(PolicyContext sim)
{
    nohz_next_balance_ += sim.model().tick_ns;
    const auto first = std::find(nohz_idle_.begin(), nohz_idle_.end(), 1);
    if (first == nohz_idle_.end())
        return;
    const int ilb = static_cast<int>(first - nohz_idle_.begin());
    if (idle_cpu(sim, ilb))
        nohz_idle_balance(sim, ilb);
}

// Linux 3.6 kernel/sched/fair.c: run_rebalance_domains() at the kicked CPU:
// rebalance_domains() for itself as idle, then nohz_idle_balance(): the
// same for every other CPU of nohz.idle_cpus_mask that is idle, in CPU
// order, until the kicked CPU has work of its own (need_resched());
// nohz.next_balance becomes the earliest rq->next_balance among them. The
// cpu_load[] of each is not brought up to date here: an idle CPU's decays
// on every tick in the model (update_cpu_load()), where the 3.4 text has
// the kicked CPU update only its own and 3.6 is assumed to decay a
// tickless CPU's missed ticks at once, by a table close to the per-tick
// rule; other CPUs may read a staler load in 3.6 than here.
void CfsBalancer::nohz_idle_balance(PolicyContext sim, int ilb)
{
    SimTime next = 0;
    rebalance_domains(sim, ilb, IdleType::Idle, &next);
    for (int cpu = 0; cpu < static_cast<int>(nohz_idle_.size()); ++cpu) {
        if (!nohz_idle_[static_cast<size_t>(cpu)] || cpu == ilb || !idle_cpu(sim, cpu))
            continue;
        if (!sim.cpu_idle(ilb))
            break;
        SimTime theirs = 0;
        rebalance_domains(sim, cpu, IdleType::Idle, &theirs);
        next = std::min(next, theirs);
    }
    nohz_next_balance_ = next;
}

bool CfsBalancer::balance_level(PolicyContext sim, int cpu, int level, bool idle)
{
    bool balance = true;
    return load_balance(sim, cpu, domains_mut(cpu).at(static_cast<size_t>(level)),
                        idle ? IdleType::Idle : IdleType::NotIdle, &balance);
}

// Linux 3.6 kernel/sched/fair.c: rebalance_domains(): each level when its
// interval is due (balance_interval, times busy_factor unless idle, clamped
// to max_load_balance_interval); once a level pulled, the CPU counts as
// busy; a level where another CPU of our group balances stops the walk.
bool CfsBalancer::rebalance_domains(PolicyContext sim, int cpu, IdleType idle, SimTime *rq_next_balance)
{
    bool balance = true, due = false;
    // rq->next_balance as 3.6 sets it: each level walked, at the interval
    // of the idle type it was walked with (worked out before its pass), up
    // to the level where the walk stopped.
    SimTime next = std::numeric_limits<SimTime>::max();
    for (CfsDomain &sd : domains_mut(cpu)) {
        const SimTime interval = balance_interval_ns(sim, sd, idle);
        if (sim.now() - sd.last_balance_ns >= interval) {
            due = true;
            if (load_balance(sim, cpu, sd, idle, &balance))
                idle = IdleType::NotIdle;
            sd.last_balance_ns = sim.now();
        }
        next = std::min(next, sd.last_balance_ns + interval);
        if (!balance)
            break;
    }
    next_balance_[static_cast<size_t>(cpu)] = earliest_balance(sim, cpu);
    if (rq_next_balance)
        *rq_next_balance = next;
    return due;
}

SimTime CfsBalancer::balance_interval_ns(PolicyView sim, const CfsDomain &sd, IdleType idle) const
{
    SimTime interval = sd.balance_interval_ms;
    if (idle != IdleType::Idle)
        interval *= sd.busy_factor;
    interval = std::clamp<SimTime>(interval, 1, max_lb_interval_ms_);
    return std::max<SimTime>(sim.model().tick_ns, interval * 1'000'000);
}

NextBalance CfsBalancer::earliest_balance(PolicyView sim, int cpu) const
{
    // A walk with no level due passes the same idle type to every level
    // (only a pass that pulls changes it), so for each type the walk finds
    // a level due from the earliest of their due times on.
    NextBalance next{std::numeric_limits<SimTime>::max(), std::numeric_limits<SimTime>::max()};
    for (const CfsDomain &sd : domains_[static_cast<size_t>(cpu)]) {
        next.idle = std::min(next.idle, sd.last_balance_ns + balance_interval_ns(sim, sd, IdleType::Idle));
        next.busy = std::min(next.busy, sd.last_balance_ns + balance_interval_ns(sim, sd, IdleType::NotIdle));
    }
    return next;
}

void CfsBalancer::check_next_balance(PolicyView sim, int cpu) const
{
    check_kept_next_balance("cfs'", sim.now(), cpu, next_balance_[static_cast<size_t>(cpu)], earliest_balance(sim, cpu),
                            true);
}

// Linux 3.6 kernel/sched/fair.c: idle_balance(): a CPU about to go idle
// balances the levels with SD_BALANCE_NEWIDLE, lowest first, until one
// pulls; not at all when it has on average been idle for less than
// sched_migration_cost (avg_idle), since the pull would cost more than the
// idle time it fills.
void CfsBalancer::idle_balance(PolicyContext sim, int cpu)
{
    idle_stamp_[static_cast<size_t>(cpu)] = sim.now();
    if (avg_idle_[static_cast<size_t>(cpu)] < cp_.sched_migration_cost_ns)
        return;
    for (CfsDomain &sd : domains_mut(cpu)) {
        if (!sd.has(kCfsBalanceNewIdle))
            continue;
        bool balance = true;
        if (load_balance(sim, cpu, sd, IdleType::NewIdle, &balance)) {
            idle_stamp_[static_cast<size_t>(cpu)] = -1;
            return;
        }
    }
}

// Linux 3.6 kernel/sched/fair.c: task_hot(): ran less than
// sched_migration_cost ago (now - se.exec_start). CACHE_HOT_BUDDY is not
// modelled (no buddies).
bool CfsBalancer::task_hot(PolicyView sim, TaskId t) const
{
    if (cp_.sched_migration_cost_ns == 0)
        return false;
    const SimTime last = sim.task(t).last_ran_ns;
    return last >= 0 && sim.now() - last < cp_.sched_migration_cost_ns;
}

// Linux 3.6 kernel/sched/fair.c: update_sd_lb_stats() with
// update_sg_lb_stats() and update_sd_pick_busiest(): the statistics of every
// group of `sd`, the local group first as sd->groups starts with it. False
// when another CPU of the local group balances this level.
bool CfsBalancer::update_sd_lb_stats(PolicyView sim, int this_cpu, const CfsDomain &sd, IdleType idle,
                                     const CpuSet &excluded, DomainStats &sds) const
{
    const SchedDomain::Groups &groups = *sd.groups;
    const int ngroups = static_cast<int>(groups.sizes.size());
    // Linux 3.6 kernel/sched/fair.c: get_sd_load_idx().
    const int load_idx = idle == IdleType::NotIdle   ? sd.busy_idx
                         : idle == IdleType::NewIdle ? sd.newidle_idx
                                                     : sd.idle_idx;
    const bool prefer_sibling = [&] {
        const auto &chain = domains_[static_cast<size_t>(this_cpu)];
        for (size_t k = 1; k < chain.size(); ++k)
            if (&chain[k] == &sd)
                return chain[k - 1].has(kCfsPreferSibling);
        return false;
    }();
    for (int step = 0; step < ngroups; ++step) {
        const int gi = (sd.own_group + step) % ngroups;
        const bool local = gi == sd.own_group;
        GroupStats sgs;
        u64 max_cpu_load = 0, min_cpu_load = ~0ull, max_nr = 0, min_nr = ~0ull;
        int balance_cpu = -1;
        for (int m = groups.begin[static_cast<size_t>(gi)]; m < groups.begin[static_cast<size_t>(gi) + 1]; ++m) {
            const int c = groups.members[static_cast<size_t>(m)];
            if (excluded.test(c))
                continue;
            const u64 nr = static_cast<u64>(sim.nr_running(c));
            u64 load = 0;
            // update_sg_lb_stats(): bias towards our group (a high
            // guess of ours, a low guess of theirs); the first idle CPU
            // of our group, else its first CPU, balances this level.
            if (local) {
                if (balance_cpu < 0 && idle_cpu(sim, c))
                    balance_cpu = c;
                load = target_load(sim, c, load_idx);
            } else {
                load = source_load(sim, c, load_idx);
                max_cpu_load = std::max(max_cpu_load, load);
                min_cpu_load = std::min(min_cpu_load, load);
                max_nr = std::max(max_nr, nr);
                min_nr = std::min(min_nr, nr);
            }
            sgs.group_load += load;
            sgs.sum_nr_running += nr;
            sgs.sum_weighted_load += weighted_cpuload(sim, c);
            if (idle_cpu(sim, c))
                ++sgs.idle_cpus;
        }
        if (local && idle != IdleType::NewIdle) {
            if (balance_cpu < 0)
                balance_cpu = groups.sets[static_cast<size_t>(gi)].first(); // group_balance_cpu()
            if (balance_cpu != this_cpu)
                return false;
        }
        const u64 power = static_cast<u64>(sd.group_power[static_cast<size_t>(gi)]);
        sgs.avg_load = sgs.group_load * kSchedPowerScale / power;
        const u64 avg_load_per_task = sgs.sum_nr_running ? sgs.sum_weighted_load / sgs.sum_nr_running : 0;
        if (!local && max_nr >= min_nr && max_cpu_load - min_cpu_load >= avg_load_per_task && max_nr - min_nr > 1)
            sgs.group_imb = true;
        sgs.group_capacity = div_round_closest(power, kSchedPowerScale);
        if (sgs.group_capacity == 0 && sd.has(kCfsShareCpuPower))
            sgs.group_capacity = 1; // fix_small_capacity(): power == power_orig here
        sgs.group_weight = static_cast<u64>(groups.sizes[static_cast<size_t>(gi)]);
        sgs.has_capacity = sgs.group_capacity > sgs.sum_nr_running;
        sds.total_load += sgs.group_load;
        sds.total_pwr += power;
        // SD_PREFER_SIBLING of the child level: move every excess task
        // away while our group has room.
        if (prefer_sibling && !local && sds.this_has_capacity)
            sgs.group_capacity = std::min<u64>(sgs.group_capacity, 1);
        if (local) {
            sds.local = gi;
            sds.this_load = sgs.avg_load;
            sds.this_nr_running = sgs.sum_nr_running;
            sds.this_load_per_task = sgs.sum_weighted_load;
            sds.this_has_capacity = sgs.has_capacity;
            sds.this_idle_cpus = sgs.idle_cpus;
        } else if (sgs.avg_load > sds.max_load &&
                   (sgs.sum_nr_running > sgs.group_capacity || sgs.group_imb)) { // update_sd_pick_busiest()
            sds.max_load = sgs.avg_load;
            sds.busiest = gi;
            sds.busiest_nr_running = sgs.sum_nr_running;
            sds.busiest_idle_cpus = sgs.idle_cpus;
            sds.busiest_group_capacity = sgs.group_capacity;
            sds.busiest_load_per_task = sgs.sum_weighted_load;
            sds.busiest_has_capacity = sgs.has_capacity;
            sds.busiest_group_weight = sgs.group_weight;
            sds.group_imb = sgs.group_imb;
        }
    }
    return true;
}

// Linux 3.6 kernel/sched/fair.c: find_busiest_group(): the statistics, then
// whether the busiest group is out of balance with ours, and by how much
// (*imbalance, from calculate_imbalance()).
CfsBalancer::BusiestGroup CfsBalancer::find_busiest_group(PolicyView sim, int this_cpu, const CfsDomain &sd,
                                                          IdleType idle, const CpuSet &excluded, DomainStats &sds,
                                                          long *imbalance) const
{
    if (!update_sd_lb_stats(sim, this_cpu, sd, idle, excluded, sds))
        return BusiestGroup::NotOurTurn;
    if (numa_pull() == NumaPull::OffnodeFirst && sd.level == "NUMA")
        update_sd_numa_stats(sim, sd, excluded, sds);
    // sched/numa, 25 October 2012 posting: find_busiest_group()'s first
    // three balanced exits skip the off-node pull (no busy group, or ours
    // at or above the busiest's load or the average); the idle-CPU and
    // imbalance_pct ones try it (OutBalanced). Plain 3.6 treats both alike.
    if (sds.busiest < 0 || sds.busiest_nr_running == 0)
        return BusiestGroup::Balanced;
    sds.avg_load = kSchedPowerScale * sds.total_load / sds.total_pwr;
    bool force = sds.group_imb || (idle == IdleType::NewIdle && sds.this_has_capacity && !sds.busiest_has_capacity);
    if (!force) {
        if (sds.this_load >= sds.max_load || sds.this_load >= sds.avg_load)
            return BusiestGroup::Balanced;
        if (idle == IdleType::Idle) {
            // An idle CPU: balanced unless the busiest group has more
            // tasks than CPUs or more idle CPUs fewer than ours.
            if (sds.this_idle_cpus <= sds.busiest_idle_cpus + 1 && sds.busiest_nr_running <= sds.busiest_group_weight)
                return BusiestGroup::OutBalanced;
        } else if (100 * sds.max_load <= static_cast<u64>(sd.imbalance_pct) * sds.this_load) {
            return BusiestGroup::OutBalanced; // within imbalance_pct: leave it
        }
    }
    *imbalance = static_cast<long>(calculate_imbalance(sim, this_cpu, sd, sds));
    return BusiestGroup::Found;
}

// Linux 3.6 kernel/sched/fair.c: calculate_imbalance(): the load to move,
// no more than takes the busiest group down to the average (or to its
// capacity) nor ours above it.
u64 CfsBalancer::calculate_imbalance(PolicyView sim, int this_cpu, const CfsDomain &sd, DomainStats &sds) const
{
    const u64 busiest_power = static_cast<u64>(sd.group_power[static_cast<size_t>(sds.busiest)]);
    const u64 this_power = static_cast<u64>(sd.group_power[static_cast<size_t>(sds.local)]);
    sds.busiest_load_per_task /= sds.busiest_nr_running;
    if (sds.group_imb)
        sds.busiest_load_per_task = std::min(sds.busiest_load_per_task, sds.avg_load);
    if (sds.max_load < sds.avg_load)
        return fix_small_imbalance(sim, this_cpu, sd, sds);
    u64 load_above_capacity = ~0ull;
    if (!sds.group_imb) {
        load_above_capacity = (sds.busiest_nr_running - sds.busiest_group_capacity) *
                              (static_cast<u64>(kNice0Load) * kSchedPowerScale) / busiest_power;
    }
    const u64 max_pull = std::min(sds.max_load - sds.avg_load, load_above_capacity);
    const u64 imb = std::min(max_pull * busiest_power, (sds.avg_load - sds.this_load) * this_power) / kSchedPowerScale;
    if (imb < sds.busiest_load_per_task)
        return fix_small_imbalance(sim, this_cpu, sd, sds);
    return imb;
}

// Linux 3.6 kernel/sched/fair.c: fix_small_imbalance(): move one task's
// load if that levels the groups, or if it raises the power in use.
u64 CfsBalancer::fix_small_imbalance(PolicyView sim, int this_cpu, const CfsDomain &sd, DomainStats &sds) const
{
    const u64 busiest_power = static_cast<u64>(sd.group_power[static_cast<size_t>(sds.busiest)]);
    const u64 this_power = static_cast<u64>(sd.group_power[static_cast<size_t>(sds.local)]);
    u64 imbn = 2;
    if (sds.this_nr_running) {
        sds.this_load_per_task /= sds.this_nr_running;
        if (sds.busiest_load_per_task > sds.this_load_per_task)
            imbn = 1;
    } else {
        const u64 nr = static_cast<u64>(sim.nr_running(this_cpu));
        sds.this_load_per_task = nr ? weighted_cpuload(sim, this_cpu) / nr : 0;
    }
    const u64 scaled = sds.busiest_load_per_task * kSchedPowerScale / busiest_power;
    if (sds.max_load - sds.this_load + scaled >= scaled * imbn)
        return sds.busiest_load_per_task;
    u64 pwr_now = busiest_power * std::min(sds.busiest_load_per_task, sds.max_load) +
                  this_power * std::min(sds.this_load_per_task, sds.this_load);
    pwr_now /= kSchedPowerScale;
    u64 pwr_move = 0;
    u64 tmp = sds.busiest_load_per_task * kSchedPowerScale / busiest_power;
    if (sds.max_load > tmp)
        pwr_move += busiest_power * std::min(sds.busiest_load_per_task, sds.max_load - tmp);
    if (sds.max_load * busiest_power < sds.busiest_load_per_task * kSchedPowerScale)
        tmp = sds.max_load * busiest_power / this_power;
    else
        tmp = sds.busiest_load_per_task * kSchedPowerScale / this_power;
    pwr_move += this_power * std::min(sds.this_load_per_task, sds.this_load + tmp);
    pwr_move /= kSchedPowerScale;
    return pwr_move > pwr_now ? sds.busiest_load_per_task : 0;
}

// Linux 3.6 kernel/sched/fair.c: find_busiest_queue(): the most loaded CPU
// of the busiest group per cpu_power, not one whose single task outweighs
// the imbalance; -1 if none.
int CfsBalancer::find_busiest_queue(PolicyView sim, const CfsDomain &sd, int group, const CpuSet &excluded,
                                    long imbalance) const
{
    const SchedDomain::Groups &bg = *sd.groups;
    int busiest = -1;
    u64 max_wl = 0;
    for (int m = bg.begin[static_cast<size_t>(group)]; m < bg.begin[static_cast<size_t>(group) + 1]; ++m) {
        const int c = bg.members[static_cast<size_t>(m)];
        if (excluded.test(c))
            continue;
        const u64 power = static_cast<u64>(cpu_power_[static_cast<size_t>(c)]);
        u64 capacity = div_round_closest(power, kSchedPowerScale);
        if (capacity == 0 && sd.has(kCfsShareCpuPower))
            capacity = 1;
        u64 wl = weighted_cpuload(sim, c);
        if (capacity && sim.nr_running(c) == 1 && wl > static_cast<u64>(imbalance))
            continue;
        wl = wl * kSchedPowerScale / power;
        if (wl > max_wl) {
            max_wl = wl;
            busiest = c;
        }
    }
    return busiest;
}

// Linux 3.6 kernel/sched/fair.c: move_tasks() with can_migrate_task(): pull
// tasks of `busiest` to this_cpu until *imbalance is spent; the number
// moved. *any_allowed: some task may run on this_cpu (else LBF_ALL_PINNED).
int CfsBalancer::move_tasks(PolicyContext sim, int this_cpu, int busiest, const CfsDomain &sd, IdleType idle,
                            long *imbalance, bool *any_allowed, const std::function<const std::string &()> &why)
{
    int moved = 0;
    // cfs_tasks lists the most recently enqueued first; the running
    // task cannot move. AwayIsHot: tasks that gain from the move (NUMA
    // hook) are tried first.
    const std::vector<TaskId> &queue = sim.rq(busiest).queue;
    std::vector<TaskId> order(queue.rbegin(), queue.rend());
    const NumaPull mode = numa_pull();
    if (mode == NumaPull::AwayIsHot)
        std::stable_sort(order.begin(), order.end(), [&](TaskId a, TaskId b) {
            return numa_preference(sim, a, busiest, this_cpu) > numa_preference(sim, b, busiest, this_cpu);
        });
    const int loop_max = std::min(cp_.sched_nr_migrate, sim.nr_running(busiest));
    if (mode == NumaPull::OffnodeFirst) {
        // sched/numa, 25 October 2012 posting: move_tasks() with NUMA_PULL
        // walks the source runqueue's offnode_tasks list, then, if load is
        // still to move, its cfs_tasks (the tasks on their home node and
        // those with none), its loop count restarted; a walk that reaches
        // loop_max ends that list only.
        const auto split = order.begin() + static_cast<std::ptrdiff_t>(offnode_first(sim, busiest, order));
        const std::vector<TaskId> off(order.begin(), split), rest(split, order.end());
        moved += move_tasks_pass(sim, this_cpu, busiest, sd, idle, imbalance, any_allowed, why, off, loop_max, false);
        moved += move_tasks_pass(sim, this_cpu, busiest, sd, idle, imbalance, any_allowed, why, rest, loop_max, false);
        return moved;
    }
    // StrictFirstPass: AutoNUMA27 move_tasks() walks cfs_tasks with
    // LBF_NUMA set, then, if load is still to move, again without it, its
    // loop count restarted; the tasks the first pass took are gone from
    // the list, and those it passed over keep their order.
    const bool two_passes = mode == NumaPull::StrictFirstPass;
    for (int pass = 0; pass < (two_passes ? 2 : 1); ++pass)
        moved += move_tasks_pass(sim, this_cpu, busiest, sd, idle, imbalance, any_allowed, why, order, loop_max,
                                 two_passes && pass == 0);
    return moved;
}

// One walk of move_tasks() over `order` (the tasks still on `busiest`);
// strict: AutoNUMA27's LBF_NUMA pass, which passes over a task unless this
// CPU is on its node.
int CfsBalancer::move_tasks_pass(PolicyContext sim, int this_cpu, int busiest, const CfsDomain &sd, IdleType idle,
                                 long *imbalance, bool *any_allowed, const std::function<const std::string &()> &why,
                                 const std::vector<TaskId> &order, int loop_max, bool strict)
{
    const NumaPull mode = numa_pull();
    int moved = 0, loop = 0;
    for (TaskId t : order) {
        if (*imbalance <= 0)
            break;
        if (sim.task(t).cpu != busiest) // taken by the first pass
            continue;
        if (++loop > loop_max)
            break;
        const long load = static_cast<long>(weight(sim, t)); // task_h_load() without groups
        if (load / 2 > *imbalance)
            continue;
        // can_migrate_task(): allowed here, not running, then the NUMA
        // hook (AutoNUMA27's strict pass; or, AwayIsHot, a refusal like
        // cache hotness: in sched/numa's March 2012 posting,
        // task_numa_hot() makes a move that takes a task away from its
        // home count as cache hot), then cold or enough failures.
        if (!sim.task(t).cpus_allowed.test(this_cpu))
            continue;
        *any_allowed = true;
        if (strict && !numa_affine(sim, t, this_cpu))
            continue; // sched_autonuma_can_migrate_task(strict_numa): left to the second pass
        const bool aggressive = sd.nr_balance_failed > sd.cache_nice_tries;
        if (mode == NumaPull::AwayIsHot && !aggressive && numa_preference(sim, t, busiest, this_cpu) < 0) {
            // Text written only when kept (Simulation::log_lazy): a
            // process crowded on its home node is refused here by
            // every idle CPU's pass, tens of thousands a second.
            sim.log_lazy(DecisionKind::Other, t, busiest, this_cpu, [&] {
                return task_text(t) + " kept on " + cpu_text(busiest) + ": " + numa_reason(sim, t) + " (" + sd.level +
                       " level, " + std::to_string(sd.nr_balance_failed) + " failed attempts, cache_nice_tries " +
                       std::to_string(sd.cache_nice_tries) + ")";
            });
            continue;
        }
        // OffnodeFirst: sched/numa, 25 October 2012 posting,
        // can_migrate_task(): a busy CPU's pass adds task_numa_hot() to
        // cache hotness, with the same escape after cache_nice_tries.
        const bool numa_hot = mode == NumaPull::OffnodeFirst && idle == IdleType::NotIdle &&
                              task_numa_hot(sim, t, busiest, this_cpu);
        const bool hot = task_hot(sim, t) || numa_hot;
        if (numa_hot && !aggressive) {
            sim.log_lazy(DecisionKind::Other, t, busiest, this_cpu, [&] {
                return task_text(t) + " kept on " + cpu_text(busiest) + ": " + numa_reason(sim, t) +
                       ", and the move brings it no nearer (task_numa_hot, " + sd.level + " level, " +
                       std::to_string(sd.nr_balance_failed) + " failed attempts, cache_nice_tries " +
                       std::to_string(sd.cache_nice_tries) + ")";
            });
            continue;
        }
        if (hot && !aggressive) {
            sim.log_lazy(DecisionKind::SkipHot, t, busiest, this_cpu, [&] {
                return task_text(t) + " skipped: cache hot, ran " +
                       ms_text(static_cast<double>(sim.now() - sim.task(t).last_ran_ns) / 1e6) + " ago < " +
                       ms_text(static_cast<double>(cp_.sched_migration_cost_ns) / 1e6) + " (" + sd.level + " level, " +
                       std::to_string(sd.nr_balance_failed) + " failed attempts, cache_nice_tries " +
                       std::to_string(sd.cache_nice_tries) + ")";
            });
            continue;
        }
        std::string reason = why() + ": pulled " + task_text(t) + " from " + cpu_text(busiest);
        if (hot)
            reason += ", cache hot but balancing failed " + std::to_string(sd.nr_balance_failed) +
                      " times > cache_nice_tries " + std::to_string(sd.cache_nice_tries);
        if (move_task(sim, t, this_cpu, this_cpu, DecisionKind::Pull, reason)) {
            ++moved;
            *imbalance -= load;
        }
    }
    return moved;
}

// Linux 3.6 kernel/sched/fair.c: active_load_balance_cpu_stop(): the
// stopper preempts the running task `cur` of `busiest` (two switches on that
// CPU), then move_one_task() takes the first task of cfs_tasks that may move
// (the running one is now queued); only if the CPU still has more than one.
//
// numa_active: the stopper of sched/numa's October 2012 off-node pull
// (need_active_numa_balance(): the source runs one task, off its node).
// The kernel's "anything to move" test counts the stopper itself among
// the source's runnable tasks, so one task besides it passes; the model's
// count leaves the stopper out, so that path asks for one task, not two.
// (The plain path keeps its test of two, as the model has it.)
void CfsBalancer::active_load_balance_cpu_stop(PolicyContext sim, int this_cpu, int busiest, TaskId cur,
                                               const CfsDomain &sd, const std::function<const std::string &()> &why,
                                               bool numa_active)
{
    sim.charge_sys(busiest, 2.0 * static_cast<double>(sim.model().context_switch_ns));
    if (sim.nr_running(busiest) < (numa_active ? 1 : 2))
        return;
    std::vector<TaskId> cands(sim.rq(busiest).queue.rbegin(), sim.rq(busiest).queue.rend());
    if (cur >= 0)
        cands.push_back(cur);
    // OffnodeFirst: sched/numa, 25 October 2012 posting, move_one_task()
    // with NUMA_PULL: the offnode_tasks list first, then cfs_tasks.
    if (numa_pull() == NumaPull::OffnodeFirst)
        offnode_first(sim, busiest, cands);
    // StrictFirstPass: AutoNUMA27 move_one_task() looks for a task whose
    // node this CPU is on first, and takes any only if there is none.
    const bool two_passes = numa_pull() == NumaPull::StrictFirstPass;
    for (int pass = two_passes ? 0 : 1; pass < 2; ++pass)
        for (TaskId t : cands) {
            if (!sim.task(t).cpus_allowed.test(this_cpu) || (pass == 0 && !numa_affine(sim, t, this_cpu)))
                continue;
            move_task(sim, t, this_cpu, busiest, DecisionKind::Pull,
                      why() + ": stopper on " + cpu_text(busiest) + " pushed " + task_text(t) +
                          (numa_active ? std::string(" (active balance of a lone off-node task)")
                                       : " (active balance after " + std::to_string(sd.nr_balance_failed) +
                                             " failed attempts)"));
            return;
        }
}

// Linux 3.6 kernel/sched/fair.c: load_balance(): find_busiest_group(),
// find_busiest_queue(), move_tasks(); a CPU whose tasks were all pinned is
// left out and the pass redone; after cache_nice_tries + 2 failures the
// stopper pushes the busiest CPU's running task over.
bool CfsBalancer::load_balance(PolicyContext sim, int this_cpu, CfsDomain &sd, IdleType idle, bool *balance)
{
    const int idle_kind = static_cast<int>(idle);
    CpuSet excluded; // env->cpus: CPUs whose tasks were all pinned
    bool all_pinned = false;
    for (int attempt = 0; attempt < 64; ++attempt) {
        const auto balanced = [&] {
            // out_balanced: no failure, back off (doubling up to
            // max_interval, up to MAX_PINNED_INTERVAL while all was pinned).
            sd.nr_balance_failed = 0;
            if ((all_pinned && sd.balance_interval_ms < 512) || sd.balance_interval_ms < sd.max_interval_ms)
                sd.balance_interval_ms *= 2;
            return false;
        };
        DomainStats sds;
        long imbalance = 0;
        bool numa_pass = false;
        switch (find_busiest_group(sim, this_cpu, sd, idle, excluded, sds, &imbalance)) {
        case BusiestGroup::NotOurTurn: *balance = false; return false;
        case BusiestGroup::Balanced: return balanced();
        case BusiestGroup::OutBalanced:
            // sched/numa, 25 October 2012 posting: find_busiest_group()'s
            // out_balanced asks check_numa_busiest_group() first.
            if (!check_numa_busiest_group(sds, &imbalance))
                return balanced();
            numa_pass = true;
            break;
        case BusiestGroup::Found: break;
        }
        // NUMA_PULL_BIAS: find_busiest_numa_queue() picks the source.
        const int busiest = numa_pass ? find_busiest_numa_queue(sim, sd, sds.busiest, excluded)
                                      : find_busiest_queue(sim, sd, sds.busiest, excluded, imbalance);
        if (busiest < 0 || busiest == this_cpu)
            return balanced();
        // The reason of this pass, written at its first pull and the same
        // for every pull after it.
        std::string why_text;
        const std::function<const std::string &()> why = [&]() -> const std::string & {
            if (why_text.empty()) {
                why_text = "CPU ";
                append_int(why_text, this_cpu);
                why_text += idle_name(idle_kind);
                why_text += " (" + sd.level + " level): group load " + std::to_string(sds.max_load) + " vs ours " +
                            std::to_string(sds.this_load) + " (avg " + std::to_string(sds.avg_load) +
                            ", imbalance_pct " + std::to_string(sd.imbalance_pct) + "), imbalance " +
                            std::to_string(imbalance);
                if (numa_pass)
                    why_text += " (balanced, but a task runs off its home node: NUMA_PULL_BIAS)";
            }
            return why_text;
        };
        int moved = 0;
        if (sim.nr_running(busiest) > 1) {
            bool any_allowed = false;
            moved = move_tasks(sim, this_cpu, busiest, sd, idle, &imbalance, &any_allowed, why);
            // LBF_ALL_PINNED: no task could run here; try without that CPU.
            if (!any_allowed && moved == 0) {
                all_pinned = true;
                excluded.set(busiest);
                continue;
            }
        }
        if (moved > 0) {
            sd.nr_balance_failed = 0;
            sd.balance_interval_ms = sd.min_interval_ms;
            return true;
        }
        after_failed_pass(sim, this_cpu, busiest, sd, idle, numa_pass, &all_pinned, why);
        return false;
    }
    return false;
}

// Linux 3.6 kernel/sched/fair.c: load_balance() after a pass that moved
// nothing: count it (periodic passes only: new-idle passes are too
// frequent to count), and past cache_nice_tries + 2 failures wake the
// stopper on the busiest CPU to push a task over (need_active_balance());
// then the interval, backed off while the stopper works. numa_pass:
// sched/numa's 25 October 2012 posting, need_active_numa_balance(): an
// off-node pull whose source runs one task, off its node, wakes the
// stopper at once.
void CfsBalancer::after_failed_pass(PolicyContext sim, int this_cpu, int busiest, CfsDomain &sd, IdleType idle,
                                    bool numa_pass, bool *all_pinned, const std::function<const std::string &()> &why)
{
    if (idle != IdleType::NewIdle)
        ++sd.nr_balance_failed;
    const bool numa_active = numa_pass && sim.nr_running(busiest) == 1 && numa_rq(sim, busiest).offnode_running == 1;
    bool active = false;
    if (numa_active || sd.nr_balance_failed > sd.cache_nice_tries + 2) {
        const TaskId cur = sim.rq(busiest).current;
        if (cur >= 0 && !sim.task(cur).cpus_allowed.test(this_cpu)) {
            *all_pinned = true;
            if (sd.balance_interval_ms < 512) // MAX_PINNED_INTERVAL
                sd.balance_interval_ms *= 2;
            return; // out_one_pinned
        }
        active = true;
        active_load_balance_cpu_stop(sim, this_cpu, busiest, cur, sd, why, numa_active);
        sd.nr_balance_failed = sd.cache_nice_tries + 1;
    }
    if (!active)
        sd.balance_interval_ms = sd.min_interval_ms;
    else if (sd.balance_interval_ms < sd.max_interval_ms)
        sd.balance_interval_ms *= 2;
}

} // namespace schedscope
