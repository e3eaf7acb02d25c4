// `linux-2.5-numa`: the tick-driven NUMA scheduler of Linux 2.5.59 (2003).
// Each CPU balances within its node on the tick (often when idle, rarely
// when busy) and across nodes on a slower period, pulling from the busiest
// runqueue when the imbalance passes imbalance_pct. New tasks start on the
// least loaded node. idle_balance_mask=cpu reproduces the bug where the idle
// balancer was given the CPU's own mask instead of its node's, so that idle
// CPUs never pull work.

#include "engine/simulation.h"
#include "policies/factories.h"
#include "policies/policy_text.h"

namespace schedscope {

namespace {

// Linux 2.5.59 kernel/sched.c, at HZ=1000.
constexpr std::int64_t kIdleRebalanceTickMs = 1;   // IDLE_REBALANCE_TICK (HZ/1000)
constexpr std::int64_t kBusyRebalanceTickMs = 200; // BUSY_REBALANCE_TICK (HZ/5)
constexpr std::int64_t kNodeRebalanceTickMs = 400; // NODE_REBALANCE_TICK (2 x BUSY_REBALANCE_TICK)
constexpr std::int64_t kImbalancePct = 125;        // "at least ~25% imbalance"
// How long after it ran a task counts as cache hot for a busy CPU's pull
// (2.5's cache_decay_ticks is computed at boot from the cache size; 10 ms
// is an assumption of that order, not a parameter of the issue). Idle CPUs
// ignore it, as 2.5 did.
constexpr double kCacheDecayMs = 10.0;
constexpr std::int64_t kMaxTickMs = 3'600'000; // an hour: rejects unit typos only

struct Linux25Params {
    std::int64_t idle_tick_ms = kIdleRebalanceTickMs;
    std::int64_t busy_tick_ms = kBusyRebalanceTickMs;
    std::int64_t node_tick_ms = kNodeRebalanceTickMs;
    std::int64_t idle_node_tick_ms = 0; // 0 = off
    std::int64_t imbalance_pct = kImbalancePct;
    bool mask_is_cpu = false;
};

class Linux25NumaPolicy final : public Policy {
public:
    explicit Linux25NumaPolicy(Linux25Params p) : p_(p) {}
    std::unique_ptr<Policy> clone() const override { return std::make_unique<Linux25NumaPolicy>(*this); }
    std::string name() const override { return "linux-2.5-numa"; }
    ParamMap params() const override
    {
        return {{"idle_rebalance_tick_ms", std::to_string(p_.idle_tick_ms)},
                {"busy_rebalance_tick_ms", std::to_string(p_.busy_tick_ms)},
                {"node_rebalance_tick_ms", std::to_string(p_.node_tick_ms)},
                {"idle_node_rebalance_tick_ms", std::to_string(p_.idle_node_tick_ms)},
                {"imbalance_pct", std::to_string(p_.imbalance_pct)},
                {"idle_balance_mask", p_.mask_is_cpu ? "cpu" : "node"},
                {"wakeup", wakeup_mode() == WakeupMode::Queued ? "queued" : "locked"}};
    }

    // sched_balance_exec: the least loaded node, then its least loaded CPU.
    int select_cpu_fork(Simulation &sim, TaskId t) override
    {
        const Topology &topo = sim.topology();
        const CpuSet &allowed = sim.task(t).cpus_allowed;
        int best_node = -1;
        double best_load = 0;
        for (int n = 0; n < std::max(1, topo.numa_count()); ++n) {
            CpuSet cpus = node_cpus(topo, n);
            cpus &= allowed;
            if (cpus.empty())
                continue;
            double load = 0;
            for (int c = cpus.first(); c >= 0; c = cpus.next(c))
                load += sim.nr_running(c);
            load /= cpus.count();
            if (best_node < 0 || load < best_load) {
                best_node = n;
                best_load = load;
            }
        }
        CpuSet cpus = node_cpus(topo, best_node);
        cpus &= allowed;
        return least_loaded(sim, cpus);
    }

