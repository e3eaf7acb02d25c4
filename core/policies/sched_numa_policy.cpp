// `sched-numa`: Peter Zijlstra's sched/numa as posted in 2012, on top of a
// balancer (Linux 3.6's CFS, base=cfs, or the 2.6 domain balancer,
// base=sched-domains). Each process has a home node; its threads start
// there and the balancer pulls them towards it. Its own scanner unmaps the
// whole of a process's memory every few seconds of runtime, so that the
// next touch of each page takes a NUMA hinting fault; a page that faults
// twice in a row from one node migrates there (migrate on fault, lazily,
// towards the faulting thread). With cpu_follow on (the October 2012
// posting) the home node is re-evaluated after every scan from where the
// process's faults say its memory is; off (the March 2012 posting) it stays
// where the load put it. All of it is paid for in system time.
//
// Whose home. `home=process` (the default) homes each process as the March
// 2012 posting did, on the least loaded node when it starts, and with
// cpu_follow moves that home from the process's faults. `home=task` is the
// October 2012 posting as written ([PATCH 26/31] "sched, numa, mm: Add fault
// driven placement and migration policy", 25 October 2012): every task
// starts with no home (__sched_fork() sets p->node = -1, so it is placed and
// balanced as plain CFS would), counts its own hinting faults by the node of
// the page (task_numa_fault()), and at its first fault of each new scan of
// its process takes the node most of them hit as its home
// (task_numa_placement()). The scan is the process's: the whole address
// space, when a thread has run its scan period and the process's next scan
// is due (task_tick_numa(), task_numa_work(): at most every 2 x the minimum
// period). On base=cfs its balancer is that posting's too ([PATCH 23/31]
// "sched, numa, mm: Implement home-node awareness", 25 October 2012:
// NumaPull::OffnodeFirst, cfs_numa_pull.cpp); its wakeups are plain 3.6
// (NUMA_TTWU_BIAS off).

#include "engine/policy_actions.h"
#include "engine/simulation.h"
#include "policies/factories.h"
#include "policies/numa_base.h"
#include "policies/policy_text.h"

#include <algorithm>
#include <type_traits>

