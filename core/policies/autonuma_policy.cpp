// `autonuma`: Andrea Arcangeli's AutoNUMA27 (October 2012) on top of a
// balancer: Linux 3.6's CFS (base=cfs, what AutoNUMA27 patched) or the 2.6
// domain balancer (base=sched-domains). knuma_scand (numa_scanner.h) arms
// NUMA hinting faults over the processes' memory, one process after the
// other, and counts where each process's pages are (the per-process
// statistics); the faults feed the per-task ones. Memory follows CPU: a page
// whose fault passes the last_nid filter migrates to the faulting node in
// the fault (migrate_on_fault.h). CPU follows memory: each CPU's running
// task is weighed against the running tasks of the other nodes, by both
// threads' statistics when they share a process and by both processes'
// otherwise, and the two are exchanged when that moves the task where it is
// more at home than the other task is; CFS then keeps each task on the node
// chosen for it. Every half can be switched off; all of it is paid for in
// system time.

#include "engine/policy_actions.h"
#include "engine/simulation.h"
#include "policies/factories.h"
#include "policies/migrate_on_fault.h"
#include "policies/numa_base.h"
#include "policies/numa_scanner.h"
#include "policies/policy_text.h"

#include <numeric>

namespace schedscope {

namespace {

// AutoNUMA27 last_nid_set(): a page migrates on a fault from the node of
// its previous fault (or its first fault); migrate_threshold generalises
// the two in a row.
constexpr std::int64_t kDefaultMigrateThreshold = 2;
// AutoNUMA27 kernel/sched/numa.c AUTONUMA_BALANCE_SCALE: the weights are
// per-mille shares of a task's or a process's faults.
constexpr std::int64_t kBalanceScale = 1000;

struct AutoNumaParams {
    NumaBaseParams nb;
    NumaScanParams scan;
    MigrateRateParams migrate;
    std::int64_t migrate_threshold = kDefaultMigrateThreshold;
    bool mem_follow = true, cpu_follow = true, exchange = true;
};

const ParamTable<AutoNumaParams> &autonuma_table()
{
    static const ParamTable<AutoNumaParams> t = [] {
        ParamTable<AutoNumaParams> t;
        t.include(&AutoNumaParams::nb, numa_base_table());
        t.include(&AutoNumaParams::scan, NumaScanParams::table());
        t.include(&AutoNumaParams::migrate, MigrateRateParams::table());
        t.integer("migrate_threshold", &AutoNumaParams::migrate_threshold, 1, 255, "faults",
                  "hinting faults in a row from one node before a page moves there");
        t.on_off("mem_follow", &AutoNumaParams::mem_follow, "memory follows CPU (on/off)");
        t.on_off("cpu_follow", &AutoNumaParams::cpu_follow,
                 "CPU follows memory: each task's chosen node, kept by the balancer (on/off)");
        t.on_off("exchange", &AutoNumaParams::exchange,
                 "swap two running tasks on two nodes when the one moves where it is more at home than the other "
                 "(on/off)");
        return t;
    }();
    return t;
}

// Statistics by node: a task's hinting faults by node; a process's pages by
// the node they are on, as the scanner last counted them.
using NodeFaults = std::vector<std::int64_t>;

std::int64_t total(const NodeFaults &f) { return std::accumulate(f.begin(), f.end(), std::int64_t{0}); }

// AutoNUMA27 __sched_autonuma_balance(): fault * AUTONUMA_BALANCE_SCALE / tot.
std::int64_t weight(const NodeFaults &f, int node)
{
    const std::int64_t tot = total(f);
    return tot > 0 && node >= 0 ? f[static_cast<size_t>(node)] * kBalanceScale / tot : 0;
}

// The node of the largest weight, the first on a tie; kNoNode if all are 0.
int heaviest(const NodeFaults &f)
{
    int best = kNoNode;
    std::int64_t max = 0;
    for (int n = 0; n < static_cast<int>(f.size()); ++n)
        if (weight(f, n) > max) {
            max = weight(f, n);
            best = n;
        }
    return best;
}

std::string permille_text(std::int64_t w) { return std::to_string((w + 5) / 10) + "%"; }

template <class Base> class AutoNumaPolicy final : public Base {
public:
    template <class BaseParams>
    AutoNumaPolicy(BaseParams bp, AutoNumaParams p) : Base(std::move(bp)), p_(p), scanner_(p.scan), rate_(p.migrate)
    {
    }
    std::unique_ptr<Policy> clone() const override { return std::make_unique<AutoNumaPolicy>(*this); }
    std::string name() const override { return "autonuma"; }
    ParamMap params() const override { return policy_params(autonuma_table(), p_, this->wakeup_mode()); }

    void attach(PolicyContext sim) override
    {
        Base::attach(sim);
        last_nid_.assign(sim.processes().size(), {});
        streak_.assign(sim.processes().size(), {});
        for (size_t p = 0; p < sim.processes().size(); ++p) {
            last_nid_[p].assign(sim.processes()[p].chunk_node.size(), kNoNode);
            streak_[p].assign(sim.processes()[p].chunk_node.size(), 0);
        }
        const auto nodes = static_cast<size_t>(std::max(1, sim.topology().numa_count()));
        task_faults_.assign(sim.tasks().size(), NodeFaults(nodes, 0));
        mm_pages_.assign(sim.processes().size(), NodeFaults(nodes, 0));
        selected_.assign(sim.tasks().size(), kNoNode);
    }

    // task_selected_nid: the node the balance chose for the task, which CFS
    // keeps it on (kNoNode until it has statistics).
    int preferred_node(PolicyView, TaskId t) const override
    {
        return t >= 0 && t < static_cast<TaskId>(selected_.size()) ? selected_[static_cast<size_t>(t)] : kNoNode;
    }

    void on_tick(PolicyContext sim, int cpu) override
    {
        Base::on_tick(sim, cpu);
        if (cpu == 0)
            scanner_.tick(
                sim, [&](ProcId p) { new_pass(sim, p); }, [&](ProcId p) { full_pass(sim, p); });
        // AutoNUMA27 run_rebalance_domains(): after rebalance_domains(),
        // sched_autonuma_balance() for the running task, unless the CPU
        // balanced as idle; so at the pace of the periodic balancing
        // softirq of a busy CPU, not every tick.
        if (p_.cpu_follow && !this->acting() && this->balanced_busy_on_last_tick())
            balance(sim, cpu);
    }

    void on_hinting_fault(PolicyContext sim, TaskId t, int chunk, int node) override
    {
        const Task &task = sim.task(t);
        scanner_.on_fault(sim, t, chunk);
        const int page_nid = sim.processes()[task.proc].chunk_node[chunk];
        // AutoNUMA27 numa_hinting_fault(): the fault counts for the node the
        // page is on after it, the faulting node if it migrated.
        const bool migrated = p_.mem_follow && follow_cpu(sim, task, chunk, node);
        ++task_faults_[static_cast<size_t>(t)][static_cast<size_t>(migrated ? node : page_nid)];
    }

protected:
    // The balancer's two passes, AutoNUMA27's (numa_pull.h); the first
    // takes a task only to a CPU of the node chosen for it. AutoNUMA27
    // kernel/sched/fair.c can_migrate_task() asks kernel/sched/numa.c
    // sched_autonuma_can_migrate_task(), which passes any task for which
    // task_autonuma_cpu() holds (include/linux/autonuma_sched.h: no
    // task_selected_nid yet, or the destination CPU is on it); numa_affine()
    // is that test. On the strict LBF_NUMA pass nothing else passes; on the
    // second pass everything does, as load_balance_strict is off by default.
    NumaPull numa_pull() const override { return NumaPull::StrictFirstPass; }
    bool numa_affine(PolicyView sim, TaskId t, int cpu) const override
    {
        const int sel = preferred_node(sim, t);
        return !p_.cpu_follow || sel == kNoNode || sim.topology().node_of_pu(cpu) == sel;
    }

private:
    // A new pass over process p: its threads' statistics halve, so they
    // follow a changing workload. AutoNUMA27 (PATCH 19/33, 4 October 2012)
    // mm/autonuma.c numa_hinting_fault() calls cpu_follow_memory_pass() at
    // each thread's first fault of the pass (task_numa_fault_pass behind
    // mm_numa_fault_pass). The model differs: it halves every thread of
    // the process as the walk of the process starts, so a thread that takes
    // no fault in a pass is halved here but not in the kernel, and the
    // others are halved up to one walk earlier.
    void new_pass(PolicyView sim, ProcId p)
    {
        for (TaskId t : sim.processes()[p].tasks)
            for (auto &f : task_faults_[static_cast<size_t>(t)])
                f /= 2;
    }

    // The walk of p is over: its statistics are where the walk found its
    // pages (mm_numa_fault_tmp_flush()).
    void full_pass(PolicyView sim, ProcId p)
    {
        const Process &proc = sim.processes()[p];
        NodeFaults &mm = mm_pages_[static_cast<size_t>(p)];
        for (size_t n = 0; n < mm.size() && n < proc.chunks_on_node.size(); ++n)
            mm[n] = proc.chunks_on_node[n];
    }

    const NodeFaults &mm_pages(ProcId p) const { return mm_pages_[static_cast<size_t>(p)]; }

    const NodeFaults &faults(TaskId t) const { return task_faults_[static_cast<size_t>(t)]; }

    // Memory follows CPU: AutoNUMA27 numa_hinting_fault_memory_follow_cpu().
    // The last_nid filter passes a fault from the node of the page's last
    // fault, or its first; the page then migrates in the fault, if the
    // node's rate limit allows. True if it migrated.
    bool follow_cpu(PolicyContext sim, const Task &task, int chunk, int node)
    {
        const Process &proc = sim.processes()[task.proc];
        auto &last = last_nid_.at(task.proc);
        auto &streak = streak_.at(task.proc);
        const bool first = last[chunk] == kNoNode;
        if (last[chunk] == node) {
            if (streak[chunk] < 255)
                ++streak[chunk];
        } else {
            last[chunk] = static_cast<std::int16_t>(node);
            streak[chunk] = 1;
        }
        const int where = proc.chunk_node[chunk];
        if (where == node || (!first && streak[chunk] < p_.migrate_threshold))
            return false;
        const auto &model = sim.model();
        const std::int64_t pages = std::max<std::int64_t>(1, model.chunk_bytes / model.page_bytes);
        if (!rate_.admit(sim, node, pages))
            return false;
        const std::string why = "chunk " + std::to_string(chunk) + " of " + proc.name + " moved " + node_text(where) +
                                " -> " + node_text(node) + " on fault: " +
                                (first ? std::string("its first hinting fault")
                                       : std::to_string(p_.migrate_threshold) + " hinting faults in a row") +
                                " from there (migrate_threshold)";
        if (!PolicyActions::migrate_pages(sim, task.proc, chunk, node, task.cpu, scanner_.grain(task.proc, chunk), why))
            return false;
        scanner_.note_migrated(task.proc, chunk);
        return true;
    }

    // CPU follows memory: AutoNUMA27 kernel/sched/numa.c
    // __sched_autonuma_balance(), for the task running on `cpu`.
    void balance(PolicyContext sim, int cpu)
    {
        const TaskId a = sim.rq(cpu).current;
        if (a < 0)
            return;
        const Task &ta = sim.task(a);
        if (sim.processes()[ta.proc].kernel)
            return; // a kernel thread has no mm
        const Topology &topo = sim.topology();
        const int here = topo.node_of_pu(cpu);
        int &selected = selected_[static_cast<size_t>(a)];
        // Until its process has been scanned once and it has faulted, a task
        // is kept where it is, so that it does not bounce around.
        const NodeFaults &mm_a = mm_pages(ta.proc), &task_a = faults(a);
        if (total(mm_a) == 0 || total(task_a) == 0) {
            selected = here;
            return;
        }
        // Converged here by both its own and its process's statistics.
        if (heaviest(task_a) == here && heaviest(mm_a) == here) {
            selected = here;
            return;
        }
        // Against the running task of every CPU of every other node: by the
        // threads' statistics within a process, by the processes' across
        // two. The task takes a node where it is more at home than the task
        // running there is (other_diff) and than it is here (this_diff);
        // the largest sum wins. Idle CPUs are CFS's business.
        int best_cpu = kNoCpu, best_nid = here;
        std::int64_t best_diff = 0, best_w_nid = 0, best_w_other = 0;
        for (int nid = 0; p_.exchange && nid < topo.numa_count(); ++nid) {
            if (nid == here)
                continue;
            CpuSet there = topo.pus_of_node(nid);
            there &= ta.cpus_allowed;
            for (int c = there.first(); c >= 0; c = there.next(c)) {
                if (sim.cpu_idle(c))
                    continue;
                const TaskId b = sim.rq(c).current;
                if (b < 0 || sim.processes()[sim.task(b).proc].kernel)
                    continue;
                const bool same_mm = sim.task(b).proc == ta.proc;
                const NodeFaults &wb = same_mm ? faults(b) : mm_pages(sim.task(b).proc);
                if (total(wb) == 0 || !sim.task(b).cpus_allowed.test(cpu))
                    continue;
                const NodeFaults &wa = same_mm ? task_a : mm_a;
                const std::int64_t w_nid = weight(wa, nid), w_other = weight(wb, nid);
                const std::int64_t other_diff = w_nid - w_other, this_diff = w_nid - weight(wa, here);
                if (other_diff > 0 && this_diff > 0 && other_diff + this_diff > best_diff) {
                    best_diff = other_diff + this_diff;
                    best_cpu = c;
                    best_nid = nid;
                    best_w_nid = w_nid;
                    best_w_other = w_other;
                }
            }
        }
        selected = best_nid;
        if (best_cpu == kNoCpu)
            return;
        const TaskId b = sim.rq(best_cpu).current;
        const bool same_mm = sim.task(b).proc == ta.proc;
        const std::string why = "exchange: " + task_text(a) + " is " + permille_text(best_w_nid) + " at home on " +
                                node_text(best_nid) + ", " + task_text(b) + " running there " +
                                permille_text(best_w_other) + " (" + (same_mm ? "threads'" : "processes'") +
                                " hinting-fault statistics)";
        if (this->move_task(sim, a, best_cpu, cpu, DecisionKind::Exchange, why))
            this->move_task(sim, b, cpu, cpu, DecisionKind::Exchange, why);
    }

    AutoNumaParams p_;
    NumaScanner scanner_;
    MigrateRateLimit rate_;
    std::vector<std::vector<std::int16_t>> last_nid_; // per process and chunk: node of the last fault
    std::vector<std::vector<std::uint8_t>> streak_;   // per process and chunk: faults in a row from it
    std::vector<NodeFaults> task_faults_;             // per task, halved at every new pass
    std::vector<NodeFaults> mm_pages_;                // per process: its pages by node at its last full walk
    std::vector<int> selected_;                       // per task: task_selected_nid, or kNoNode
};

} // namespace

PolicyInfo autonuma_policy_info()
{
    return policy_info<AutoNumaParams>(
        "autonuma",
        "AutoNUMA27 (2012): hinting-fault scanner, migrate on fault (memory follows CPU), CPU follows memory by task "
        "exchange between nodes, over Linux 3.6's CFS balancer (base=cfs) or the 2.6 domain balancer "
        "(base=sched-domains).",
        autonuma_table(), [](const AutoNumaParams &p) { return make_on_numa_base<AutoNumaPolicy>(p.nb, p); });
}

} // namespace schedscope
