#include "policies/domain_balancer.h"

#include "engine/simulation.h"
#include "engine/wakeup_param.h"
#include "policies/own_move.h"
#include "policies/policy_text.h"
#include "util/input_error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>

namespace schedscope {

namespace {
constexpr double kNsPerMs = 1e6;

const char *idle_words(int kind)
{
    switch (kind) {
    case 1: return " idle";
    case 2: return " newly idle";
    default: return " busy";
    }
}

double ms_since(PolicyView sim, SimTime t) { return static_cast<double>(sim.now() - t) / kNsPerMs; }

} // namespace

long DomainBalancer::source_load(PolicyView sim, int cpu, int uncounted) const
{
    // Linux 2.6.9 kernel/sched.c: source_load(): min(rq->cpu_load, load_now),
    // a low guess at a migration source's load, to balance conservatively.
    return std::min(cpu_load(cpu), (sim.nr_running(cpu) + uncounted) * kLoadScale);
}

long DomainBalancer::target_load(PolicyView sim, int cpu, int uncounted) const
{
    // Linux 2.6.9 kernel/sched.c: target_load(): max(rq->cpu_load, load_now).
    return std::max(cpu_load(cpu), (sim.nr_running(cpu) + uncounted) * kLoadScale);
}

DomainBalancer::Busiest DomainBalancer::find_busiest(PolicyView sim, int /*this_cpu*/, const SchedDomain &sd,
                                                     IdleType idle) const
{
    Busiest b = find_busiest_group(sim, sd, idle);
    if (b.group >= 0)
        b.cpu = find_busiest_queue(sim, sd, b.group);
    return b;
}

DomainBalancer::GroupLoads DomainBalancer::group_loads(PolicyView sim, const SchedDomain &sd) const
{
    // Linux 2.6.9 kernel/sched.c: find_busiest_group(), its loop over the
    // groups. Each group's load is the sum of target_load() over this CPU's
    // own group ("bias balancing toward cpus of our domain") and of
    // source_load() over the others', scaled by SCHED_LOAD_SCALE /
    // cpu_power; the busiest is the first group with the strictly highest
    // scaled load.
    const SchedDomain::Groups &groups = *sd.shared_groups;
    const int ngroups = static_cast<int>(groups.sizes.size());
    // The same min and max as source_load() and target_load(), read from
    // the dense arrays in the loops below (a call per CPU per group was
    // most of a pass).
    const int *nr = sim.nr_running_all();
    const long *decayed = cpu_load_.data();
    const int *members = groups.members.data();
    const int *begin = groups.begin.data();
    GroupLoads l;
    for (int g = 0; g < ngroups; ++g) {
        const bool local = g == sd.own_group;
        long sum = 0;
        if (local)
            for (int k = begin[g]; k < begin[g + 1]; ++k)
                sum += std::max(decayed[members[k]], nr[members[k]] * kLoadScale);
        else
            for (int k = begin[g]; k < begin[g + 1]; ++k)
                sum += std::min(decayed[members[k]], nr[members[k]] * kLoadScale);
        const long power = groups.power[static_cast<size_t>(g)];
        l.total_load += sum;
        l.total_pwr += power;
        const long avg = sum * kLoadScale / power;
        if (local)
            l.this_load = avg;
        else if (avg > l.max_load) {
            l.max_load = avg;
            l.group = g;
        }
    }
    return l;
}

namespace {

// Linux 2.6.9 kernel/sched.c: find_busiest_group(), with less than a task's
// load to move: whether moving one task gains an eighth of a CPU of
// throughput (pwr_move against pwr_now).
bool one_task_gains(long max_load, long this_load, long busiest_pwr, long this_pwr)
{
    long pwr_now = busiest_pwr * std::min(kLoadScale, max_load) + this_pwr * std::min(kLoadScale, this_load);
    pwr_now /= kLoadScale;
    long pwr_move = 0;
    long tmp = kLoadScale * kLoadScale / busiest_pwr;
    if (max_load > tmp)
        pwr_move += busiest_pwr * std::min(kLoadScale, max_load - tmp);
    tmp = kLoadScale * kLoadScale / this_pwr;
    if (max_load < tmp)
        tmp = max_load;
    pwr_move += this_pwr * std::min(kLoadScale, this_load + tmp);
    pwr_move /= kLoadScale;
    return pwr_move >= pwr_now + kLoadScale / 8;
}

} // namespace

DomainBalancer::Busiest DomainBalancer::find_busiest_group(PolicyView sim, const SchedDomain &sd, IdleType idle) const
{
    // Linux 2.6.9 kernel/sched.c: find_busiest_group(). Unsigned longs
    // there; every difference below is taken where it is not negative.
    const SchedDomain::Groups &groups = *sd.shared_groups;
    const GroupLoads l = group_loads(sim, sd);
    Busiest b;
    b.group = l.group;
    b.max_load = l.max_load;
    b.this_load = l.this_load;
    const auto balanced = [&] {
        // Linux 2.6.9 find_busiest_group(), out_balanced: a newly idle CPU
        // still takes one task from the busiest group, whatever its load; an
        // idle one only when that group holds more than one task's load per
        // cpu_power. (2.6.8's form asked the second of both.)
        if (b.group >= 0 && (idle == IdleType::NewIdle || (idle == IdleType::Idle && b.max_load > kLoadScale))) {
            b.imbalance = 1;
            b.out_balanced = true;
        } else
            b.group = -1;
        return b;
    };
    if (b.group < 0 || b.this_load >= b.max_load)
        return balanced();
    const long avg_load = kLoadScale * l.total_load / l.total_pwr;
    const long busiest_pwr = groups.power[static_cast<size_t>(b.group)];
    const long this_pwr = groups.power[static_cast<size_t>(sd.own_group)];
    if (b.this_load >= avg_load || 100 * b.max_load <= sd.imbalance_pct * b.this_load)
        return balanced();
    // Bring neither group past the average, in load, then in tasks for the
    // smaller group's power.
    long imb = std::min(b.max_load - avg_load, avg_load - b.this_load);
    imb = imb * std::min(busiest_pwr, this_pwr) / kLoadScale;
    if (imb >= kLoadScale - 1) {
        b.imbalance = (imb + 1) / kLoadScale; // drop the scale, rounding down
        return b;
    }
    // Less than a task's load: one task when the gap is two tasks' or more,
    // else only if that gains throughput.
    if (b.max_load - b.this_load >= kLoadScale * 2 || one_task_gains(b.max_load, b.this_load, busiest_pwr, this_pwr)) {
        b.imbalance = 1;
        return b;
    }
    return balanced();
}

int DomainBalancer::find_busiest_queue(PolicyView sim, const SchedDomain &sd, int group) const
{
    // Linux 2.6.9 kernel/sched.c: find_busiest_queue(): the group's CPU with
    // the highest source_load(), the first of equals, none (-1) if all are 0.
    const SchedDomain::Groups &groups = *sd.shared_groups;
    const int *nr = sim.nr_running_all();
    long max = 0;
    int busiest = -1;
    for (int k = groups.begin[static_cast<size_t>(group)]; k < groups.begin[static_cast<size_t>(group) + 1]; ++k) {
        const int c = groups.members[static_cast<size_t>(k)];
        if (const long load = std::min(cpu_load_[static_cast<size_t>(c)], nr[c] * kLoadScale); load > max) {
            max = load;
            busiest = c;
        }
    }
    return busiest;
}

void DomainBalancer::attach(PolicyContext sim)
{
    domains_ = build_sched_domains(sim.topology(), bp_);
    if (whole_) {
        o1_.attach(sim.topology().pu_count(), sim.model().tick_ns);
        resched_.assign(domains_.size(), 0);
    }
    // 2.6.9's runqueues start with cpu_load 0 (a static per-CPU variable).
    cpu_load_.assign(domains_.size(), 0);
    check_level_overrides(sim);
    wake_idle_level_.assign(domains_.size(), -1);
    // Levels are listed from the lowest; the first few lie inside the CPU's node.
    levels_in_node_.assign(domains_.size(), 0);
    const Topology &topo = sim.topology();
    for (size_t cpu = 0; cpu < domains_.size(); ++cpu) {
        const int node = sim.node_of_pu(static_cast<int>(cpu));
        const CpuSet all = topo.numa_count() > 0 ? topo.pus_of_node(node) : CpuSet{};
        for (const auto &sd : domains_[cpu]) {
            if (topo.numa_count() > 0 && !all.contains(sd.span))
                break;
            ++levels_in_node_[cpu];
        }
    }
    for (size_t cpu = 0; cpu < domains_.size(); ++cpu)
        for (size_t k = 0; k < domains_[cpu].size(); ++k)
            if (domains_[cpu][k].has(kSdWakeIdle)) {
                wake_idle_level_[cpu] = static_cast<int>(k);
                break;
            }
    next_balance_ns_.resize(domains_.size());
    for (size_t cpu = 0; cpu < domains_.size(); ++cpu)
        next_balance_ns_[cpu] = earliest_balance(sim, static_cast<int>(cpu));
    for (const auto &sd : domains_.at(0))
        sim.log(DecisionKind::Other, -1, 0, 0,
                "sched domain of CPU 0: " + sd.describe() + " (cache_hot_time: " + bp_.hot_origin(sd.level) + ")");
}

void DomainBalancer::check_level_overrides(PolicyView sim) const
{
    for (const auto &[level, ms] : bp_.level_hot_ms) {
        bool found = false;
        std::string have;
        for (const auto &sd : domains_.at(0))
            have += (have.empty() ? "" : ", ") + sd.level;
        for (const auto &chain : domains_)
            for (const auto &sd : chain)
                found = found || sd.level == level;
        if (!found)
            throw InputError(bp_.source, 0, BalancerParams::level_param(level),
                             "the machine '" + sim.topology().name() + "' has no " + level +
                                 " scheduling-domain level (its levels: " + (have.empty() ? "none" : have) + ")");
    }
}

ParamMap DomainBalancer::base_params() const
{
    ParamMap m;
    bp_.add_to(m);
    add_wakeup(m, wakeup_mode());
    return m;
}

bool DomainBalancer::move_task(PolicyContext sim, TaskId t, int to_cpu, int by_cpu, DecisionKind kind,
                               const std::string &why)
{
    return own_move(sim, acting_, t, to_cpu, by_cpu, kind, why);
}

int DomainBalancer::select_cpu_fork(PolicyContext sim, TaskId t)
{
    if (whole_)
        return place_new_269(sim, t);
    CpuSet region = sim.task(t).cpus_allowed;
    if (const int node = fork_node(sim, t); node != kNoNode) {
        CpuSet on_node = sim.topology().pus_of_node(node);
        on_node &= region;
        if (!on_node.empty())
            region = on_node;
    }
    // SD_BALANCE_EXEC: from the widest level down, the least loaded group:
    // the first with the lowest mean nr_running over its CPUs in the region
    // (groups outside the region skipped). Each group is read from the
    // level's flat member list and tested against the region bit by bit;
    // only the winner's intersection is built (a copy and an intersection
    // per group were most of a placement on a 1024-CPU machine). The mean is
    // the exact integer sum over the count, as a sum of doubles would give.
    int rep = region.first();
    for (int k = static_cast<int>(domains_.at(rep).size()) - 1; k >= 0; --k) {
        if (k >= static_cast<int>(domains_[rep].size()) || !domains_[rep][k].has(kSdBalanceExec))
            continue;
        const SchedDomain::Groups &groups = *domains_[rep][k].shared_groups;
        const int ngroups = static_cast<int>(groups.sizes.size());
        int best = -1;
        double best_load = 0;
        for (int g = 0; g < ngroups; ++g) {
            long sum = 0;
            int n = 0;
            for (int m = groups.begin[static_cast<size_t>(g)]; m < groups.begin[static_cast<size_t>(g) + 1]; ++m) {
                const int c = groups.members[static_cast<size_t>(m)];
                if (region.test(c)) {
                    ++n;
                    sum += sim.nr_running(c);
                }
            }
            if (n == 0)
                continue;
            const double load = static_cast<double>(sum) / n;
            if (best < 0 || load < best_load) {
                best = g;
                best_load = load;
            }
        }
        if (best >= 0) {
            CpuSet in_best = groups.sets[static_cast<size_t>(best)];
            in_best &= region;
            region = std::move(in_best);
            rep = region.first();
        }
    }
    return least_loaded_cpu(sim, region, -1);
}

double DomainBalancer::hot_age_ms(PolicyView sim, TaskId t) const
{
    const SimTime stamp = sim.task(t).last_ran_ns;
    return stamp >= 0 ? ms_since(sim, stamp) : -1;
}

void DomainBalancer::on_enqueue(PolicyContext sim, TaskId t, int from_cpu, int cpu, EnqueueKind kind)
{
    if (whole_) {
        switch (kind) {
        case EnqueueKind::New: o1_.on_new(sim, t, cpu); break;
        case EnqueueKind::Wakeup: o1_.on_wakeup(sim, t, cpu); break;
        case EnqueueKind::Migrate: o1_.on_migrate(sim, t, from_cpu, cpu); break;
        }
    }
}

int DomainBalancer::select_cpu_wakeup(PolicyContext sim, TaskId t, int waker_cpu)
{
    const Task &task = sim.task(t);
    const int prev = task.cpu;
    if (prev < 0 || !task.cpus_allowed.test(prev))
        return least_loaded_cpu(sim, task.cpus_allowed, -1);
    WakeMove m;
    m.target = prev;
    if (waker_cpu >= 0 && waker_cpu != prev && task.cpus_allowed.test(waker_cpu))
        wake_affine(sim, t, waker_cpu, m);
    wake_idle(sim, task, m);
    // The reason is written only if the decision is kept
    // (Simulation::log_lazy): most wakeups of a storm move the task.
    if (m.target != prev)
        sim.log_lazy(DecisionKind::Wakeup, t, prev, m.target,
                     [&]() -> std::string_view { return wakeup_reason(t, prev, waker_cpu, m); });
    return m.target;
}

void DomainBalancer::wake_affine(PolicyView sim, TaskId t, int waker_cpu, WakeMove &m) const
{
    // Linux 2.6.9 try_to_wake_up(): the waking CPU (this_cpu) takes the task
    // at the first of its levels that spans prev and either finds the task
    // cold (SD_WAKE_AFFINE and !task_hot, p->last_ran being when it went
    // to sleep) or prev's load over this_cpu's beyond half of imbalance_pct
    // again (SD_WAKE_BALANCE). Never off an idle prev onto a busy this_cpu.
    // The loads are source_load(prev) and target_load(this_cpu), the
    // decayed cpu_load against the current count.
    const Task &task = sim.task(t);
    const int prev = task.cpu;
    m.load = source_load(sim, prev);
    m.this_load = target_load(sim, waker_cpu);
    if (m.load < kLoadScale / 2 && m.this_load > kLoadScale / 2)
        return;
    m.ago = task.last_ran_ns >= 0 ? ms_since(sim, task.last_ran_ns) : -1;
    for (const auto &sd : domains_.at(waker_cpu)) {
        m.imbalance = sd.imbalance_pct + (sd.imbalance_pct - 100) / 2;
        m.cold = sd.has(kSdWakeAffine) && !(m.ago >= 0 && m.ago < sd.cache_hot_time_ms);
        const bool balance = sd.has(kSdWakeBalance) && m.imbalance * m.this_load <= 100 * m.load;
        if (!(m.cold || balance) || !sd.span.test(prev) || numa_preference(sim, t, prev, waker_cpu) < 0)
            continue;
        m.target = waker_cpu;
        m.affine_sd = &sd;
        return;
    }
}

void DomainBalancer::wake_idle(PolicyView sim, const Task &task, WakeMove &m) const
{
    // Linux 2.6.9 kernel/sched.c: wake_idle(): a busy target hands the task
    // to an idle CPU of its lowest level (rq->sd) when that level has
    // SD_WAKE_IDLE (SMT siblings).
    if (sim.cpu_idle(m.target) || wake_idle_level_.at(m.target) != 0)
        return;
    const SchedDomain &sd = domains_[m.target][0];
    for (int c = sd.span.first(); c >= 0; c = sd.span.next(c))
        if (c != m.target && task.cpus_allowed.test(c) && sim.cpu_idle(c)) {
            m.idle_from = m.target;
            m.target = c;
            return;
        }
}

std::string_view DomainBalancer::wakeup_reason(TaskId t, int prev, int waker_cpu, const WakeMove &m) const
{
    // Written into a scratch string that log() copies from: a storm keeps
    // tens of thousands of these, and joining the pieces with + made a
    // temporary string for each.
    thread_local std::string text;
    text.clear();
    if (m.idle_from >= 0) {
        text += "task ";
        append_int(text, t);
        text += " woken on idle CPU ";
        append_int(text, m.target);
        text += " (wake-idle, ";
        text += domains_[m.idle_from][0].level;
        text += " sibling of CPU ";
        append_int(text, m.idle_from);
        text += ")";
        return text;
    }
    if (m.affine_sd == nullptr)
        return {};
    const SchedDomain &sd = *m.affine_sd;
    text += "task ";
    append_int(text, t);
    text += " woken on the waker's CPU ";
    append_int(text, waker_cpu);
    text += m.cold ? " (wake-affine, " : " (wake-balance, ";
    text += sd.level;
    text += " level): ";
    if (m.cold) {
        text += "the task is cold, slept ";
        if (m.ago >= 0)
            append_ms(text, m.ago);
        else
            text += "since it started";
        text += " >= ";
        append_ms(text, sd.cache_hot_time_ms);
    } else {
        text += "CPU ";
        append_int(text, prev);
        text += "'s source_load ";
        append_int(text, m.load);
        text += " is at least ";
        append_int(text, m.imbalance);
        text += "% of the waker's target_load ";
        append_int(text, m.this_load);
        text += " (128 a task)";
    }
    return text;
}

void DomainBalancer::on_tick(PolicyContext sim, int cpu)
{
    // The common case, without the calls of the whole (on_tick_in_full),
    // whose register saves and restores cost more than the case itself
    // (every PU runs it on every tick): the running task's slice goes on
    // (or none runs), cpu_load moves, and no level is due. The same steps
    // in the same order as there, with slice_ended and balanced false:
    // resched_ ends at 0 either way, and settle() is not asked for.
    const auto c = static_cast<size_t>(cpu);
    balanced_busy_on_last_tick_ = false;
    if (whole_) {
        if (!o1_.tick_plain(cpu, sim.rq(cpu).current))
            return on_tick_in_full(sim, cpu);
        resched_[c] = 0;
    }
    long &load = cpu_load_[c];
    const long current = sim.nr_running(cpu) * kLoadScale;
    load = (load + (current > load ? 1 : 0) + current) / 2;
    if (acting_)
        return;
    const NextBalance &next = next_balance_ns_[c];
    if (sim.checks_each_event() || sim.now() >= next.at(sim.cpu_idle(cpu)))
        return balance_on_tick(sim, cpu);
}

void DomainBalancer::balance_on_tick(PolicyContext sim, int cpu)
{
    const IdleType idle = sim.cpu_idle(cpu) ? IdleType::Idle : IdleType::NotIdle;
    if (sim.checks_each_event()) [[unlikely]] {
        check_next_balance(sim, cpu);
        const NextBalance &next = next_balance_ns_[static_cast<size_t>(cpu)];
        if (sim.now() < next.at(idle == IdleType::Idle))
            return;
    }
    rebalance_levels(sim, cpu, idle);
    balanced_busy_on_last_tick_ = idle == IdleType::NotIdle;
    // A pass ran: as on_tick_in_full with balanced true.
    if (whole_ && sim.rq(cpu).queue.empty()) {
        o1_.settle(sim, cpu);
        resched_[static_cast<size_t>(cpu)] = 0;
    }
}

void DomainBalancer::on_tick_in_full(PolicyContext sim, int cpu)
{
    const auto c = static_cast<size_t>(cpu);
    // The runqueue is read once for the three steps below (the vector of
    // them stays put for the run; a pass moving tasks changes its contents).
    const Runqueue &rq = sim.rq(cpu);
    // Linux 2.6.9 kernel/sched.c: scheduler_tick() counts the running
    // task's slice down before rebalance_tick(); the engine asks
    // check_preempt_tick() right after, if anything else is queued.
    bool slice_ended = false;
    if (whole_) {
        slice_ended = o1_.tick(sim, cpu, rq.current);
        resched_[c] = slice_ended ? 1 : 0;
    }
    const bool balanced = rebalance_tick(sim, cpu);
    balanced_busy_on_last_tick_ = balanced && !sim.cpu_idle(cpu);
    // Nothing else queued: schedule() would switch the arrays and run the
    // expired task on (the engine does not ask when it runs alone). That
    // switch needs an expired running task: after a tick that left the
    // slice running and no balancing pass since, there is none (tick()
    // made the switch already if one was due), and settle() is skipped.
    if (whole_ && rq.queue.empty()) {
        if (slice_ended || balanced)
            o1_.settle(sim, cpu);
        resched_[c] = 0;
    }
}

bool DomainBalancer::rebalance_tick(PolicyContext sim, int cpu)
{
    // Linux 2.6.9 kernel/sched.c: rebalance_tick(): every tick, busy or
    // idle, cpu_load becomes the average of its old value and the current
    // nr_running * SCHED_LOAD_SCALE (integer division), before the levels
    // are balanced; the division rounds up while the load rises, so that it
    // reaches the current load rather than stopping one short.
    long &load = cpu_load_[static_cast<size_t>(cpu)];
    const long current = sim.nr_running(cpu) * kLoadScale;
    load = (load + (current > load ? 1 : 0) + current) / 2;
    if (acting_)
        return false;
    IdleType idle = sim.cpu_idle(cpu) ? IdleType::Idle : IdleType::NotIdle;
    const NextBalance &next = next_balance_ns_[static_cast<size_t>(cpu)];
    if (sim.checks_each_event()) [[unlikely]]
        check_next_balance(sim, cpu);
    // No level is due before the earliest of their times for this CPU's
    // state: the loop below would pass over every level (most ticks of a
    // 1024-CPU machine), so it is not run.
    if (sim.now() < next.at(idle == IdleType::Idle))
        return false;
    rebalance_levels(sim, cpu, idle);
    return true;
}

void DomainBalancer::rebalance_levels(PolicyContext sim, int cpu, IdleType idle)
{
    for (auto &sd : domains_.at(cpu)) {
        if (sim.now() - sd.last_balance_ns < balance_interval_ns(sim.model().tick_ns, sd, idle))
            continue;
        // Once work was pulled, the levels above balance as a busy CPU.
        if (load_balance(sim, cpu, sd, idle))
            idle = IdleType::NotIdle;
        sd.last_balance_ns = sim.now();
    }
    // Only this loop changes a level's last pass or interval (new-idle
    // passes leave both alone), so the kept time stays exact until it runs
    // again.
    next_balance_ns_[static_cast<size_t>(cpu)] = earliest_balance(sim, cpu);
}

NextBalance DomainBalancer::earliest_balance(PolicyView sim, int cpu) const
{
    const SimTime tick_ns = sim.model().tick_ns;
    NextBalance next{std::numeric_limits<SimTime>::max(), std::numeric_limits<SimTime>::max()};
    for (const auto &sd : domains_[static_cast<size_t>(cpu)]) {
        next.idle = std::min(next.idle, sd.last_balance_ns + balance_interval_ns(tick_ns, sd, IdleType::Idle));
        next.busy = std::min(next.busy, sd.last_balance_ns + balance_interval_ns(tick_ns, sd, IdleType::NotIdle));
    }
    return next;
}

SimTime DomainBalancer::earliest_balance_ns(PolicyView sim, int cpu, bool idle) const
{
    return earliest_balance(sim, cpu).at(idle);
}

void DomainBalancer::check_next_balance(PolicyView sim, int cpu) const
{
    check_kept_next_balance("sched-domains'", sim.now(), cpu, next_balance_ns_.at(static_cast<size_t>(cpu)),
                            earliest_balance(sim, cpu), false);
}

void DomainBalancer::on_idle(PolicyContext sim, int cpu)
{
    newidle_balance(sim, cpu);
    // Linux 2.6.9 kernel/sched.c: schedule(): when idle_balance() found
    // nothing and the idle task runs, rq->expired_timestamp is cleared.
    if (whole_ && sim.rq(cpu).current < 0 && sim.rq(cpu).queue.empty())
        o1_.on_idle(cpu);
}

void DomainBalancer::newidle_balance(PolicyContext sim, int cpu)
{
    if (acting_)
        return;
    // A newly idle pass only pulls queued tasks and changes nothing else
    // (2.6.9's load_balance_newidle): with none queued anywhere it would
    // find nothing, so it is not run. In a wakeup storm most are like that.
    if (sim.queued_tasks() == 0)
        return;
    // Likewise a level inside this CPU's node when nothing is queued on the
    // node (most passes in a storm: the queued tasks are elsewhere).
    const bool node_empty = sim.queued_on_node(sim.node_of_pu(cpu)) == 0;
    const int in_node = levels_in_node_[static_cast<size_t>(cpu)];
    int k = -1;
    for (auto &sd : domains_.at(cpu)) {
        ++k;
        if (!sd.has(kSdBalanceNewIdle) || (node_empty && k < in_node))
            continue;
        if (load_balance(sim, cpu, sd, IdleType::NewIdle))
            return;
    }
}

bool DomainBalancer::load_balance(PolicyContext sim, int cpu, SchedDomain &sd, IdleType idle)
{
    // Linux 2.6.9 kernel/sched.c: load_balance() and load_balance_newidle():
    // no busiest group or queue is a balanced level.
    const Busiest b = find_busiest(sim, cpu, sd, idle);
    if (b.group < 0 || b.cpu < 0 || b.cpu == cpu) {
        // As 2.6.9's load_balance_newidle, a new-idle pass leaves a balanced
        // level as it is (its failure count and interval belong to the
        // periodic passes).
        return idle == IdleType::NewIdle ? false : settle_balanced(sd);
    }
    return balance_from(sim, cpu, sd, idle, b);
}

bool DomainBalancer::balance_from(PolicyContext sim, int cpu, SchedDomain &sd, IdleType idle, const Busiest &b)
{
    const int busiest = b.cpu;
    const double max_avg = static_cast<double>(b.max_load) / kLoadScale;
    const double this_avg = static_cast<double>(b.this_load) / kLoadScale;
    const bool one_when_idle = b.out_balanced;
    // Most passes pull nothing and log nothing: the reason is only written
    // when a decision needs it. The lambda captures one pointer, so that the
    // std::function pull_from takes holds it without a heap allocation.
    struct Why {
        std::string text;
        const SchedDomain &sd;
        int cpu;
        IdleType idle;
        double max_avg, this_avg;
        bool one_when_idle;
    } why{{}, sd, cpu, idle, max_avg, this_avg, one_when_idle};
    const auto why_text = [w = &why]() -> const std::string & {
        std::string &text = w->text;
        if (text.empty()) {
            // "CPU 3 newly idle: load 2.0 vs 0.0 per CPU > 125% at node level"
            text.reserve(64 + w->sd.level.size());
            text += "CPU ";
            append_int(text, w->cpu);
            text += idle_words(static_cast<int>(w->idle));
            text += ": load ";
            append_fixed1(text, w->max_avg);
            text += " vs ";
            append_fixed1(text, w->this_avg);
            if (w->one_when_idle) {
                text += " per CPU, within ";
                append_int(text, w->sd.imbalance_pct);
                text += w->idle == IdleType::NewIdle ? "% but newly idle, so one task at "
                                                     : "% but over one task per CPU, so one task at ";
            } else {
                text += " per CPU > ";
                append_int(text, w->sd.imbalance_pct);
                text += "% at ";
            }
            text += w->sd.level;
            text += " level";
        }
        return text;
    };
    // Linux 2.6.9 kernel/sched.c: move_tasks() does nothing when busiest
    // runs at most one task (the queue it walks is then empty).
    const bool pulled = pull_from(sim, cpu, busiest, sd, idle, static_cast<int>(b.imbalance), why_text);
    // 2.6.9's load_balance_newidle only tries move_tasks: it neither counts
    // failures nor resets the interval, and never balances actively.
    if (idle == IdleType::NewIdle)
        return pulled;
    // Linux 2.6.9 load_balance(): an unbalanced level goes back to its
    // shortest interval whether or not the attempt moved anything.
    sd.balance_interval_ms = sd.min_interval_ms;
    if (pulled) {
        sd.nr_balance_failed = 0;
        return true;
    }
    ++sd.nr_balance_failed;
    // Linux 2.6.9 load_balance(): after more than cache_nice_tries + 2
    // failed attempts, busiest's migration thread is woken to push tasks
    // towards this CPU, and the failure count is set back to
    // cache_nice_tries (not to zero: hot tasks stay pullable next time).
    // The pass itself moved nothing; the push is active_balance's.
    if (sd.nr_balance_failed > sd.cache_nice_tries + 2) {
        sd.nr_balance_failed = sd.cache_nice_tries;
        active_balance(sim, busiest, cpu);
    }
    return false;
}

bool DomainBalancer::active_balance(PolicyContext sim, int busiest, int push_cpu)
{
    // Linux 2.6.9 active_load_balance(), run by busiest's migration thread
    // (a real-time thread woken at once, so here without delay): nothing
    // when busiest runs at most one task. Else, at busiest's lowest level
    // spanning push_cpu, every other group whose CPUs are all idle gets one
    // *queued* task (move_tasks from an IDLE pass: the running task stays)
    // on its last idle CPU, under the cache-hot rule with that level's own
    // failure count.
    if (sim.nr_running(busiest) <= 1)
        return false;
    SchedDomain *sd = nullptr;
    for (auto &d : domains_.at(busiest))
        if (d.span.test(push_cpu)) {
            sd = &d;
            break;
        }
    if (!sd)
        return false;
    const SchedDomain::Groups &groups = *sd->shared_groups;
    const int ngroups = static_cast<int>(groups.sizes.size());
    bool moved = false;
    for (int g = 0; g < ngroups; ++g) {
        if (g == sd->own_group)
            continue;
        int target = -1;
        for (int k = groups.begin[static_cast<size_t>(g)]; k < groups.begin[static_cast<size_t>(g) + 1]; ++k) {
            const int c = groups.members[static_cast<size_t>(k)];
            if (!sim.cpu_idle(c)) {
                target = -1;
                break;
            }
            target = c;
        }
        if (target < 0)
            continue;
        const std::string why = cpu_text(busiest) + "'s migration thread, active balance at " + sd->level +
                                " level (for " + cpu_text(push_cpu) + ")";
        const auto why_text = [&why]() -> const std::string & { return why; };
        moved = pull_from(sim, target, busiest, *sd, IdleType::Idle, 1, why_text) || moved;
    }
    return moved;
}

bool DomainBalancer::pull_from(PolicyContext sim, int cpu, int busiest, SchedDomain &sd, IdleType idle, int want,
                               const std::function<const std::string &()> &why)
{
    // Front = waited longest, the coldest; tasks that gain from the move
    // first. The preferences are asked once per task, not per comparison.
    // Scope::Whole: move_tasks()'s own walk of the O(1) arrays (expired
    // first, each list from its tail); else the queue in arrival order.
    if (whole_)
        o1_.move_order(sim, busiest, order_scratch_);
    const std::vector<TaskId> &queue = whole_ ? order_scratch_ : sim.rq(busiest).queue;
    // The list lives in a member between passes, so a pass allocates only
    // when a queue is longer than any seen before (taken out while in use,
    // in case a move ever re-entered the balancer).
    std::vector<std::pair<int, TaskId>> ranked = std::move(ranked_scratch_);
    ranked.clear();
    bool any_preference = false;
    const bool two_passes = numa_pull() == NumaPull::StrictFirstPass;
    for (TaskId t : queue) {
        const int pref = two_passes ? 0 : numa_preference(sim, t, busiest, cpu);
        any_preference = any_preference || pref != 0;
        ranked.emplace_back(pref, t);
    }
    if (any_preference)
        std::stable_sort(ranked.begin(), ranked.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    // Linux 2.6.9 can_migrate_task(): the cache-hot test applies to a newly
    // idle pass always, to the others while nr_balance_failed is still
    // below cache_nice_tries (later kernels pull hot tasks only once it is
    // above).
    const bool aggressive = idle != IdleType::NewIdle && sd.nr_balance_failed >= sd.cache_nice_tries;
    std::string tries;
    const auto tries_text = [&]() -> const std::string & {
        if (tries.empty())
            tries = " (" + sd.level + " level, " + std::to_string(sd.nr_balance_failed) +
                    " failed attempts, cache_nice_tries " + std::to_string(sd.cache_nice_tries) + ")";
        return tries;
    };
    int moved = 0;
    // StrictFirstPass (AutoNUMA27's two passes, numa_pull.h): pass 0 takes
    // only tasks whose node this CPU is on, pass 1 any; otherwise one pass,
    // pass 1, with AwayIsHot's refusal below.
    for (int pass = two_passes ? 0 : 1; pass < 2; ++pass)
        for (const auto &ranked_task : ranked) {
            // A plain variable, not a structured binding: the lambdas below
            // capture it (which clang before 16 refuses for a binding).
            const TaskId t = ranked_task.second;
            if (moved >= want)
                break;
            const Task &task = sim.task(t);
            if (task.cpu != busiest || !task.cpus_allowed.test(cpu))
                continue; // (the first pass took it)
            if (pass == 0 && !numa_affine(sim, t, cpu))
                continue;
            if (!two_passes && !aggressive && numa_preference(sim, t, busiest, cpu) < 0) {
                sim.log_lazy(DecisionKind::Other, t, busiest, cpu, [&] {
                    return task_text(t) + " kept on " + cpu_text(busiest) + ": " + numa_reason(sim, t) + tries_text();
                });
                continue;
            }
            const double ago = hot_age_ms(sim, t);
            const bool hot = ago >= 0 && ago < sd.cache_hot_time_ms;
            if (hot && !aggressive) {
                sim.log_lazy(DecisionKind::SkipHot, t, busiest, cpu, [&]() -> std::string_view {
                    // "task 7 skipped: cache hot, ran 0.3 ms ago < 2.5 ms" and
                    // the tries, written into a scratch string that log()
                    // copies from: most kept decisions of a storm are these.
                    thread_local std::string text;
                    text.clear();
                    text += "task ";
                    append_int(text, t);
                    text += " skipped: cache hot, ran ";
                    append_ms(text, ago);
                    text += " ago < ";
                    append_ms(text, sd.cache_hot_time_ms);
                    text += tries_text();
                    return text;
                });
                continue;
            }
            // why() + ": pulled task T from CPU B", written in place.
            const std::string &imbalance = why();
            std::string reason;
            reason.reserve(imbalance.size() + 48);
            reason += imbalance;
            reason += ": pulled task ";
            append_int(reason, t);
            reason += " from CPU ";
            append_int(reason, busiest);
            if (hot)
                reason += ", cache hot (" + ms_text(ago) + " since it ran) but balancing failed " +
                          std::to_string(sd.nr_balance_failed) + " times >= cache_nice_tries " +
                          std::to_string(sd.cache_nice_tries);
            if (move_task(sim, t, cpu, cpu, DecisionKind::Pull, reason))
                ++moved;
        }
    ranked_scratch_ = std::move(ranked);
    return moved > 0;
}

} // namespace schedscope
