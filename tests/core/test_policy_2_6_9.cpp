// The 2.6.9 rules of the sched-domains balancer (kernel/sched.c and
// include/linux/sched.h of 2.6.9), each on a machine and tasks built by
// hand: which task moves, when, from where, and what keeps it.

#include "catalog/catalog.h"
#include "engine/simulation.h"
#include "hand_built.h"
#include "policies/domain_balancer.h"
#include "topology/import.h"

#include <catch2/catch.hpp>

using namespace schedscope;
using namespace schedscope::hand_built;

namespace {

TaskId add(Simulation &sim, std::vector<Op> ops, CpuSet allowed = {})
{
    ProcId p = sim.add_process("p" + std::to_string(sim.processes().size()), 4 << 20);
    Simulation::TaskSpec s;
    s.program.ops = std::move(ops);
    s.working_set_bytes = 256 * 1024;
    s.cpus_allowed = allowed;
    return sim.add_task(p, std::move(s));
}

Op compute_ms(double ms) { return Op{Op::Kind::Compute, static_cast<std::int64_t>(ms * 1e6), 0, -1}; }
// Sleeps `ms`, woken from PU `waker` (an interrupt handled there).
Op sleep_ms(double ms, int waker) { return Op{Op::Kind::Sleep, static_cast<std::int64_t>(ms * 1e6), 0, waker}; }

std::vector<Decision> decisions(const Simulation &sim, DecisionKind kind, TaskId t)
{
    std::vector<Decision> out;
    for (const auto &d : sim.recording().decisions)
        if (d.kind == kind && d.task == t)
            out.push_back(d);
    return out;
}

const DomainBalancer &balancer(const Simulation &sim) { return dynamic_cast<const DomainBalancer &>(sim.policy()); }

// The balancer with its migration thread's push reachable from a test.
struct PushProbe final : DomainBalancer {
    using DomainBalancer::DomainBalancer;
    std::unique_ptr<Policy> clone() const override { return std::make_unique<PushProbe>(*this); }
    std::string name() const override { return "sched-domains"; }
    ParamMap params() const override { return base_params(); }
    bool push(Simulation &sim, int busiest, int push_cpu) { return active_balance(sim, busiest, push_cpu); }
};

} // namespace

TEST_CASE("2.6.9 tunables per level: SMT 0/0, the node level its own 10 ms, SD_WAKE_BALANCE", "[policy][2.6.9]")
{
    Simulation sim = make_sim("pack:2 [numa] l3:1 core:2 pu:2", "sched-domains:cache_hot_time_ms=5,cache_nice_tries=2");
    add(sim, {compute_ms(1)});
    sim.start();
    const auto &levels = balancer(sim).domains_of(0);
    REQUIRE(levels.size() == 3);
    CHECK(levels[0].level == "SMT");
    CHECK(levels[0].cache_hot_time_ms == 0); // SD_SIBLING_INIT
    CHECK(levels[0].cache_nice_tries == 0);
    CHECK_FALSE(levels[0].has(kSdWakeBalance));
    CHECK(levels[1].level == "MC"); // SD_CPU_INIT: the knobs
    CHECK(levels[1].cache_hot_time_ms == 5);
    CHECK(levels[1].cache_nice_tries == 2);
    CHECK(levels[1].has(kSdWakeBalance));
    CHECK(levels[2].level == "NUMA"); // SD_NODE_INIT
    CHECK(levels[2].cache_hot_time_ms == 10);
    CHECK(levels[2].cache_nice_tries == 2);
    CHECK(levels[2].has(kSdWakeBalance));
    CHECK_FALSE(levels[2].has(kSdBalanceNewIdle));
    CHECK_FALSE(levels[2].has(kSdWakeAffine));
    // A level's own override still wins.
    Simulation over = make_sim("pack:2 [numa] l3:1 core:2 pu:2", "sched-domains:cache_hot_time_ms.NUMA=3");
    add(over, {compute_ms(1)});
    over.start();
    CHECK(balancer(over).domains_of(0)[2].cache_hot_time_ms == 3);
}

