// `autonuma`: Andrea Arcangeli's AutoNUMA (2012) on top of a balancer:
// Linux 3.6's CFS (base=cfs, what AutoNUMA27 patched) or the 2.6 domain
// balancer (base=sched-domains). knuma_scand (numa_scanner.h) arms NUMA
// hinting faults over each process's memory, page by page, and counts where
// its pages are (the per-process statistics); the faults feed the per-task
// ones. Memory follows CPU: a chunk that faulted migrate_threshold times in
// a row from one node is queued for that node's knuma_migrated
// (knuma_migrated.h). CPU follows memory: each task prefers the node
// holding most of the memory it faulted on, the balancer favours moves
// towards it, a task moves to an idle CPU there when both its own and its
// process's statistics favour it, and when the node is full two tasks on two
// nodes are exchanged if both end closer to their memory. Every half can be
// switched off; all of it is paid for in system time.

#include "engine/simulation.h"
#include "policies/factories.h"
#include "policies/knuma_migrated.h"
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
    KnumaMigratedParams migrated;
    std::int64_t migrate_threshold = kDefaultMigrateThreshold;
    bool mem_follow = true, cpu_follow = true, exchange = true;
};

const ParamTable<AutoNumaParams> &autonuma_table()
{
    static const ParamTable<AutoNumaParams> t = [] {
        ParamTable<AutoNumaParams> t;
        t.include(&AutoNumaParams::nb, numa_base_table());
        t.include(&AutoNumaParams::scan, NumaScanParams::table());
        t.include(&AutoNumaParams::migrated, KnumaMigratedParams::table());
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

// Statistics by node: a task's hinting faults by the node of the memory it
// faulted on; a process's pages by the node they are on, as the scanner last
// counted them.
using NodeFaults = std::vector<std::int64_t>;

double fault_share(const NodeFaults &f, int node)
{
    const double total = static_cast<double>(std::accumulate(f.begin(), f.end(), std::int64_t{0}));
    return total > 0 && node >= 0 ? static_cast<double>(f[static_cast<size_t>(node)]) / total : 0.0;
}

std::string pct_text(double share) { return std::to_string(static_cast<int>(share * 100 + 0.5)) + "%"; }

template <class Base> class AutoNumaPolicy final : public Base {
public:
    template <class BaseParams>
    AutoNumaPolicy(BaseParams bp, AutoNumaParams p)
        : Base(std::move(bp)), p_(p), scanner_(p.scan), knuma_migrated_(p.migrated)
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
        const auto nodes = static_cast<size_t>(std::max(1, sim.topology().numa_count()));
        task_faults_.assign(sim.tasks().size(), NodeFaults(nodes, 0));
        mm_pages_.assign(sim.processes().size(), NodeFaults(nodes, 0));
        preferred_.assign(sim.tasks().size(), kNoNode);
    }

    int preferred_node(const Simulation &, TaskId t) const override
    {
        return t >= 0 && t < static_cast<TaskId>(preferred_.size()) ? preferred_[static_cast<size_t>(t)] : kNoNode;
    }

    void on_tick(Simulation &sim, int cpu) override
    {
        Base::on_tick(sim, cpu);
        if (cpu == 0) {
            scanner_.tick(sim, [&](ProcId p) { full_pass(sim, p); });
            knuma_migrated_.tick(sim, scanner_,
                                 std::to_string(p_.migrate_threshold) +
                                     " hinting faults in a row from there (migrate_threshold)");
        }
        if (p_.cpu_follow && !this->acting())
            follow_memory(sim, cpu);
    }

    void on_hinting_fault(Simulation &sim, TaskId t, int chunk, int node) override
    {
        const Task &task = sim.task(t);
        // AutoNUMA27 numa_hinting_fault_cpu_follow_memory(): counted by the
        // node of the page.
        ++task_faults_[static_cast<size_t>(t)][static_cast<size_t>(sim.processes()[task.proc].chunk_node[chunk])];
        scanner_.on_fault(sim, t, chunk);
        if (p_.cpu_follow)
            update_preference(sim, t);
        if (p_.mem_follow)
            follow_cpu(sim, task, chunk, node);
    }

protected:
    int numa_preference(const Simulation &sim, TaskId t, int from_cpu, int to_cpu) const override
    {
        const int pref = preferred_node(sim, t);
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
        const int pref = preferred_node(sim, t);
        return "it prefers " + node_text(pref) + " (" + pct_text(fault_share(faults(t), pref)) +
               " of its hinting faults hit memory there)";
    }

private:
    // A full scan of process p: its threads' statistics halve, so they
    // follow a changing workload (AutoNUMA27 cpu_follow_memory_pass()), and
    // its own are replaced by where the scan found its pages
    // (mm_numa_fault_tmp_flush()).
    void full_pass(const Simulation &sim, ProcId p)
    {
        const Process &proc = sim.processes()[p];
        NodeFaults &mm = mm_pages_[static_cast<size_t>(p)];
        for (size_t n = 0; n < mm.size() && n < proc.chunks_on_node.size(); ++n)
            mm[n] = proc.chunks_on_node[n];
        for (TaskId t : proc.tasks)
            for (auto &f : task_faults_[static_cast<size_t>(t)])
                f /= 2;
    }

    const NodeFaults &mm_pages(ProcId p) const { return mm_pages_[static_cast<size_t>(p)]; }

    const NodeFaults &faults(TaskId t) const { return task_faults_[static_cast<size_t>(t)]; }

    void update_preference(Simulation &sim, TaskId t)
    {
        const NodeFaults &f = faults(t);
        if (std::accumulate(f.begin(), f.end(), std::int64_t{0}) < kMinFaultsForPreference)
            return;
        const int best = static_cast<int>(std::max_element(f.begin(), f.end()) - f.begin());
        const int old = preferred_[static_cast<size_t>(t)];
        if (best == old || (old != kNoNode && f[best] <= f[old]))
            return;
        preferred_[static_cast<size_t>(t)] = best;
        sim.log(DecisionKind::PreferNode, t, old, best,
                task_text(t) + " prefers " + node_text(best) + ": " + pct_text(fault_share(f, best)) +
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
            // AutoNUMA19 last_nid_set(): a fault from another node takes a
            // queued page off knuma_migrated's list.
            last[chunk] = static_cast<std::int16_t>(node);
            streak[chunk] = 1;
            knuma_migrated_.cancel(task.proc, chunk);
        }
        const int where = proc.chunk_node[chunk];
        if (where == node || streak[chunk] < p_.migrate_threshold)
            return;
        streak[chunk] = 0;
        knuma_migrated_.queue(sim, task.proc, chunk, node);
    }

    // CPU follows memory: to an idle CPU of the preferred node, or by exchange.
    void follow_memory(Simulation &sim, int cpu)
    {
        const TaskId a = sim.rq(cpu).current;
        if (a < 0)
            return;
        const Task &ta = sim.task(a);
        const Topology &topo = sim.topology();
        const int want = preferred_[static_cast<size_t>(a)], here = topo.node_of_pu(cpu);
        if (want == kNoNode || want == here || sim.now() - last_numa_move_ns_.at(a) < kNumaMoveCooldownNs)
            return;
        // AutoNUMA (2012) kernel/sched/numa.c sched_autonuma_balance(): a
        // task still missing its process's statistics stays; to an idle CPU
        // only if both the thread's and the process's statistics favour the
        // node.
        const NodeFaults &mm_a = mm_pages(ta.proc);
        if (std::accumulate(mm_a.begin(), mm_a.end(), std::int64_t{0}) == 0)
            return;
        const bool mm_favours = fault_share(mm_a, want) > fault_share(mm_a, here);
        CpuSet there = topo.pus_of_node(want);
        there &= ta.cpus_allowed;
        for (int c = there.first(); c >= 0 && mm_favours; c = there.next(c)) {
            if (!sim.cpu_idle(c))
                continue;
            if (this->move_task(sim, a, c, cpu, DecisionKind::PreferNode,
                                task_text(a) + " moved to idle " + cpu_text(c) + " on its preferred " +
                                    node_text(want) + " (" + pct_text(fault_share(faults(a), want)) +
                                    " of its faults there, " + pct_text(fault_share(faults(a), here)) + " on " +
                                    node_text(here) + ")"))
                last_numa_move_ns_[a] = sim.now();
            return;
        }
        if (!p_.exchange)
            return;
        // Every CPU there is busy: swap with a task that is better off here.
        // sched_autonuma_balance(): a thread of the same process is weighed
        // by both threads' statistics, one of another process by both
        // processes'.
        int best_cpu = -1;
        double best_gain = 0;
        for (int c = there.first(); c >= 0; c = there.next(c)) {
            const TaskId b = sim.rq(c).current;
            if (b < 0 || !sim.task(b).cpus_allowed.test(cpu) ||
                sim.now() - last_numa_move_ns_.at(b) < kNumaMoveCooldownNs)
                continue;
            const bool same_mm = sim.task(b).proc == ta.proc;
            const NodeFaults &wa = same_mm ? faults(a) : mm_a;
            const NodeFaults &wb = same_mm ? faults(b) : mm_pages(sim.task(b).proc);
            const double gain_a = fault_share(wa, want) - fault_share(wa, here);
            const double gain_b = fault_share(wb, here) - fault_share(wb, want);
            if (gain_a > 0 && gain_b > 0 && gain_a + gain_b > best_gain) {
                best_cpu = c;
                best_gain = gain_a + gain_b;
            }
        }
        if (best_cpu < 0)
            return;
        const TaskId b = sim.rq(best_cpu).current;
        const std::string why = "exchange: " + task_text(a) + " (" + pct_text(fault_share(faults(a), want)) +
                                " of its faults on " + node_text(want) + ") and " + task_text(b) + " (" +
                                pct_text(fault_share(faults(b), here)) + " on " + node_text(here) +
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
    std::vector<NodeFaults> task_faults_;             // per task, halved every full scan
    std::vector<NodeFaults> mm_pages_;                // per process: its pages by node at its last full scan
    KnumaMigrated knuma_migrated_;
    std::vector<int> preferred_; // per task: its preferred node, or kNoNode
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
