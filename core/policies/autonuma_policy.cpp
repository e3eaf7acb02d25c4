// `autonuma`: Andrea Arcangeli's AutoNUMA (2012) on top of a balancer:
// Linux 3.6's CFS (base=cfs, what AutoNUMA27 patched) or the 2.6 domain
// balancer (base=sched-domains). A scanner arms NUMA hinting faults over each process's memory;
// the faults feed per-task and per-process node statistics. Memory follows
// CPU: a chunk moves to the node that faulted on it migrate_threshold times
// in a row. CPU follows memory: each task prefers the node holding most of
// the memory it faulted on, the balancer favours moves towards it, a task
// moves to an idle CPU there, and when the node is full two tasks on two
// nodes are exchanged if both end closer to their memory. Every half can be
// switched off; all of it is paid for in system time.

#include "engine/simulation.h"
#include "policies/factories.h"
#include "policies/numa_base.h"
#include "policies/numa_scanner.h"
#include "policies/policy_text.h"

#include <numeric>

namespace schedscope {

namespace {

// AutoNUMA's last_nid filter migrates on the second fault in a row from the
// same node (numa_balancing keeps the same two-fault filter).
constexpr std::int64_t kDefaultMigrateThreshold = 2;
// Faults a task needs before it has a preferred node at all, so that one
// early sample does not steer it (modelling choice).
constexpr std::int64_t kMinFaultsForPreference = 4;
// A task moved for NUMA reasons stays put this long, so that two equally
// good moves cannot ping-pong (of the order of knuma_scand's 100 ms sleep).
constexpr SimTime kNumaMoveCooldownNs = 100'000'000;

struct AutoNumaParams {
    NumaBaseParams nb;
    NumaScanParams scan;
    std::int64_t migrate_threshold = kDefaultMigrateThreshold;
    bool mem_follow = true, cpu_follow = true, exchange = true;
};

const ParamTable<AutoNumaParams> &autonuma_table()
{
    static const ParamTable<AutoNumaParams> t = [] {
        ParamTable<AutoNumaParams> t;
        t.include(&AutoNumaParams::nb, numa_base_table());
        t.include(&AutoNumaParams::scan, NumaScanParams::table());
        t.integer("migrate_threshold", &AutoNumaParams::migrate_threshold, 1, 255, "faults",
                  "hinting faults in a row from one node before a chunk moves there");
        t.on_off("mem_follow", &AutoNumaParams::mem_follow, "memory follows CPU (on/off)");
        t.on_off("cpu_follow", &AutoNumaParams::cpu_follow, "CPU follows memory: preferred node per task (on/off)");
        t.on_off("exchange", &AutoNumaParams::exchange,
                 "swap two tasks on two nodes when both end closer to their memory (on/off)");
        return t;
    }();
    return t;
}

double fault_share(const Task &t, int node)
{
    const double total = static_cast<double>(
        std::accumulate(t.faults_by_node.begin(), t.faults_by_node.end(), std::int64_t{0}));
    return total > 0 && node >= 0 ? static_cast<double>(t.faults_by_node[node]) / total : 0.0;
}

std::string pct_text(double share) { return std::to_string(static_cast<int>(share * 100 + 0.5)) + "%"; }

template <class Base> class AutoNumaPolicy final : public Base {
public:
    template <class BaseParams>
    AutoNumaPolicy(BaseParams bp, AutoNumaParams p) : Base(std::move(bp)), p_(p), scanner_(p.scan)
    {
    }
    std::unique_ptr<Policy> clone() const override { return std::make_unique<AutoNumaPolicy>(*this); }
    std::string name() const override { return "autonuma"; }
    ParamMap params() const override { return policy_params(autonuma_table(), p_, this->wakeup_mode()); }

    void attach(Simulation &sim) override
    {
        Base::attach(sim);
        last_nid_.assign(sim.processes().size(), {});
        streak_.assign(sim.processes().size(), {});
        for (size_t p = 0; p < sim.processes().size(); ++p) {
            last_nid_[p].assign(sim.processes()[p].chunk_node.size(), kNoNode);
            streak_[p].assign(sim.processes()[p].chunk_node.size(), 0);
        }
        last_numa_move_ns_.assign(sim.tasks().size(), -kNumaMoveCooldownNs);
    }

    void on_tick(Simulation &sim, int cpu) override
    {
        Base::on_tick(sim, cpu);
        if (cpu == 0)
            scanner_.tick(sim, [&](ProcId p) { decay(sim, p); });
        if (p_.cpu_follow && !this->acting())
            follow_memory(sim, cpu);
    }

    void on_hinting_fault(Simulation &sim, TaskId t, int chunk, int node) override
    {
        const Task &task = sim.task(t);
        scanner_.after_fault(sim, task.proc, chunk);
        if (p_.cpu_follow)
            update_preference(sim, t);
        if (p_.mem_follow)
            follow_cpu(sim, task, chunk, node);
    }

protected:
    int numa_preference(const Simulation &sim, TaskId t, int from_cpu, int to_cpu) const override
    {
        const int pref = sim.task(t).preferred_node;
        if (!p_.cpu_follow || pref == kNoNode)
            return 0;
        const int from = sim.topology().node_of_pu(from_cpu), to = sim.topology().node_of_pu(to_cpu);
        if (to == pref && from != pref)
            return 1;
        if (from == pref && to != pref)
            return -1;
        return 0;
    }
    std::string numa_reason(const Simulation &sim, TaskId t) const override
    {
        const Task &task = sim.task(t);
        return "it prefers " + node_text(task.preferred_node) + " (" +
               pct_text(fault_share(task, task.preferred_node)) + " of its hinting faults hit memory there)";
    }

private:
    // Statistics halve once per full scan, so they follow a changing workload.
    void decay(Simulation &sim, ProcId p)
    {
        Process &proc = sim.process_mut(p);
        for (auto &f : proc.faults_by_node)
            f /= 2;
        for (TaskId t : proc.tasks)
            for (auto &f : sim.task_mut(t).faults_by_node)
                f /= 2;
    }

    void update_preference(Simulation &sim, TaskId t)
    {
        const Task &task = sim.task(t);
        const auto &f = task.faults_by_node;
        if (std::accumulate(f.begin(), f.end(), std::int64_t{0}) < kMinFaultsForPreference)
            return;
        const int best = static_cast<int>(std::max_element(f.begin(), f.end()) - f.begin());
        const int old = task.preferred_node;
        if (best == old || (old != kNoNode && f[best] <= f[old]))
            return;
        sim.task_mut(t).preferred_node = best;
        sim.log(DecisionKind::PreferNode, t, old, best,
                task_text(t) + " prefers " + node_text(best) + ": " + pct_text(fault_share(task, best)) +
                    " of its recent hinting faults hit memory there");
    }

    // Memory follows CPU, behind the consecutive-fault filter.
    void follow_cpu(Simulation &sim, const Task &task, int chunk, int node)
    {
        const Process &proc = sim.processes()[task.proc];
        auto &last = last_nid_.at(task.proc);
        auto &streak = streak_.at(task.proc);
        if (last[chunk] == node) {
            if (streak[chunk] < 255)
                ++streak[chunk];
        } else {
            last[chunk] = static_cast<std::int16_t>(node);
            streak[chunk] = 1;
        }
        const int where = proc.chunk_node[chunk];
        if (where == node || streak[chunk] < p_.migrate_threshold)
            return;
        streak[chunk] = 0;
        sim.migrate_chunk(task.proc, chunk, node, task.cpu,
                          "chunk " + std::to_string(chunk) + " of " + proc.name + " moved " + node_text(where) +
                              " -> " + node_text(node) + ": " + std::to_string(p_.migrate_threshold) +
                              " hinting faults in a row from " + node_text(node) + " (migrate_threshold " +
                              std::to_string(p_.migrate_threshold) + ")");
    }

    // CPU follows memory: to an idle CPU of the preferred node, or by exchange.
    void follow_memory(Simulation &sim, int cpu)
    {
        const TaskId a = sim.rq(cpu).current;
        if (a < 0)
            return;
        const Task &ta = sim.task(a);
        const Topology &topo = sim.topology();
        const int want = ta.preferred_node, here = topo.node_of_pu(cpu);
        if (want == kNoNode || want == here || sim.now() - last_numa_move_ns_.at(a) < kNumaMoveCooldownNs)
            return;
        CpuSet there = topo.pus_of_node(want);
        there &= ta.cpus_allowed;
        for (int c = there.first(); c >= 0; c = there.next(c)) {
            if (!sim.cpu_idle(c))
                continue;
            if (this->move_task(sim, a, c, cpu, DecisionKind::PreferNode,
                                task_text(a) + " moved to idle " + cpu_text(c) + " on its preferred " +
                                    node_text(want) + " (" + pct_text(fault_share(ta, want)) +
                                    " of its faults there, " + pct_text(fault_share(ta, here)) + " on " +
                                    node_text(here) + ")"))
                last_numa_move_ns_[a] = sim.now();
            return;
        }
        if (!p_.exchange)
            return;
        // Every CPU there is busy: swap with a task that is better off here.
        const double gain_a = fault_share(ta, want) - fault_share(ta, here);
        int best_cpu = -1;
        double best_gain = 0;
        for (int c = there.first(); c >= 0; c = there.next(c)) {
            const TaskId b = sim.rq(c).current;
            if (b < 0 || !sim.task(b).cpus_allowed.test(cpu) ||
                sim.now() - last_numa_move_ns_.at(b) < kNumaMoveCooldownNs)
                continue;
            const double gain_b = fault_share(sim.task(b), here) - fault_share(sim.task(b), want);
            if (gain_a > 0 && gain_b > 0 && gain_a + gain_b > best_gain) {
                best_cpu = c;
                best_gain = gain_a + gain_b;
            }
        }
        if (best_cpu < 0)
            return;
        const TaskId b = sim.rq(best_cpu).current;
        const std::string why = "exchange: " + task_text(a) + " (" + pct_text(fault_share(ta, want)) +
                                " of its faults on " + node_text(want) + ") and " + task_text(b) + " (" +
                                pct_text(fault_share(sim.task(b), here)) + " on " + node_text(here) +
                                ") swap, every CPU of " + node_text(want) + " is busy";
        if (this->move_task(sim, a, best_cpu, cpu, DecisionKind::Exchange, why)) {
            this->move_task(sim, b, cpu, cpu, DecisionKind::Exchange, why);
            last_numa_move_ns_[a] = last_numa_move_ns_[b] = sim.now();
        }
    }

    AutoNumaParams p_;
    NumaScanner scanner_;
    std::vector<std::vector<std::int16_t>> last_nid_; // per process and chunk: node of the last fault
    std::vector<std::vector<std::uint8_t>> streak_;   // per process and chunk: faults in a row from it
    std::vector<SimTime> last_numa_move_ns_;          // per task
};

} // namespace

PolicyInfo autonuma_policy_info()
{
    return policy_info<AutoNumaParams>(
        "autonuma",
        "AutoNUMA (2012): hinting-fault scanner, memory follows CPU, CPU follows memory and task exchange between "
        "nodes, over Linux 3.6's CFS balancer (base=cfs) or the 2.6 domain balancer (base=sched-domains).",
        autonuma_table(), [](const AutoNumaParams &p) { return make_on_numa_base<AutoNumaPolicy>(p.nb, p); });
}

} // namespace schedscope