TEST_CASE("2.6.9 task_hot: a woken task is as hot as when it last ran", "[policy][2.6.9]")
{
    // CPU 0 runs three pinned tasks and S; CPU 1 runs L1 (pinned) until 50
    // ms, then idles, its passes failing every millisecond on the pinned
    // tasks (cache_nice_tries 1000: never aggressive). S sleeps, and is woken
    // on CPU 0 behind the three. 2.6.9's task_hot() measures from
    // p->last_ran, which only schedule() sets: after a 100 ms sleep, longer
    // than cache_hot_time, S is cold when woken and CPU 1 pulls it; after a
    // 10 ms sleep it is still hot and is skipped.
    for (const int sleep : {100, 10}) {
        Simulation sim = make_sim("pack:1 core:2 pu:1", "sched-domains:cache_hot_time_ms=50,cache_nice_tries=1000");
        const TaskId s = add(sim, {compute_ms(1), sleep_ms(sleep, 0), compute_ms(300)});
        for (int i = 0; i < 3; ++i)
            add(sim, {compute_ms(400)}, cpus({0}));
        add(sim, {compute_ms(50)}, cpus({1}));
        sim.run_until(180'000'000);
        INFO("S sleeps " << sleep << " ms");
        const auto pulls = decisions(sim, DecisionKind::Pull, s);
        const auto skips = decisions(sim, DecisionKind::SkipHot, s);
        if (sleep == 100) {
            REQUIRE_FALSE(pulls.empty());
            CHECK(pulls.front().to == 1);
            // Pulled at CPU 1's first pass after the wakeup (101 ms or later).
            CHECK(pulls.front().time_ns < 110'000'000);
            for (const auto &d : skips)
                CHECK(d.time_ns > pulls.front().time_ns); // never skipped as hot before
        } else {
            REQUIRE_FALSE(skips.empty());
            CHECK(skips.front().reason.find("cache hot, ran") != std::string::npos);
            CHECK((pulls.empty() || pulls.front().time_ns > skips.front().time_ns));
        }
    }
}

TEST_CASE("2.6.9 can_migrate_task: hot tasks go once nr_balance_failed reaches cache_nice_tries", "[policy][2.6.9]")
{
    // CPU 0 runs tasks 0 and 2 in turns of a 100 ms slice (the queued one
    // always hot: it last ran a slice ago, far under cache_hot_time), CPU 1
    // runs task 1 for 250 ms, then idles. Its new-idle pass
    // skips the hot task (never aggressive), then each periodic idle pass
    // skips it while nr_balance_failed < cache_nice_tries: cache_nice_tries
    // + 1 skips, then the pull.
    for (int tries : {0, 1, 3}) {
        Simulation sim = make_sim("pack:1 core:2 pu:1",
                                  "sched-domains:cache_hot_time_ms=1000,cache_nice_tries=" + std::to_string(tries));
        add(sim, {compute_ms(600)});
        add(sim, {compute_ms(250)});
        add(sim, {compute_ms(600)});
        sim.run_until(400'000'000);
        std::vector<Decision> pulls;
        int skips = 0;
        for (const auto &d : sim.recording().decisions)
            if (d.to == 1 && d.kind == DecisionKind::Pull)
                pulls.push_back(d);
        REQUIRE(!pulls.empty());
        for (const auto &d : sim.recording().decisions)
            if (d.to == 1 && d.kind == DecisionKind::SkipHot && d.time_ns < pulls.front().time_ns)
                ++skips;
        INFO("cache_nice_tries=" << tries);
        CHECK(skips == tries + 1);
        CHECK(pulls.front().reason.find(std::to_string(tries) + " times >= cache_nice_tries") != std::string::npos);
    }
}

