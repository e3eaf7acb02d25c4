// `linux-2.5-numa`: the NUMA scheduler of Linux 2.5.59 (2003), in the two
// forms the 2003 NEC TX7 comparison measured.
//
// variant=rework (the default): the tick-driven rework posted against 2.5.59
// (sched-2.5.59-A2 and its successors). Each CPU balances within its node on
// the tick (often when idle, rarely when busy) and across nodes on a slower
// period, pulling from the busiest runqueue when the imbalance passes
// imbalance_pct. idle_balance_mask=cpu reproduces A2 as posted, whose idle
// balancer was given the CPU's own mask instead of its node's, so that idle
// CPUs never pull work; the default `node` is the fixed rework.
//
// variant=orig: 2.5.59 as released (linux25_orig.cpp). load_balance() runs
// from the tick and from schedule() on an empty runqueue; every
// NODE_BALANCE_RATE-th call balances over the busiest other node instead of
// the CPU's own.
//
// Both start new tasks on the least loaded node (sched_balance_exec).

#include "engine/simulation.h"
#include "policies/factories.h"
#include "policies/linux25_orig.h"
#include "policies/policy_text.h"
#include "util/input_error.h"

namespace schedscope {

namespace {

// The rework's kernel/sched.c (sched-2.5.59-A2 and its B0 successor:
// rebalance_tick()), at HZ=1000.
constexpr std::int64_t kIdleRebalanceTickMs = 1;   // IDLE_REBALANCE_TICK (HZ/1000)
constexpr std::int64_t kBusyRebalanceTickMs = 200; // BUSY_REBALANCE_TICK (HZ/5)
constexpr std::int64_t kNodeRebalanceTickMs = 400; // NODE_REBALANCE_TICK (2 x BUSY_REBALANCE_TICK)
constexpr std::int64_t kImbalancePct = 125;        // "at least ~25% imbalance"
// Linux 2.5.59 kernel/sched.c: task_timeslice() = BASE_TIMESLICE(p) =
// MIN_TIMESLICE + (MAX_TIMESLICE - MIN_TIMESLICE) * (MAX_PRIO-1-static_prio)
// / (MAX_USER_PRIO-1), with MIN 10 ms, MAX 200 ms; for nice 0 (static_prio
// 120, MAX_PRIO 140, MAX_USER_PRIO 40): 10 + 190 * 19 / 39 = 102 ms.
constexpr std::int64_t kO1Nice0TimesliceMs = 10 + 190 * 19 / 39;
constexpr std::int64_t kMaxTickMs = 3'600'000; // an hour: rejects unit typos only

struct Linux25Params {
    std::int64_t idle_tick_ms = kIdleRebalanceTickMs;
    std::int64_t busy_tick_ms = kBusyRebalanceTickMs;
    std::int64_t node_tick_ms = kNodeRebalanceTickMs;
    std::int64_t idle_node_tick_ms = 0; // 0 = off
    std::int64_t imbalance_pct = kImbalancePct;
    bool mask_is_cpu = false;
    bool orig = false;      // variant=orig: the balancing is Linux25Orig's
    bool o1_slices = false; // timeslice=o1: 2.5's timeslices instead of the engine's
    Linux25OrigParams orig_params;
};

bool is_rework(const Linux25Params &p) { return !p.orig; }
bool is_orig(const Linux25Params &p) { return p.orig; }

// variant=orig runs Linux25Orig on its own parameters: the shared knobs are
// copied there, and two defaults differ (2.5.59's HZ/4 busy tick, and its
// own timeslices).
void finish_linux25(Linux25Params &p, const ParamMap &given, const std::string &)
{
    if (!p.orig)
        return;
    if (!given.count("busy_rebalance_tick_ms"))
        p.busy_tick_ms = kLinux25OrigBusyTickMs;
    if (!given.count("timeslice"))
        p.o1_slices = true;
    p.orig_params.idle_tick_ms = p.idle_tick_ms;
    p.orig_params.busy_tick_ms = p.busy_tick_ms;
}

const ParamTable<Linux25Params> &linux25_table()
{
    static const ParamTable<Linux25Params> t = [] {
        ParamTable<Linux25Params> t;
        // The rework's params() map is what it was before variants existed
        // (plus timeslice when not the default), so that its reports and
        // saved scenarios stay byte-identical: variant is written for orig only.
        t.choice<bool>("variant", &Linux25Params::orig, {{"rework", false}, {"orig", true}},
                       "rework (the tick-driven rework of 2003), or orig (2.5.59 as released)")
            .written_if(is_orig);
        t.integer("idle_rebalance_tick_ms", &Linux25Params::idle_tick_ms, 1, kMaxTickMs, "ms",
                  "an idle CPU balances within its node this often");
        t.integer("busy_rebalance_tick_ms", &Linux25Params::busy_tick_ms, 1, kMaxTickMs, "ms",
                  "a busy CPU balances this often (variant=orig: default 250, 2.5.59's HZ/4)");
        t.integer("node_rebalance_tick_ms", &Linux25Params::node_tick_ms, 1, kMaxTickMs, "ms",
                  "a busy CPU balances across nodes this often")
            .when(is_rework, "variant=rework");
        t.integer("idle_node_rebalance_tick_ms", &Linux25Params::idle_node_tick_ms, 0, kMaxTickMs, "ms",
                  "an idle CPU balances across nodes this often (0 = off)")
            .when(is_rework, "variant=rework");
        t.integer("imbalance_pct", &Linux25Params::imbalance_pct, 100, 1000, "%",
                  "pull only when the busiest exceeds this % of our load")
            .when(is_rework, "variant=rework");
        t.choice<bool>("idle_balance_mask", &Linux25Params::mask_is_cpu, {{"node", false}, {"cpu", true}},
                       "node, or cpu: the 2.5 bug where idle CPUs pass their own mask and never pull")
            .when(is_rework, "variant=rework");
        t.choice<bool>("timeslice", &Linux25Params::o1_slices, {{"cfs", false}, {"o1", true}},
                       "cfs (the engine's 6 ms fair rotation) or o1 (2.5's 102 ms nice-0 timeslice); variant=orig "
                       "defaults to o1")
            .written_if([](const Linux25Params &p) { return p.orig || p.o1_slices; });
        t.integer_with(
             "node_balance_rate", [](Linux25Params &p, std::int64_t v) { p.orig_params.node_balance_rate = v; },
             [](const Linux25Params &p) { return std::optional<std::int64_t>(p.orig_params.node_balance_rate); }, 1,
             1'000'000, "balances", "variant=orig: every this many-th balance crosses nodes (NODE_BALANCE_RATE)")
            .when(is_orig, "variant=orig");
        t.integer_with(
             "node_threshold_pct", [](Linux25Params &p, std::int64_t v) { p.orig_params.node_threshold_pct = v; },
             [](const Linux25Params &p) { return std::optional<std::int64_t>(p.orig_params.node_threshold_pct); }, 100,
             1000, "%", "variant=orig: the busiest node must exceed this % of ours (NODE_THRESHOLD)")
            .when(is_orig, "variant=orig");
        t.check(finish_linux25);
        return t;
    }();
    return t;
}

class Linux25NumaPolicy final : public Policy {
public:
    explicit Linux25NumaPolicy(Linux25Params p) : p_(p), orig_(p.orig_params) {}
    std::unique_ptr<Policy> clone() const override { return std::make_unique<Linux25NumaPolicy>(*this); }
    std::string name() const override { return "linux-2.5-numa"; }
    ParamMap params() const override { return policy_params(linux25_table(), p_, wakeup_mode()); }