namespace schedscope {

namespace {

// Peter Zijlstra, "[PATCH 26/31] sched, numa, mm: Add fault driven placement
// and migration policy" (linux-mm, 25 October 2012), kernel/sched/fair.c
// sysctls: sched_numa_scan_period_min = 5000 ms, _max = 16 x that,
// sched_numa_settle_count = 2.
constexpr std::int64_t kDefaultScanPeriodMinMs = 5'000;
constexpr std::int64_t kDefaultScanPeriodMaxMs = kDefaultScanPeriodMinMs * 16;
constexpr std::int64_t kDefaultSettleCount = 2;
constexpr std::int64_t kMaxScanPeriodMs = 3'600'000;
// The October 2012 posting's two-stage filter, [PATCH 25/31] "sched, numa,
// mm/mpol: Add_MPOL_F_HOME" (25 October 2012), mm/mempolicy.c
// mpol_misplaced(): with MPOL_F_HOME (set on the default per-node
// policies) the target is the faulting CPU's node; page_xchg_last_nid()
// records it in the page and the page is only sent there when the previous
// fault came from the same node. So a page migrates to a node on its second
// fault in a row from that node (matches). The model keeps last_nid per
// chunk of a process rather than per page.
constexpr int kFaultsInARowToMigrate = 2;

enum class HomeUnit { Process, Task };

struct SchedNumaParams {
    NumaBaseParams nb;
    HomeUnit home = HomeUnit::Process;
    bool cpu_follow = true;
    std::int64_t scan_period_min_ms = kDefaultScanPeriodMinMs;
    std::int64_t scan_period_max_ms = kDefaultScanPeriodMaxMs;
    std::int64_t settle_count = kDefaultSettleCount;
};

const ParamTable<SchedNumaParams> &sched_numa_table()
{
    static const ParamTable<SchedNumaParams> t = [] {
        ParamTable<SchedNumaParams> t;
        t.include(&SchedNumaParams::nb, numa_base_table());
        t.choice<HomeUnit>("home", &SchedNumaParams::home, {{"process", HomeUnit::Process}, {"task", HomeUnit::Task}},
                           "process: a home per process, set at its start (March 2012) | task: a home per task, "
                           "none until its own hinting faults pick one (October 2012, task_numa_placement())");
        t.on_off("cpu_follow", &SchedNumaParams::cpu_follow,
                 "re-evaluate the home node after every scan from the hinting faults (on/off)");
        t.integer("sched_numa_scan_period_min_ms", &SchedNumaParams::scan_period_min_ms, 1, kMaxScanPeriodMs, "ms",
                  "runtime before a thread triggers a scan; scans are at least twice this apart");
        t.integer("sched_numa_scan_period_max_ms", &SchedNumaParams::scan_period_max_ms, 1, kMaxScanPeriodMs, "ms",
                  "the scan period doubles up to this while the home node stays");
        t.integer("sched_numa_settle_count", &SchedNumaParams::settle_count, 0, 1000, "scans",
                  "scans to wait after a home move before the next");
        t.check([](SchedNumaParams &s, const ParamMap &, const std::string &source) {
            if (s.scan_period_max_ms < s.scan_period_min_ms)
                throw InputError(source, 0, "sched_numa_scan_period_max_ms",
                                 "must be at least sched_numa_scan_period_min_ms (" +
                                     std::to_string(s.scan_period_min_ms) + ")");
        });
        return t;
    }();
    return t;
}

// Per process: what the policy knows of it.
struct ProcState {
    int home = kNoNode;
    std::vector<std::int64_t> faults;   // hinting faults by the node of the page, halved every scan
    int scan_seq = 0;                   // scans so far (mm->numa_scan_seq)
    int migrate_seq = -1000;            // the scan at which the home last moved
    SimTime scan_period_ns = 0;         // numa_scan_period
    SimTime next_scan_ns = 0;           // mm->numa_next_scan
    std::vector<std::int16_t> last_nid; // per chunk: node of its last fault
    std::vector<std::uint8_t> in_a_row; // per chunk: faults in a row from it
};

// Per task, home=task (October 2012): p->node, p->numa_faults,
// p->numa_scan_seq, p->numa_migrate_seq, p->numa_scan_period, p->node_stamp.
struct TaskHome {
    int home = kNoNode;
    std::vector<std::int64_t> faults; // by the node of the page, halved at each placement
    int scan_seq = 0;                 // the process's scan it last placed at
    int migrate_seq = 0;              // the scan at which its home last moved
    SimTime scan_period_ns = 0;
    SimTime stamp_ns = 0; // its running time when it last triggered a scan
};

template <class Base> class SchedNumaPolicy final : public Base {
public:
    template <class BaseParams>
    SchedNumaPolicy(BaseParams bp, SchedNumaParams sp) : Base(std::move(bp)), p_(std::move(sp))
    {
    }
    std::unique_ptr<Policy> clone() const override { return std::make_unique<SchedNumaPolicy>(*this); }
    std::string name() const override { return "sched-numa"; }
    ParamMap params() const override { return policy_params(sched_numa_table(), p_, this->wakeup_mode()); }

    // Homes: each process in turn to the node with the fewest threads per
    // CPU already homed there (sched/numa, March 2012, kernel/sched/numa.c
    // select_task_node() -> find_idlest_node(): the least loaded node).
    void attach(PolicyContext sim) override
    {
        Base::attach(sim);
        const Topology &topo = sim.topology();
        const int nodes = std::max(1, topo.numa_count());
        std::vector<double> homed(nodes, 0.0);
        procs_.assign(sim.processes().size(), ProcState{});
        if (per_task()) {
            tasks_.assign(sim.tasks().size(), TaskHome{});
            for (TaskHome &th : tasks_) {
                th.faults.assign(static_cast<size_t>(nodes), 0);
                th.scan_period_ns = p_.scan_period_min_ms * 1'000'000;
                th.migrate_seq = -1; // __sched_fork(): the process's scan_seq - 1
            }
        }
        for (const Process &p : sim.processes()) {
            if (p.kernel)
                continue; // kernel threads have no memory to be homed with
            if (per_task()) {
                // __sched_fork(): no home; mm->numa_next_scan = now, so the
                // first thread to run a scan period scans.
                ProcState &s = procs_[static_cast<size_t>(p.id)];
                s.faults.assign(static_cast<size_t>(nodes), 0);
                s.scan_period_ns = p_.scan_period_min_ms * 1'000'000;
                s.next_scan_ns = 0;
                s.last_nid.assign(p.chunk_node.size(), kNoNode);
                s.in_a_row.assign(p.chunk_node.size(), 0);
                continue;
            }
            int best = 0;
            double best_load = 0;
            for (int n = 0; n < nodes; ++n) {
                const int cpus = topo.numa_count() > 0 ? topo.pus_of_node(n).count() : topo.pu_count();
                const double load = homed[n] / std::max(1, cpus);
                if (n == 0 || load < best_load) {
                    best = n;
                    best_load = load;
                }
            }
            homed[best] += static_cast<double>(p.tasks.size());
            ProcState &s = procs_[static_cast<size_t>(p.id)];
            s.home = best;
            s.faults.assign(static_cast<size_t>(nodes), 0);
            s.scan_period_ns = p_.scan_period_min_ms * 1'000'000;
            // task_tick_numa(): the first scan once a thread has run a period.
            s.next_scan_ns = s.scan_period_ns;
            s.last_nid.assign(p.chunk_node.size(), kNoNode);
            s.in_a_row.assign(p.chunk_node.size(), 0);
            sim.log(DecisionKind::Other, -1, -1, best,
                    "process " + p.name + " gets home " + node_text(best) + " (" + fixed1_text(best_load) +
                        " threads per CPU homed there before it)");
        }
    }

    int preferred_node(PolicyView sim, TaskId t) const override { return home_of(sim, t); }

    void on_tick(PolicyContext sim, int cpu) override
    {
        Base::on_tick(sim, cpu);
        if (per_task()) {
            task_tick(sim, cpu);
            return;
        }
        if (cpu != 0)
            return;
        for (ProcId p = 0; p < static_cast<ProcId>(procs_.size()); ++p)
            if (sim.now() >= procs_[static_cast<size_t>(p)].next_scan_ns)
                scan(sim, p);
    }

    // Migrate on fault: after two faults in a row from one node the page
    // moves there, towards the thread that touches it.
    void on_hinting_fault(PolicyContext sim, TaskId t, int chunk, int node) override
    {
        const Task &task = sim.task(t);
        PolicyActions::take_hinting_fault(sim, t, PageGrain::Pte, true);
        ProcState &s = procs_[static_cast<size_t>(task.proc)];
        const Process &proc = sim.processes()[task.proc];
        const int where = proc.chunk_node[chunk];
        // task_numa_fault(): counted by the node of the page; per task, after
        // task_numa_placement() has looked at the last scan's counts.
        if (per_task()) {
            TaskHome &th = tasks_[static_cast<size_t>(t)];
            if (p_.cpu_follow)
                place_task(sim, t, s.scan_seq);
            ++th.faults[static_cast<size_t>(where)];
        } else
            ++s.faults[static_cast<size_t>(where)];
        auto &last = s.last_nid[static_cast<size_t>(chunk)];
        auto &row = s.in_a_row[static_cast<size_t>(chunk)];
        row = last == node ? static_cast<std::uint8_t>(std::min(255, row + 1)) : std::uint8_t{1};
        last = static_cast<std::int16_t>(node);
        if (where == node || row < kFaultsInARowToMigrate)
            return;
        row = 0;
        PolicyActions::migrate_pages(sim, task.proc, chunk, node, task.cpu, PageGrain::Pte,
                                     "chunk " + std::to_string(chunk) + " of " + proc.name + " moved " +
                                         node_text(where) + " -> " + node_text(node) + " on its " +
                                         std::to_string(kFaultsInARowToMigrate) +
                                         "nd hinting fault in a row from there (migrate on fault)");
    }

protected:
    // home=task: a new task has no home (p->node = -1), so none here.
    int fork_node(PolicyView sim, TaskId t) const override { return per_task() ? kNoNode : home_of(sim, t); }
    // The home node's +1/-1 for the balancer: +1 for a move onto the home
    // node from elsewhere, -1 for a move off it, 0 otherwise. home=process
    // (and home=task on base=sched-domains): the balancer tries +1 moves
    // first and holds -1 moves back as if cache hot (NumaPull::AwayIsHot,
    // numa_pull.h), the March 2012 posting's use of it.
    //
    // The kernel differs there. Both postings' kernel/sched/fair.c
    // task_numa_hot() ([RFC][PATCH 13/26], 16 March 2012; [PATCH 23/31],
    // 25 October 2012), called from can_migrate_task(), rates any move
    // that does not bring the task nearer its home by node_distance() as
    // hot. That includes moves within the home node and moves between two
    // other nodes that get no nearer, which the model lets through (0). A
    // move nearer home is never NUMA-hot, even when it does not reach home.
    //
    // home=task on base=cfs runs the October 2012 posting's balancer
    // instead (NumaPull::OffnodeFirst, cfs_numa_pull.cpp): task_numa_hot()
    // by node distance, on busy CPUs' passes only; the off-node tasks
    // walked first (NUMA_PULL); and a balanced NUMA level still pulling an
    // off-node task (NUMA_PULL_BIAS). Its wakeups are plain 3.6: the
    // posting leaves NUMA_TTWU_BIAS off.
    NumaPull numa_pull() const override
    {
        if constexpr (std::is_base_of_v<CfsBalancer, Base>)
            if (per_task())
                return NumaPull::OffnodeFirst;
        return NumaPull::AwayIsHot;
    }
    int numa_preference(PolicyView sim, TaskId t, int from_cpu, int to_cpu) const override
    {
        const int h = home_of(sim, t);
        if (h == kNoNode)
            return 0;
        const int from = sim.topology().node_of_pu(from_cpu), to = sim.topology().node_of_pu(to_cpu);
        return to == h && from != h ? 1 : (from == h && to != h ? -1 : 0);
    }
    std::string numa_reason(PolicyView sim, TaskId t) const override
    {
        return (per_task() ? "its home is " : "its process's home is ") + node_text(home_of(sim, t));
    }

private:
    bool per_task() const { return p_.home == HomeUnit::Task; }

    int home(ProcId p) const
    {
        return p >= 0 && p < static_cast<ProcId>(procs_.size()) ? procs_[static_cast<size_t>(p)].home : kNoNode;
    }

    int home_of(PolicyView sim, TaskId t) const
    {
        if (per_task())
            return t >= 0 && t < static_cast<TaskId>(tasks_.size()) ? tasks_[static_cast<size_t>(t)].home : kNoNode;
        return home(sim.task(t).proc);
    }

    // task_tick_numa() (October 2012) for the task running on `cpu`: once
    // it has run its scan period since it last did, it scans its process
    // if that is due (task_numa_work(): the next scan no sooner than twice
    // the minimum period, whichever thread asks).
    void task_tick(PolicyContext sim, int cpu)
    {
        const TaskId t = sim.rq(cpu).current;
        if (t < 0 || t >= static_cast<TaskId>(tasks_.size()))
            return;
        const Task &task = sim.task(t);
        if (task.kernel || task.segments.empty())
            return; // no memory: nothing to place
        TaskHome &th = tasks_[static_cast<size_t>(t)];
        if (task.stats.user_ns - th.stamp_ns <= th.scan_period_ns)
            return;
        th.stamp_ns = task.stats.user_ns;
        ProcState &s = procs_[static_cast<size_t>(task.proc)];
        if (sim.now() < s.next_scan_ns)
            return;
        s.next_scan_ns = sim.now() + 2 * p_.scan_period_min_ms * 1'000'000;
        ++s.scan_seq;
        bool armed = false;
        const Process &proc = sim.processes()[task.proc];
        for (int c = 0; c < static_cast<int>(proc.chunk_node.size()); ++c)
            armed = PolicyActions::arm_hinting(sim, task.proc, c, cpu, PageGrain::Pte) || armed;
        if (armed)
            PolicyActions::flush_tlb_range(sim, task.proc, cpu);
    }

    // task_numa_placement() (October 2012), at a task's first fault of a
    // new scan: the node most of its faults hit since is its home, the
    // counts halve; a move waits settle_count scans after its last
    // (NUMA_SETTLE); its scan period resets on a move and doubles, up to
    // the maximum, while the home stays.
    void place_task(PolicyContext sim, TaskId t, int seq)
    {
        TaskHome &th = tasks_[static_cast<size_t>(t)];
        if (th.scan_seq == seq)
            return;
        th.scan_seq = seq;
        int best = kNoNode;
        std::int64_t max = 0;
        for (int n = 0; n < static_cast<int>(th.faults.size()); ++n) {
            if (th.faults[static_cast<size_t>(n)] > max) {
                max = th.faults[static_cast<size_t>(n)];
                best = n;
            }
            th.faults[static_cast<size_t>(n)] /= 2;
        }
        if (best == kNoNode)
            return;
        if (best == th.home) {
            th.scan_period_ns = std::min(p_.scan_period_max_ms * 1'000'000, th.scan_period_ns * 2);
            return;
        }
        th.scan_period_ns = p_.scan_period_min_ms * 1'000'000;
        if (seq - th.migrate_seq <= p_.settle_count)
            return;
        th.migrate_seq = seq;
        sim.log(DecisionKind::PreferNode, t, th.home, best,
                task_text(t) + " takes home " + node_text(best) +
                    ": most of its hinting faults since the last scan hit memory there");
        th.home = best;
    }

    // home=process scan. What it does per scan follows the October 2012
    // posting ([PATCH 26/31], 25 October 2012, kernel/sched/fair.c
    // task_numa_work()): a new scan sequence, the whole address space made
    // PROT_NONE by change_protection(), one pte at a time, and the range's
    // TLBs flushed.
    //
    // When it scans is a hybrid that matches neither posting. In October,
    // task_tick_numa() queues the scan from a running thread's tick once
    // that thread has run numa_scan_period of CPU time since its last
    // trigger (node_stamp), and task_numa_work() then only spaces the
    // process's scans by twice sysctl_sched_numa_scan_period_min
    // (mm->numa_next_scan). The model instead scans from CPU 0's tick by
    // wall-clock time, every max(2 x minimum, the process's scan period):
    // the per-process period stretches the spacing itself, and no thread's
    // runtime gates it. Nor is it the March 2012 posting's: that one
    // ([RFC][PATCH 14/26] "sched, numa: Numa balancer", 16 March 2012,
    // kernel/sched/numa.c) has no periodic scan; its numa_balance()
    // reconsiders homes every numa_balance_interval (2 s), and a process's
    // memory is marked for lazy migration (process_mem_migrate() ->
    // lazy_migrate_process()) only when its home moves. home=task
    // (task_tick() above) follows October as posted.
    void scan(PolicyContext sim, ProcId p)
    {
        ProcState &s = procs_[static_cast<size_t>(p)];
        const Process &proc = sim.processes()[p];
        int cpu = kNoCpu;
        for (TaskId t : proc.tasks) {
            const Task &task = sim.task(t);
            if (task.state == TaskState::Running) {
                cpu = task.cpu;
                break;
            }
        }
        if (cpu == kNoCpu)
            return; // task_tick_numa() runs from a running thread's tick
        ++s.scan_seq;
        if (p_.cpu_follow)
            place(sim, p);
        for (auto &f : s.faults)
            f /= 2;
        bool armed = false;
        for (int c = 0; c < static_cast<int>(proc.chunk_node.size()); ++c)
            armed = PolicyActions::arm_hinting(sim, p, c, cpu, PageGrain::Pte) || armed;
        if (armed)
            PolicyActions::flush_tlb_range(sim, p, cpu);
        s.next_scan_ns = sim.now() + std::max(2 * p_.scan_period_min_ms * 1'000'000, s.scan_period_ns);
    }

    // task_numa_placement() (October 2012), per process: the node most of
    // the last period's faults hit is home; a move waits settle_count scans
    // after the previous one (NUMA_SETTLE); the scan period resets on a
    // move and doubles, up to its maximum, while home stays.
    void place(PolicyContext sim, ProcId p)
    {
        ProcState &s = procs_[static_cast<size_t>(p)];
        const auto best = std::max_element(s.faults.begin(), s.faults.end());
        if (best == s.faults.end() || *best == 0)
            return;
        const int node = static_cast<int>(best - s.faults.begin());
        if (node == s.home) {
            s.scan_period_ns = std::min(p_.scan_period_max_ms * 1'000'000, s.scan_period_ns * 2);
            return;
        }
        s.scan_period_ns = p_.scan_period_min_ms * 1'000'000;
        if (s.scan_seq - s.migrate_seq <= p_.settle_count)
            return;
        std::int64_t total = 0;
        for (auto f : s.faults)
            total += f;
        sim.log(DecisionKind::PreferNode, -1, s.home, node,
                "process " + sim.processes()[p].name + " moves home " + node_text(s.home) + " -> " + node_text(node) +
                    ": " + std::to_string(100 * *best / std::max<std::int64_t>(1, total)) +
                    "% of its last scan's hinting faults hit memory there");
        s.migrate_seq = s.scan_seq;
        s.home = node;
    }

    SchedNumaParams p_;
    std::vector<ProcState> procs_;
    std::vector<TaskHome> tasks_; // home=task only
};

} // namespace

PolicyInfo sched_numa_policy_info()
{
    return policy_info<SchedNumaParams>(
        "sched-numa",
        "sched/numa (2012): a home node per process, threads placed and pulled there; its own scanner unmaps the "
        "process's memory every few seconds and pages migrate on fault towards the thread touching them; cpu_follow "
        "re-evaluates the home from where the memory is.",
        sched_numa_table(), [](const SchedNumaParams &p) { return make_on_numa_base<SchedNumaPolicy>(p.nb, p); });
}

} // namespace schedscope