TEST_CASE("2.6.9 find_busiest_group: an idle CPU takes one task from a group over one per CPU", "[policy][2.6.9]")
{
    // Two packages of ten CPUs (the node level's groups). 21 long tasks:
    // sched_exec() from CPU 0 gives task i CPU i, and the 21st stays with
    // task 0 on CPU 0 (every CPU busy, cpu_load still 0); task 10 (CPU 10)
    // is short. Then package 1 has 9 tasks (0.9 per CPU), package 0 has 11
    // (1.1): within imbalance_pct 125, so the node level is balanced, and
    // the idle CPU 10 has no sibling with two. 2.6.9 still takes one task
    // (find_busiest_group's out_balanced).
    Simulation sim = make_sim("pack:2 core:10 pu:1", "sched-domains:cache_hot_time_ms=0");
    for (int i = 0; i < 21; ++i)
        add(sim, {compute_ms(i == 10 ? 5 : 200)});
    sim.run_until(100'000);
    REQUIRE(sim.task(10).cpu == 10);
    REQUIRE(sim.task(20).cpu == 0);
    sim.run_until(40'000'000);
    REQUIRE(sim.task(10).state == TaskState::Exited);
    std::vector<Decision> pulls;
    for (const auto &d : sim.recording().decisions)
        if (d.kind == DecisionKind::Pull && d.to == 10)
            pulls.push_back(d);
    REQUIRE(!pulls.empty());
    CHECK(pulls.front().from == 0);
    // CPU 10 takes it as it runs dry: out_balanced gives a newly idle CPU
    // one task whatever the load (an idle one's periodic pass would need
    // over one task per CPU, which package 0 also has).
    CHECK(pulls.front().reason.find("newly idle, so one task") != std::string::npos);
    CHECK(pulls.front().reason.find("node level") != std::string::npos);
}

TEST_CASE("2.6.9 active_load_balance pushes a queued task, never the running one", "[policy][2.6.9]")
{
    SimConfig cfg;
    cfg.model.os_noise = 0; // the hand-built situation alone, without the OS's threads
    auto topo = std::make_shared<const Topology>(import_synthetic("pack:1 core:3 pu:1"));
    // cache_nice_tries 0: the push may take a hot task (busiest's own
    // failure count, 0, is not below it). B is hot: it ran until 0.1 ms
    // (p->last_ran), far under cache_hot_time.
    auto policy = std::make_unique<PushProbe>(
        BalancerParams::table().parse({{"cache_hot_time_ms", "1000"}, {"cache_nice_tries", "0"}}, "balancer", "test"));
    Simulation sim(topo, std::move(policy), cfg);
    // CPU 0: B (CPU 0 or 2) runs 0.1 ms and sleeps 0.2 ms, A (pinned) runs
    // meanwhile and B waits behind it once woken; CPU 1: C (pinned); CPU 2:
    // D (pinned) for 1 ms, then idle. B may never go to CPU 1.
    const TaskId b = add(sim, {compute_ms(0.1), sleep_ms(0.2, 0), compute_ms(300)}, cpus({0, 2}));
    const TaskId a = add(sim, {compute_ms(300)}, cpus({0}));
    add(sim, {compute_ms(300)}, cpus({1}));
    add(sim, {compute_ms(1)}, cpus({2}));
    sim.run_until(500'000);
    REQUIRE(sim.rq(0).current == a);
    REQUIRE(sim.rq(0).queue == std::vector<TaskId>{b});
    auto &probe = const_cast<PushProbe &>(dynamic_cast<const PushProbe &>(sim.policy()));
    // CPU 1 asks while CPU 2 still runs D: no other group of the level is
    // all idle, and CPU 1's own may not take B.
    CHECK_FALSE(probe.push(sim, 0, 1));
    CHECK(sim.task(b).cpu == 0);
    // D has exited (CPU 2 idle, its new-idle pass left the hot B alone)
    // and no periodic pass has run since.
    sim.run_until(1'500'000);
    REQUIRE(sim.cpu_idle(2));
    REQUIRE(sim.rq(0).queue == std::vector<TaskId>{b});
    CHECK(probe.push(sim, 0, 1));
    CHECK(sim.task(b).cpu == 2); // to the all-idle group, not to the CPU that asked
    CHECK(sim.task(a).cpu == 0); // the running task stays
    const auto pushed = decisions(sim, DecisionKind::Pull, b);
    REQUIRE(pushed.size() == 1);
    CHECK(pushed[0].reason.find("migration thread") != std::string::npos);
    // Busiest runs one task and queues none: nothing to push.
    CHECK_FALSE(probe.push(sim, 0, 1));
}

TEST_CASE("2.6.9 try_to_wake_up: SD_WAKE_BALANCE takes a hot task to a less loaded waker", "[policy][2.6.9]")
{
    // S starts on CPU 0 with two pinned tasks, sleeps 100 ms (hot: under
    // cache_hot_time 1000 ms, so wake-affine refuses) and is woken from CPU
    // 1, which runs one task: prev's load 2 x 128 is beyond 137 % of the
    // waker's 1 x 128, so SD_WAKE_BALANCE wakes S on CPU 1.
    Simulation sim = make_sim("pack:1 core:2 pu:1", "sched-domains:cache_hot_time_ms=1000,cache_nice_tries=1000");
    const TaskId s = add(sim, {compute_ms(1), sleep_ms(100, 1), compute_ms(50)});
    add(sim, {compute_ms(400)}, cpus({0}));
    add(sim, {compute_ms(400)}, cpus({0}));
    add(sim, {compute_ms(400)}, cpus({1}));
    sim.run_until(200'000'000);
    const auto wakes = decisions(sim, DecisionKind::Wakeup, s);
    REQUIRE(wakes.size() == 1);
    CHECK(wakes[0].from == 0);
    CHECK(wakes[0].to == 1);
    CHECK(wakes[0].reason.find("wake-balance") != std::string::npos);

    // Woken onto an idle prev from a busy CPU: it stays where it was.
    Simulation idle = make_sim("pack:1 core:2 pu:1", "sched-domains");
    const TaskId t = add(idle, {compute_ms(1), sleep_ms(20, 1), compute_ms(5)});
    add(idle, {compute_ms(100)}, cpus({1}));
    idle.run_until(60'000'000);
    CHECK(decisions(idle, DecisionKind::Wakeup, t).empty());
    CHECK(idle.task(t).cpu == 0);
}

TEST_CASE("2.6.9 rebalance_tick: the next periodic pass kept per CPU follows every change of a level's interval",
          "[policy][2.6.9]")
{
    // The tick skips a CPU whose levels are none of them due, from a time
    // kept per CPU (idle and busy). Intervals double on balanced passes
    // and go back to the minimum on an imbalanced one; CPUs go idle as
    // tasks end and busy as they are pulled. After every event the kept
    // times must be the ones the levels give.
    Simulation sim = make_sim("pack:2 [numa] l3:1 core:2 pu:2", "sched-domains");
    for (int i = 0; i < 12; ++i)
        add(sim, {compute_ms(5 + 7 * i), sleep_ms(3, -1), compute_ms(20)}, i < 6 ? cpus({0, 1}) : CpuSet{});
    sim.start();
    const int npu = sim.topology().pu_count();
    int grew = 0, reset = 0, mismatches = 0;
    std::vector<double> before;
    for (int c = 0; c < npu; ++c)
        for (const auto &sd : balancer(sim).domains_of(c))
            before.push_back(sd.balance_interval_ms);
    while (sim.now() < 150 * kMs && sim.step()) {
        size_t k = 0;
        for (int c = 0; c < npu; ++c) {
            for (const auto &sd : balancer(sim).domains_of(c)) {
                grew += sd.balance_interval_ms > before[k] ? 1 : 0;
                reset += sd.balance_interval_ms < before[k] ? 1 : 0;
                before[k++] = sd.balance_interval_ms;
            }
            for (const bool idle : {true, false})
                mismatches += balancer(sim).next_balance_ns(c, idle) == balancer(sim).earliest_balance_ns(sim, c, idle)
                                  ? 0
                                  : 1;
        }
    }
    CHECK(mismatches == 0);
    CHECK(grew > 0);  // balanced passes lengthened intervals...
    CHECK(reset > 0); // ...and imbalanced ones shortened them again
}