    // timeslice=o1: a CPU-bound task keeps the CPU for its whole O(1)
    // timeslice (the nice-0 slice), so a task queued behind it has not run
    // for that long and is cache cold by 2.5's cache_decay_ticks. The
    // engine's default 6 ms rotation would keep every queued task "hot" for
    // ever.
    bool check_preempt_tick(Simulation &sim, int cpu) override
    {
        if (!p_.o1_slices)
            return Policy::check_preempt_tick(sim, cpu);
        const Runqueue &rq = sim.rq(cpu);
        return sim.now() - sim.task(rq.current).slice_start_ns >= kO1Nice0TimesliceMs * 1'000'000;
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
        if (p_.orig) {
            orig_.on_tick(sim, cpu);
            return;
        }
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
        if (p_.orig) {
            orig_.on_idle(sim, cpu);
            return;
        }
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
            if (!idle && ago >= 0 && ago < kLinux25CacheDecayMs) {
                sim.log(DecisionKind::SkipHot, t, busiest, cpu,
                        task_text(t) + " skipped: cache hot, ran " + ms_text(ago) + " ago < " +
                            ms_text(kLinux25CacheDecayMs));
                continue;
            }
            acting_ = true;
            const bool ok = sim.migrate_task(t, cpu, cpu, DecisionKind::Pull,
                                             cpu_text(cpu) + " " + how + ": pulled " + task_text(t) + " from " +
                                                 cpu_text(busiest) + ", imbalance " + std::to_string(max_nr) + " vs " +
                                                 std::to_string(this_nr) + " runnable > " +
                                                 std::to_string(p_.imbalance_pct) + "%");
            acting_ = false;
            if (ok)
                --imbalance;
        }
    }

    Linux25Params p_;
    Linux25Orig orig_;    // variant=orig's balancing
    bool acting_ = false; // our own migration must not re-enter new-idle balancing
};

} // namespace

PolicyInfo linux25_numa_policy_info()
{
    return policy_info<Linux25Params>(
        "linux-2.5-numa",
        "Linux 2.5.59 NUMA scheduler: variant=rework balances within the node on the tick and across nodes on a "
        "slower period; variant=orig (2.5.59 as released) crosses nodes every NODE_BALANCE_RATE-th balance. Exec on "
        "the least loaded node.",
        linux25_table(), [](const Linux25Params &p) { return std::make_unique<Linux25NumaPolicy>(p); });
}

} // namespace schedscope
