// The `cfs` policy (Linux 3.6 CFS and its balancer) on tiny machines, with
// outcomes worked out by hand from the kernel's rules: which task is pulled,
// when, and from where; who runs next; where a woken task goes.

#include "catalog/catalog.h"
#include "engine/invariants.h"
#include "engine/simulation.h"
#include "engine_test_access.h"
#include "hand_built.h"
#include "policies/cfs_balancer.h"
#include "topology/import.h"

#include <catch2/catch.hpp>

using namespace schedscope;
using namespace schedscope::hand_built;

namespace {

// Seed 3 throughout, the seed these situations were worked out with.
Simulation make(const std::string &topo, const std::string &policy = "cfs") { return make_sim(topo, policy, 3); }

CfsBalancer &cfs(Simulation &sim) { return dynamic_cast<CfsBalancer &>(sim.policy()); }

// A CPU-bound task pinned to `allowed`, optionally starting later.
TaskId add_spin(Simulation &sim, CpuSet allowed, double work_ms = 10'000, int nice = 0, SimTime start_ns = 0)
{
    ProcId p = sim.add_process("p" + std::to_string(sim.processes().size()), 4 << 20);
    Simulation::TaskSpec s;
    s.program.ops = {Op{Op::Kind::Compute, static_cast<std::int64_t>(work_ms * 1e6), 0, -1}};
    s.program.iterations = 1;
    s.cpus_allowed = std::move(allowed);
    s.nice = nice;
    s.start_ns = start_ns;
    return sim.add_task(p, std::move(s));
}

// Runs in 50 us steps until the task running on `cpu` changes; returns the
// task that just stopped (now queued and cache hot).
TaskId run_to_switch(Simulation &sim, int cpu)
{
    const TaskId was = sim.rq(cpu).current;
    for (SimTime t = sim.now() + 50'000; sim.rq(cpu).current == was; t += 50'000)
        sim.run_until(t);
    return was;
}

} // namespace

TEST_CASE("cfs builds 3.6's levels with their initialisers' tunables", "[policy][cfs]")
{
    // 2 nodes x 2 cores x 2 threads: SMT, CPU (the node), NUMA.
    Simulation sim = make("pack:2 [numa] core:2 pu:2");
    add_spin(sim, CpuSet{}, 1);
    sim.start();
    const auto &chain = cfs(sim).domains_of(0);
    REQUIRE(chain.size() == 3);
    CHECK(chain[0].level == "SMT");
    CHECK(chain[0].imbalance_pct == 110); // SD_SIBLING_INIT
    CHECK(chain[0].cache_nice_tries == 0);
    CHECK(chain[0].busy_factor == 64);
    CHECK(chain[1].level == "CPU");
    CHECK(chain[1].imbalance_pct == 125); // SD_CPU_INIT
    CHECK(chain[1].busy_idx == 2);
    CHECK(chain[1].idle_idx == 1);
    CHECK(chain[1].has(kCfsPreferSibling));
    CHECK(chain[2].level == "NUMA");
    CHECK(chain[2].span_weight == 8);
    CHECK(chain[2].min_interval_ms == 8); // sd_numa_init: the span's CPU count
    CHECK(chain[2].max_interval_ms == 16);
    CHECK(chain[2].busy_factor == 32);
    CHECK(chain[2].cache_nice_tries == 2);
    CHECK(chain[2].busy_idx == 3);
    CHECK(chain[2].idle_idx == 2);
    // The synthetic SLIT distance (20) is within RECLAIM_DISTANCE: fork
    // balancing and wake-affine stay on.
    CHECK(chain[2].has(kCfsBalanceFork));
    CHECK(chain[2].has(kCfsWakeAffine));
    // SMT siblings share smt_gain: a core's two threads count as one CPU.
    CHECK(chain[1].group_power[0] == 2 * (kSmtGain / 2));
}

TEST_CASE("cfs scales latency, min and wakeup granularity by 1 + log2 of the CPUs, capped at 8", "[policy][cfs]")
{
    const auto started = [](const std::string &topo, const std::string &policy) {
        Simulation sim = make(topo, policy);
        add_spin(sim, CpuSet{}, 1);
        sim.start();
        return sim;
    };
    Simulation one = started("pack:1 core:1 pu:1", "cfs");
    CHECK(cfs(one).latency_ns() == 6'000'000);
    Simulation four = started("pack:1 core:4 pu:1", "cfs");
    CHECK(cfs(four).latency_ns() == 18'000'000);
    CHECK(cfs(four).min_granularity_ns() == 2'250'000);
    CHECK(cfs(four).wakeup_granularity_ns() == 3'000'000);
    Simulation many = started("pack:4 core:8 pu:1", "cfs");
    CHECK(cfs(many).latency_ns() == 24'000'000); // 32 CPUs count as 8
    Simulation flat = started("pack:4 core:8 pu:1", "cfs:sched_tunable_scaling=none");
    CHECK(cfs(flat).latency_ns() == 6'000'000);
}

TEST_CASE("cfs runs the queued task with the smallest vruntime next", "[policy][cfs]")
{
    Simulation sim = make("pack:1 core:1 pu:1");
    const TaskId a = add_spin(sim, cpus({0}));
    const TaskId b = add_spin(sim, cpus({0}));
    const TaskId c = add_spin(sim, cpus({0}));
    sim.run_until(1'000'000);
    REQUIRE(sim.rq(0).queue.size() == 2);
    const TaskId q0 = sim.rq(0).queue[0], q1 = sim.rq(0).queue[1];
    EngineTestAccess::task(sim, q0).vruntime_ns = 9'000'000;
    EngineTestAccess::task(sim, q1).vruntime_ns = 4'000'000;
    CHECK(cfs(sim).pick_next(sim, 0) == 1);
    EngineTestAccess::task(sim, q1).vruntime_ns = 9'500'000;
    CHECK(cfs(sim).pick_next(sim, 0) == 0);
    (void)a, (void)b, (void)c;
}

TEST_CASE("cfs shares a CPU by nice weight", "[policy][cfs]")
{
    // nice 0 (1024) against nice 5 (335): 75.3 % and 24.7 % of the CPU.
    Simulation sim = make("pack:1 core:1 pu:1");
    const TaskId heavy = add_spin(sim, cpus({0}), 10'000, 0);
    const TaskId light = add_spin(sim, cpus({0}), 10'000, 5);
    sim.run_until(2'000'000'000);
    const double h = static_cast<double>(sim.task(heavy).stats.user_ns);
    const double l = static_cast<double>(sim.task(light).stats.user_ns);
    CHECK(h / (h + l) == Approx(1024.0 / (1024 + 335)).epsilon(0.03));
}

TEST_CASE("cfs: a woken task preempts when it is more than wakeup_granularity behind", "[policy][cfs]")
{
    // One CPU (no scaling): a spinner, and a task that sleeps 20.3 ms and
    // wakes with its vruntime placed half a latency (3 ms) behind the
    // spinner's: 3 ms > 1 ms preempts at once; a 5 ms granularity does not,
    // and the sleeper waits for the tick to end the spinner's slice.
    for (const bool preempt : {true, false}) {
        Simulation sim = make("pack:1 core:1 pu:1", preempt ? "cfs" : "cfs:sched_wakeup_granularity_ns=5000000");
        const TaskId spin = add_spin(sim, cpus({0}));
        ProcId p = sim.add_process("sleeper", 4 << 20);
        Simulation::TaskSpec s;
        s.program.ops = {Op{Op::Kind::Sleep, 20'300'000, 0, -1}, Op{Op::Kind::Compute, 50'000'000, 0, -1}};
        s.program.iterations = 1;
        s.cpus_allowed = cpus({0});
        const TaskId sleeper = sim.add_task(p, std::move(s));
        // Until it sleeps, then 0.2 ms past its wakeup.
        while (sim.task(sleeper).state != TaskState::Blocked)
            sim.run_until(sim.now() + 50'000);
        const SimTime wake_at = sim.now() + 20'300'000;
        sim.run_until(wake_at - 10'000);
        REQUIRE(sim.rq(0).current == spin);
        sim.run_until(wake_at + 200'000);
        INFO("preempt " << preempt);
        CHECK(sim.rq(0).current == (preempt ? sleeper : spin));
        sim.run_until(wake_at + 1'100'000); // the next tick ends the spinner's slice either way
        CHECK(sim.rq(0).current == sleeper);
    }
}

TEST_CASE("cfs wakeups: wake_affine takes the waker's CPU, select_idle_sibling an idle one", "[policy][cfs]")
{
    // 4 CPUs sharing an L3 (one MC level). The wakee last ran on CPU 1; the
    // waker runs on CPU 0.
    const auto setup = [](int on_prev, bool idle_cpu3) {
        Simulation sim = make("pack:1 l3:1 core:4 pu:1");
        add_spin(sim, cpus({0})); // the waker's CPU: load 1024
        for (int i = 0; i < on_prev; ++i)
            add_spin(sim, cpus({1}));
        add_spin(sim, cpus({2}));
        if (!idle_cpu3)
            add_spin(sim, cpus({3}));
        ProcId p = sim.add_process("wakee", 4 << 20);
        const int ch = sim.add_channel();
        Simulation::TaskSpec s;
        s.program.ops = {Op{Op::Kind::Wait, 0, 0, ch}};
        const TaskId w = sim.add_task(p, std::move(s));
        // It waits its turn behind a spinner (a 9 ms slice), runs, blocks.
        sim.run_until(40'000'000);
        REQUIRE(sim.task(w).state == TaskState::Blocked);
        EngineTestAccess::task(sim, w).cpu = 1; // where it last ran
        return std::make_pair(std::move(sim), w);
    };
    SECTION("prev as loaded as the waker's CPU plus the wakee: it stays on prev")
    {
        auto [sim, w] = setup(1, false);
        // 100 x (1024 + 1024) > 112 x 1024, and 1024 + 1024 > 1024 per task.
        CHECK(cfs(sim).select_cpu_wakeup(sim, w, 0) == 1);
    }
    SECTION("prev three times as loaded: wake_affine pulls it to the waker's CPU")
    {
        auto [sim, w] = setup(3, false);
        // 100 x (1024 + 1024) <= 112 x 3072.
        CHECK(cfs(sim).select_cpu_wakeup(sim, w, 0) == 0);
        CHECK(sim.recording().decisions.back().reason.find("wake_affine") != std::string::npos);
    }
    SECTION("an idle CPU in the cache domain wins over prev either way")
    {
        auto [sim, w] = setup(1, true);
        CHECK(cfs(sim).select_cpu_wakeup(sim, w, 0) == 3);
        CHECK(sim.recording().decisions.back().reason.find("select_idle_sibling") != std::string::npos);
        // An idle CPU with a wakeup pending on its wake list is not idle.
        auto [sim2, w2] = setup(1, true);
        EngineTestAccess::task(sim2, w2).cpu = 1;
        const_cast<Runqueue &>(sim2.rq(3)).wake_list.push_back(0);
        CHECK(cfs(sim2).select_cpu_wakeup(sim2, w2, 0) == 1);
        const_cast<Runqueue &>(sim2.rq(3)).wake_list.clear();
    }
}

TEST_CASE("cfs new-idle balancing is skipped while the CPU's avg_idle is under sched_migration_cost", "[policy][cfs]")
{
    // CPU 0 runs three tasks (12 ms period, 4 ms slices), CPU 1 nothing. At
    // 10 ms the queued two ran 2 ms and 6 ms ago: cold.
    Simulation sim = make("pack:1 core:2 pu:1");
    const TaskId t0 = add_spin(sim, cpus({0})), t1 = add_spin(sim, cpus({0})), t2 = add_spin(sim, cpus({0}));
    sim.run_until(10'000'000);
    for (TaskId t : {t0, t1, t2})
        EngineTestAccess::task(sim, t).cpus_allowed = cpus({0, 1});
    CfsBalancer &pol = cfs(sim);
    pol.set_avg_idle_ns(1, 400'000); // < 0.5 ms: not worth it
    pol.on_idle(sim, 1);
    CHECK(sim.nr_running(1) == 0);
    CHECK(sim.nr_running(0) == 3);
    pol.set_avg_idle_ns(1, 600'000);
    pol.on_idle(sim, 1);
    CHECK(sim.nr_running(1) >= 1);
    const auto &d = sim.recording().decisions;
    auto pull = std::find_if(d.begin(), d.end(), [](const Decision &x) { return x.kind == DecisionKind::Pull; });
    REQUIRE(pull != d.end());
    CHECK(pull->from == 0);
    CHECK(pull->to == 1);
    CHECK(pull->reason.find("newly idle") != std::string::npos);
    CHECK(check_invariants(sim).empty());
}

TEST_CASE("cfs: a cache-hot task is refused until nr_balance_failed exceeds cache_nice_tries", "[policy][cfs]")
{
    // CPU 0 runs two tasks, CPU 1 one (all pinned while loads settle). Just
    // after CPU 0 switches, its queued task ran < 0.5 ms ago: hot. The CPU
    // level (cache_nice_tries 1) refuses it twice, then takes it.
    Simulation sim = make("pack:1 core:2 pu:1");
    const TaskId a = add_spin(sim, cpus({0})), b = add_spin(sim, cpus({0}));
    add_spin(sim, cpus({1}));
    sim.run_until(20'000'000);
    const TaskId hot = run_to_switch(sim, 0);
    EngineTestAccess::task(sim, a).cpus_allowed = EngineTestAccess::task(sim, b).cpus_allowed = cpus({0, 1});
    CfsBalancer &pol = cfs(sim);
    REQUIRE(pol.task_hot(sim, hot));
    const int lvl = level_index(pol, 1, "CPU");
    REQUIRE(lvl >= 0);
    pol.domains_mut(1)[static_cast<size_t>(lvl)].nr_balance_failed = 0;
    CHECK_FALSE(pol.balance_level(sim, 1, lvl, false));
    CHECK(pol.domains_of(1)[static_cast<size_t>(lvl)].nr_balance_failed == 1);
    CHECK_FALSE(pol.balance_level(sim, 1, lvl, false));
    CHECK(pol.domains_of(1)[static_cast<size_t>(lvl)].nr_balance_failed == 2);
    CHECK(pol.balance_level(sim, 1, lvl, false));
    CHECK(sim.task(hot).cpu == 1);
    CHECK(pol.domains_of(1)[static_cast<size_t>(lvl)].nr_balance_failed == 0);
    const auto &d = sim.recording().decisions;
    CHECK(std::count_if(d.begin(), d.end(),
                        [&](const Decision &x) { return x.kind == DecisionKind::SkipHot && x.task == hot; }) == 2);
}

TEST_CASE("cfs balances a busy level only past imbalance_pct", "[policy][cfs]")
{
    // CPU 1 runs 4 tasks; CPU 0 runs 5, then 6. 100 x 5120 <= 125 x 4096
    // leaves it; 100 x 6144 > 125 x 4096 moves one task.
    for (const int on0 : {5, 6}) {
        Simulation sim = make("pack:1 core:2 pu:1");
        std::vector<TaskId> mine;
        for (int i = 0; i < on0; ++i)
            mine.push_back(add_spin(sim, cpus({0})));
        for (int i = 0; i < 4; ++i)
            add_spin(sim, cpus({1}));
        sim.run_until(40'300'000);
        for (TaskId t : mine)
            EngineTestAccess::task(sim, t).cpus_allowed = cpus({0, 1});
        CfsBalancer &pol = cfs(sim);
        const int lvl = level_index(pol, 1, "CPU");
        const bool moved = pol.balance_level(sim, 1, lvl, false);
        INFO(on0 << " tasks on CPU 0");
        CHECK(moved == (on0 == 6));
        CHECK(sim.nr_running(1) == (on0 == 6 ? 5 : 4));
    }
}

TEST_CASE("cfs spreads new tasks over the machine by fork balancing", "[policy][cfs]")
{
    Simulation sim = make("pack:2 [numa] core:2 pu:1");
    for (int i = 0; i < 4; ++i)
        add_spin(sim, CpuSet{});
    sim.run_until(1'000'000);
    for (int c = 0; c < 4; ++c)
        CHECK(sim.nr_running(c) == 1);
    CHECK(check_invariants(sim).empty());
}

TEST_CASE("cfs under NO_HZ: idle CPUs balance only when a busy CPU kicks the first of them", "[policy][cfs]")
{
    // Four cores under one L3, no SMT. Tasks run alone on CPUs 0 and 1: no
    // CPU runs two, no core has two busy threads, so with nohz=on no busy
    // tick kicks and the idle CPUs 2 and 3, their ticks stopped, never
    // balance (their level's last pass stays where it was at 1 ms); with
    // nohz=off each balances on its own tick, every few ms.
    for (const bool nohz : {true, false}) {
        INFO("nohz=" << (nohz ? "on" : "off"));
        Simulation sim = make("pack:1 l3:1(size=8MiB) core:4 pu:1", nohz ? "cfs:nohz=on" : "cfs:nohz=off");
        add_spin(sim, cpus({0}));
        add_spin(sim, cpus({1}));
        // Below: a third task, queued behind CPU 0's from 100 ms on.
        const TaskId third = add_spin(sim, cpus({0}), 10'000, 0, 100'000'000);
        sim.run_until(1'000'000);
        CfsBalancer &pol = cfs(sim);
        const int lvl = level_index(pol, 2, "MC");
        REQUIRE(lvl >= 0);
        const auto last_pass = [&](int cpu) { return pol.domains_of(cpu)[static_cast<size_t>(lvl)].last_balance_ns; };
        const SimTime at_1ms_2 = last_pass(2), at_1ms_3 = last_pass(3);
        sim.run_until(99'500'000);
        if (nohz) {
            CHECK(last_pass(2) == at_1ms_2);
            CHECK(last_pass(3) == at_1ms_3);
        } else {
            CHECK(last_pass(2) >= 90'000'000);
            CHECK(last_pass(3) >= 90'000'000);
        }
        if (!nohz)
            continue;
        // The third task queued behind CPU 0's, pinned there: CPU 0's tick
        // at 100 ms, its first with two tasks, kicks CPU 2, the first
        // tickless CPU, which finds nothing it may pull and balances CPU 3
        // after itself. Once the task may move, a later kick has CPU 2 pull
        // it for itself.
        sim.run_until(100'500'000);
        CHECK(last_pass(2) == 100'000'000);
        CHECK(last_pass(3) == 100'000'000);
        EngineTestAccess::task(sim, third).cpus_allowed = cpus({0, 1, 2, 3});
        sim.run_until(150'000'000);
        CHECK(sim.task(third).cpu == 2);
        CHECK(check_invariants(sim).empty());
    }
}

TEST_CASE("cfs under NO_HZ: a kicked CPU that pulls work sets the next kick at its idle interval", "[policy][cfs]")
{
    // Three tasks pinned to CPU 0 of four cores under one L3, free to move
    // from 50 ms. While they were pinned, every idle CPU's passes at the MC
    // level failed with all tasks pinned, doubling its balance_interval to
    // 32 ms. With nohz=off CPUs 1 and 2 each pull one on their own tick,
    // within a few ms of each other. With nohz=on a kick has CPU 1, the
    // first tickless CPU, pull one for itself and stop there; 3.6 works out
    // rq->next_balance, and so nohz.next_balance, from the interval the
    // level had before its pass, idle: CPU 2's turn comes 32 ms later, not
    // at the busy interval (64 times the idle one).
    for (const bool nohz : {true, false}) {
        INFO("nohz=" << (nohz ? "on" : "off"));
        Simulation sim = make("pack:1 l3:1(size=8MiB) core:4 pu:1", nohz ? "cfs:nohz=on" : "cfs:nohz=off");
        std::vector<TaskId> queued;
        for (int i = 0; i < 3; ++i)
            queued.push_back(add_spin(sim, cpus({0})));
        sim.run_until(50'000'000);
        for (TaskId t : queued)
            EngineTestAccess::task(sim, t).cpus_allowed = cpus({0, 1, 2, 3});
        SimTime first_busy[4] = {-1, -1, -1, -1};
        for (SimTime t = 50'000'000; t <= 200'000'000; t += 250'000) {
            sim.run_until(t);
            for (int c = 1; c < 4; ++c)
                if (first_busy[c] < 0 && !sim.cpu_idle(c))
                    first_busy[c] = t;
        }
        INFO("CPU 1 busy from " << first_busy[1] << " ns, CPU 2 from " << first_busy[2]);
        REQUIRE(first_busy[1] >= 0);
        REQUIRE(first_busy[2] >= 0);
        const SimTime gap = first_busy[2] - first_busy[1];
        if (nohz) {
            CHECK(gap >= 30'000'000);
            CHECK(gap <= 34'000'000);
        } else {
            CHECK(std::abs(gap) <= 2'000'000);
        }
        CHECK(check_invariants(sim).empty());
    }
}

TEST_CASE("cfs params() gives the effective values and reads back the same", "[policy][cfs]")
{
    auto pol = make_policy("cfs", {{"sched_migration_cost_ns", "250000"}, {"wakeup", "queued"}}, "test");
    const ParamMap m = pol->params();
    CHECK(m.at("sched_migration_cost_ns") == "250000");
    CHECK(m.at("sched_latency_ns") == "6000000");
    CHECK(m.at("wakeup") == "queued");
    CHECK(m.at("nohz") == "on");
    CHECK(make_policy("cfs", m, "test")->params() == m);
    CHECK_THROWS(make_policy("cfs", {{"sched_tunable_scaling", "cubic"}}, "test"));
    CHECK_THROWS(make_policy("cfs", {{"nohz", "yes"}}, "test"));
}