    // 2.5 wakes a task where it last ran: there is no wakeup balancing.
    int select_cpu_wakeup(Simulation &sim, TaskId t, int) override
    {
        const Task &task = sim.task(t);
        if (task.cpu >= 0 && task.cpus_allowed.test(task.cpu))
            return task.cpu;
        return least_loaded(sim, task.cpus_allowed);
    }

    // rebalance_tick: node balancing first, then within the node.
    void on_tick(Simulation &sim, int cpu) override
    {
        const std::int64_t j = sim.now() / sim.model().tick_ns; // jiffies
        const std::int64_t ticks_per_ms = std::max<std::int64_t>(1, 1'000'000 / sim.model().tick_ns);
        auto due = [&](std::int64_t period_ms) { return period_ms > 0 && j % (period_ms * ticks_per_ms) == 0; };
        if (sim.cpu_idle(cpu)) {
            if (due(p_.idle_node_tick_ms))
                balance_node(sim, cpu, true);
            if (due(p_.idle_tick_ms))
                load_balance(sim, cpu, true, idle_mask(sim, cpu), "idle");
            return;
        }
        if (due(p_.node_tick_ms))
            balance_node(sim, cpu, false);
        if (due(p_.busy_tick_ms))
            load_balance(sim, cpu, false, node_cpus(sim.topology(), sim.topology().node_of_pu(cpu)), "busy");
    }

    // schedule() on an empty runqueue balances as an idle CPU, same mask.
    void on_idle(Simulation &sim, int cpu) override
    {
        if (!acting_)
            load_balance(sim, cpu, true, idle_mask(sim, cpu), "newly idle");
    }

private:
    static CpuSet node_cpus(const Topology &topo, int node)
    {
        if (topo.numa_count() > 0)
            return topo.pus_of_node(node);
        CpuSet all;
        for (int c = 0; c < topo.pu_count(); ++c)
            all.set(c);
        return all;
    }

    CpuSet idle_mask(const Simulation &sim, int cpu) const
    {
        if (p_.mask_is_cpu) {
            CpuSet own;
            own.set(cpu);
            return own;
        }
        return node_cpus(sim.topology(), sim.topology().node_of_pu(cpu));
    }

    static int least_loaded(const Simulation &sim, const CpuSet &among)
    {
        int best = -1;
        for (int c = among.first(); c >= 0; c = among.next(c))
            if (best < 0 || sim.nr_running(c) < sim.nr_running(best))
                best = c;
        return best;
    }

    // find_busiest_node + load_balance over that node plus this CPU.
    void balance_node(Simulation &sim, int cpu, bool idle)
    {
        const Topology &topo = sim.topology();
        if (topo.numa_count() < 2)
            return;
        const int here = topo.node_of_pu(cpu);
        auto node_load = [&](int n) {
            const CpuSet cpus = topo.pus_of_node(n);
            double load = 0;
            for (int c = cpus.first(); c >= 0; c = cpus.next(c))
                load += sim.nr_running(c);
            return load / std::max(1, cpus.count());
        };
        const double this_load = node_load(here);
        int busiest = -1;
        double max_load = this_load;
        for (int n = 0; n < topo.numa_count(); ++n)
            if (n != here && node_load(n) > max_load) {
                busiest = n;
                max_load = node_load(n);
            }
        if (busiest < 0 || max_load * 100 <= this_load * static_cast<double>(p_.imbalance_pct))
            return;
        CpuSet mask = topo.pus_of_node(busiest);
        mask.set(cpu);
        load_balance(sim, cpu, idle, mask,
                     std::string(idle ? "idle" : "busy") + ", node balancing towards busiest " + node_text(busiest) +
                         " (" + fixed1_text(max_load) + " vs " + fixed1_text(this_load) + " per CPU)");
    }

