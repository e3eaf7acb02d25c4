// linux-2.5-numa variant=orig: Linux 2.5.59's load_balance() and the
// calls that drive it. Each rule names the 2.5.59 kernel/sched.c function
// it follows.

#include "policies/linux25_orig.h"
#include "policies/cpu_choice.h"
#include "policies/own_move.h"
#include "policies/policy_text.h"

namespace schedscope {

void Linux25Orig::on_tick(PolicyContext sim, int cpu)
{
    const std::int64_t j = sim.now() / sim.model().tick_ns; // jiffies
    const std::int64_t ticks_per_ms = std::max<std::int64_t>(1, 1'000'000 / sim.model().tick_ns);
    auto due = [&](std::int64_t period_ms) { return j % (period_ms * ticks_per_ms) == 0; };
    // Linux 2.5.59 kernel/sched.c: scheduler_tick() calls idle_tick() on an
    // idle CPU, which runs load_balance(rq, 1) when
    // jiffies % IDLE_REBALANCE_TICK == 0; on a busy CPU it runs
    // load_balance(rq, 0) when jiffies % BUSY_REBALANCE_TICK == 0.
    if (sim.cpu_idle(cpu)) {
        if (due(p_.idle_tick_ms))
            load_balance(sim, cpu, true, "idle tick");
    } else if (due(p_.busy_tick_ms)) {
        load_balance(sim, cpu, false, "busy tick");
    }
}

// Linux 2.5.59 kernel/sched.c: schedule() with !rq->nr_running calls
// load_balance(rq, 1) before falling back to the idle task; the call counts
// towards nr_balanced like any other.
void Linux25Orig::on_idle(PolicyContext sim, int cpu)
{
    if (!acting_)
        load_balance(sim, cpu, true, "newly idle");
}

Linux25Orig::RqState &Linux25Orig::state(PolicyView sim, int cpu)
{
    if (rq_.empty()) {
        rq_.resize(static_cast<size_t>(sim.topology().pu_count()));
        for (auto &st : rq_) {
            st.prev_cpu_load.assign(static_cast<size_t>(sim.topology().pu_count()), 0);
            st.prev_node_load.assign(static_cast<size_t>(std::max(1, sim.topology().numa_count())), 0);
        }
    }
    return rq_[static_cast<size_t>(cpu)];
}

// Linux 2.5.59 kernel/sched.c: find_busiest_node(). Node loads are whole
// nodes' runnable counts (node_nr_running), each decayed as
// load = prev_load / 2 + now, remembered per balancing CPU. The busiest
// other node must beat ours and carry more than NODE_THRESHOLD % of it.
int Linux25Orig::find_busiest_node(PolicyView sim, RqState &st, int this_node, int &this_load, int &max_load) const
{
    const Topology &topo = sim.topology();
    auto node_nr_running = [&](int n) {
        const CpuSet &cpus = topo.pus_of_node(n);
        int nr = 0;
        for (int c = cpus.first(); c >= 0; c = cpus.next(c))
            nr += sim.nr_running(c);
        return nr;
    };
    auto &prev = st.prev_node_load;
    this_load = prev[static_cast<size_t>(this_node)] / 2 + node_nr_running(this_node);
    prev[static_cast<size_t>(this_node)] = this_load;
    max_load = this_load;
    int node = -1;
    for (int n = 0; n < topo.numa_count(); ++n) {
        if (n == this_node)
            continue;
        const int load = prev[static_cast<size_t>(n)] / 2 + node_nr_running(n);
        prev[static_cast<size_t>(n)] = load;
        if (load > max_load && 100 * static_cast<std::int64_t>(load) > p_.node_threshold_pct * this_load) {
            max_load = load;
            node = n;
        }
    }
    return node;
}

// Linux 2.5.59 kernel/sched.c: cpus_to_balance(). Every
// NODE_BALANCE_RATE-th call (++rq->nr_balanced == NODE_BALANCE_RATE,
// then reset) looks for the busiest other node and, if there is one,
// balances over that node's CPUs plus this CPU; otherwise over this
// CPU's own node.
CpuSet Linux25Orig::cpus_to_balance(PolicyView sim, int cpu, std::string &why)
{
    const Topology &topo = sim.topology();
    RqState &st = state(sim, cpu);
    const int this_node = topo.numa_count() > 0 ? topo.node_of_pu(cpu) : 0;
    if (topo.numa_count() >= 2 && ++st.nr_balanced == p_.node_balance_rate) {
        st.nr_balanced = 0;
        int this_load = 0, max_load = 0;
        const int node = find_busiest_node(sim, st, this_node, this_load, max_load);
        if (node >= 0) {
            CpuSet mask = topo.pus_of_node(node);
            mask.set(cpu);
            why = "balance " + std::to_string(p_.node_balance_rate) + " of " + std::to_string(p_.node_balance_rate) +
                  " crosses to busiest " + node_text(node) + ", load " + std::to_string(max_load) + " > " +
                  std::to_string(p_.node_threshold_pct) + "% of " + std::to_string(this_load);
            return mask;
        }
    }
    why = "within " + node_text(this_node);
    return node_or_machine(topo, this_node);
}

// Linux 2.5.59 kernel/sched.c: load_balance() asks cpus_to_balance() for
// the CPUs to look at.
void Linux25Orig::load_balance(PolicyContext sim, int cpu, bool idle, const std::string &how)
{
    std::string why;
    const CpuSet mask = cpus_to_balance(sim, cpu, why);
    balance(sim, cpu, idle, mask, how + ", " + why);
}

// sched-2.5.59-A2 kernel/sched.c: balance_node(). find_busiest_node() as in
// 2.5.59 (decayed whole-node loads, NODE_THRESHOLD), then load_balance()
// over the busiest node's CPUs plus this one ("node_to_cpumask(node) |
// this_cpumask").
void Linux25Orig::balance_node(PolicyContext sim, int cpu, bool idle, const std::string &how)
{
    const Topology &topo = sim.topology();
    if (acting_ || topo.numa_count() < 2)
        return;
    int this_load = 0, max_load = 0;
    const int node = find_busiest_node(sim, state(sim, cpu), topo.node_of_pu(cpu), this_load, max_load);
    if (node < 0)
        return;
    CpuSet mask = topo.pus_of_node(node);
    mask.set(cpu);
    balance(sim, cpu, idle, mask,
            how + ", node balancing towards busiest " + node_text(node) + ", load " + std::to_string(max_load) + " > " +
                std::to_string(p_.node_threshold_pct) + "% of " + std::to_string(this_load));
}

// Linux 2.5.59 kernel/sched.c: load_balance() with find_busiest_queue(),
// over `mask` (the rework passes it in; 2.5.59 got it from cpus_to_balance()).
void Linux25Orig::balance(PolicyContext sim, int cpu, bool idle, const CpuSet &mask, const std::string &how)
{
    if (acting_)
        return;
    RqState &st = state(sim, cpu);
    auto &prev = st.prev_cpu_load;
    // find_busiest_queue(): our own length is the larger of now and our
    // last look (unless idle), each candidate's the smaller, so that only
    // a lasting imbalance triggers a busy pull; then remember the lengths.
    const int now_here = sim.nr_running(cpu);
    const int nr_running = (idle || now_here > prev[static_cast<size_t>(cpu)]) ? now_here
                                                                               : prev[static_cast<size_t>(cpu)];
    int busiest = -1;
    int max_load = 1; // find_busiest_queue(): a runqueue needs at least 2 to be the busiest
    for (int c = mask.first(); c >= 0; c = mask.next(c)) {
        const int now_c = sim.nr_running(c);
        const int load = (idle || now_c < prev[static_cast<size_t>(c)]) ? now_c : prev[static_cast<size_t>(c)];
        prev[static_cast<size_t>(c)] = now_c;
        if (load > max_load && c != cpu) {
            busiest = c;
            max_load = load;
        }
    }
    if (busiest < 0)
        return;
    int imbalance = (max_load - nr_running) / 2;
    // find_busiest_queue(): "It needs an at least ~25% imbalance to
    // trigger balancing" - a busy CPU needs imbalance >= (max_load+3)/4.
    if (!idle && imbalance < (max_load + 3) / 4)
        return;
    // find_busiest_queue(), after double_lock_balance(): the busiest
    // must still have at least two more than us.
    if (sim.nr_running(busiest) <= nr_running + 1)
        return;
    // load_balance(): walk the busiest runqueue's expired array first, then
    // its active one, each from its best priority and each priority's list
    // from its tail (the most recently queued); with timeslice=cfs, whose
    // queue has no arrays, from the queue's tail. Skip the tasks
    // CAN_MIGRATE_TASK refuses: running, not allowed here, or cache hot
    // (ran within cache_decay_ticks, whether or not this CPU is idle).
    std::vector<TaskId> cands; // a copy: own_move() below changes the runqueues
    if (arrays_)
        arrays_->move_order(sim, busiest, cands);
    else
        cands.assign(sim.rq(busiest).queue.rbegin(), sim.rq(busiest).queue.rend());
    for (const TaskId t : cands) {
        const Task &task = sim.task(t);
        if (!task.cpus_allowed.test(cpu))
            continue;
        const double ago = task.last_ran_ns >= 0 ? static_cast<double>(sim.now() - task.last_ran_ns) / 1e6 : -1;
        if (ago >= 0 && ago <= kLinux25CacheDecayMs) {
            sim.log_lazy(DecisionKind::SkipHot, t, busiest, cpu, [&] {
                return task_text(t) + " skipped: cache hot, ran " + ms_text(ago) +
                       " ago <= " + ms_text(kLinux25CacheDecayMs);
            });
            continue;
        }
        const bool ok = own_move(sim, acting_, t, cpu, cpu, DecisionKind::Pull,
                                 cpu_text(cpu) + " " + how + ": pulled " + task_text(t) + " from " + cpu_text(busiest) +
                                     ", " + std::to_string(max_load) + " vs " + std::to_string(nr_running) +
                                     " runnable");
        // load_balance(): "if (!idle && --imbalance)" - an idle CPU takes
        // one task, a busy one up to the imbalance.
        if (ok && (idle || --imbalance <= 0))
            break;
    }
}

} // namespace schedscope