    void load_balance(Simulation &sim, int cpu, bool idle, const CpuSet &mask, const std::string &how)
    {
        const int this_nr = sim.nr_running(cpu);
        int busiest = -1;
        for (int c = mask.first(); c >= 0; c = mask.next(c))
            if (c != cpu && (busiest < 0 || sim.nr_running(c) > sim.nr_running(busiest)))
                busiest = c;
        if (busiest < 0)
            return; // the mask holds only this CPU: nothing to pull from
        const int max_nr = sim.nr_running(busiest);
        int imbalance = (max_nr - this_nr) / 2;
        if (imbalance < 1 || max_nr * 100 <= this_nr * p_.imbalance_pct)
            return;
        std::vector<TaskId> cands = sim.rq(busiest).queue;
        for (TaskId t : cands) {
            if (imbalance <= 0)
                break;
            const Task &task = sim.task(t);
            if (!task.cpus_allowed.test(cpu))
                continue;
            const double ago = task.last_ran_ns >= 0 ? static_cast<double>(sim.now() - task.last_ran_ns) / 1e6 : -1;
            if (!idle && ago >= 0 && ago < kCacheDecayMs) {
                sim.log(DecisionKind::SkipHot, t, busiest, cpu,
                        task_text(t) + " skipped: cache hot, ran " + ms_text(ago) + " ago < " + ms_text(kCacheDecayMs));
                continue;
            }
            acting_ = true;
            const bool ok = sim.migrate_task(
                t, cpu, cpu, DecisionKind::Pull,
                cpu_text(cpu) + " " + how + ": pulled " + task_text(t) + " from " + cpu_text(busiest) + ", imbalance " +
                    std::to_string(max_nr) + " vs " + std::to_string(this_nr) + " runnable > " +
                    std::to_string(p_.imbalance_pct) + "%");
            acting_ = false;
            if (ok)
                --imbalance;
        }
    }

    Linux25Params p_;
    bool acting_ = false; // our own migration must not re-enter new-idle balancing
};

} // namespace

PolicyInfo linux25_numa_policy_info()
{
    PolicyInfo info;
    info.name = "linux-2.5-numa";
    info.description = "Linux 2.5.59 tick-driven NUMA scheduler: balance within the node on the tick, across "
                       "nodes on a slower period, exec on the least loaded node.";
    info.params = {
        {"idle_rebalance_tick_ms", std::to_string(kIdleRebalanceTickMs), "an idle CPU balances within its node this often"},
        {"busy_rebalance_tick_ms", std::to_string(kBusyRebalanceTickMs), "a busy CPU balances within its node this often"},
        {"node_rebalance_tick_ms", std::to_string(kNodeRebalanceTickMs), "a busy CPU balances across nodes this often"},
        {"idle_node_rebalance_tick_ms", "0", "an idle CPU balances across nodes this often (0 = off)"},
        {"imbalance_pct", std::to_string(kImbalancePct), "pull only when the busiest exceeds this % of our load"},
        {"idle_balance_mask", "node", "node, or cpu: the 2.5 bug where idle CPUs pass their own mask and never pull"},
    };
    info.make = [](const ParamMap &p, const std::string &source) {
        Linux25Params lp;
        lp.idle_tick_ms = param_int(p, "idle_rebalance_tick_ms", kIdleRebalanceTickMs, 1, kMaxTickMs, source);
        lp.busy_tick_ms = param_int(p, "busy_rebalance_tick_ms", kBusyRebalanceTickMs, 1, kMaxTickMs, source);
        lp.node_tick_ms = param_int(p, "node_rebalance_tick_ms", kNodeRebalanceTickMs, 1, kMaxTickMs, source);
        lp.idle_node_tick_ms = param_int(p, "idle_node_rebalance_tick_ms", 0, 0, kMaxTickMs, source);
        lp.imbalance_pct = param_int(p, "imbalance_pct", kImbalancePct, 100, 1000, source);
        lp.mask_is_cpu = param_choice(p, "idle_balance_mask", "node", {"node", "cpu"}, source) == "cpu";
        return std::make_unique<Linux25NumaPolicy>(lp);
    };
    return info;
}

} // namespace schedscope
