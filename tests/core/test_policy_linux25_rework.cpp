// linux-2.5-numa variant=rework (sched-2.5.59-A2) on hand-built machines:
// which task a CPU pulls, when, and from where, under A2's rebalance_tick()
// and schedule() with 2.5.59's find_busiest_queue() and
// find_busiest_node(); the two mistakes of A2 as posted (the idle tick's own
// mask, idle=1 on the busy branch) and their corrections.

#include "catalog/catalog.h"
#include "engine/invariants.h"
#include "engine/simulation.h"
#include "engine_test_access.h"
#include "hand_built.h"
#include "topology/import.h"

#include <catch2/catch.hpp>

using namespace schedscope;
using namespace schedscope::hand_built;

namespace {

constexpr const char *kTwoNodes = "pack:2 [numa] core:2 pu:1"; // CPUs 0-1 node 0, 2-3 node 1

// One node of two CPUs: five cold tasks queued on CPU 0, one pinned on
// CPU 1, so both CPUs stay busy and only the busy tick (200 ms) balances.
Simulation five_against_one(const std::string &policy)
{
    Simulation sim = make_sim("pack:1 core:2 pu:1", policy);
    for (int i = 0; i < 5; ++i)
        add_spin_on(sim, 0, 2000.0);
    add_spin_on(sim, 1, 2000.0);
    sim.run_until(kMs / 2);
    for (TaskId t = 0; t < 5; ++t)
        release(sim, t);
    sim.run_until(900 * kMs);
    return sim;
}

} // namespace

TEST_CASE("rework: A2's busy tick balances with idle=1, one task on the first look", "[policy][rework]")
{
    // sched-2.5.59-A2 rebalance_tick(): the busy branch passes idle=1, so
    // find_busiest_queue() takes the runqueue lengths as they are (no
    // prev_cpu_load), skips the 25 % rule, and load_balance() stops after
    // one task: 5 against 1 moves one task per BUSY_REBALANCE_TICK.
    Simulation a2 = five_against_one("linux-2.5-numa");
    auto pulls = decisions_to(a2, DecisionKind::Pull, 1);
    REQUIRE(pulls.size() >= 2);
    CHECK(pulls[0].time_ns == 200 * kMs);
    CHECK(pulls[1].time_ns == 400 * kMs);
    CHECK(pulls[0].from == 0);
    CHECK(pulls[0].reason.find("busy tick (idle=1)") != std::string::npos);

    // busy_balance=busy (the flag corrected): the first look sees the
    // lengths remembered from no earlier look (0) and cannot pull; the
    // second takes the whole imbalance, (5 - 1) / 2 = 2 tasks, which passes
    // the 25 % rule (2 >= (5 + 3) / 4).
    Simulation fixed = five_against_one("linux-2.5-numa:busy_balance=busy");
    auto fixed_pulls = decisions_to(fixed, DecisionKind::Pull, 1);
    REQUIRE(fixed_pulls.size() == 2);
    CHECK(fixed_pulls[0].time_ns == 400 * kMs);
    CHECK(fixed_pulls[1].time_ns == 400 * kMs);
    CHECK(check_invariants(a2).empty());
}

TEST_CASE("rework: a busy CPU pulls from the busiest node on NODE_REBALANCE_TICK", "[policy][rework]")
{
    // Node 0: five tasks on CPU 0 and one on CPU 1, free to move. Node 1:
    // CPUs 2 and 3 each run one pinned task, so node 1 never idles and only
    // the busy branch's node balancing (every 400 ms) can cross, with
    // "within the node" meaning the node (node_mask=node; as built, the busy
    // tick's own balancing crosses too: the test after the next).
    auto run = [](const std::string &policy) {
        Simulation sim = make_sim(kTwoNodes, policy);
        for (int i = 0; i < 5; ++i)
            add_spin_on(sim, 0, 3000.0);
        add_spin_on(sim, 1, 3000.0);
        add_spin_on(sim, 2, 3000.0);
        add_spin_on(sim, 3, 3000.0);
        sim.run_until(kMs / 2);
        for (TaskId t = 0; t < 6; ++t)
            release(sim, t);
        sim.run_until(1000 * kMs);
        return sim;
    };
    Simulation a2 = run("linux-2.5-numa:node_mask=node");
    auto pulls = decisions_to(a2, DecisionKind::Pull, 2);
    REQUIRE(!pulls.empty());
    // find_busiest_node() on CPU 2's first look: node 0 holds 6 (6 > 125 %
    // of node 1's 2); the mask is node 0 plus CPU 2, and idle=1 takes one.
    CHECK(pulls[0].time_ns == 400 * kMs);
    CHECK(pulls[0].reason.find("node balancing towards busiest node 0") != std::string::npos);
    CHECK(pulls[0].reason.find("load 6 > 125% of 2") != std::string::npos);
    CHECK((pulls[0].from == 0 || pulls[0].from == 1));
    CHECK_FALSE(decisions_to(a2, DecisionKind::Pull, 3).empty());

    // NODE_REBALANCE_TICK halved: the first crossing comes at 200 ms.
    Simulation often = run("linux-2.5-numa:node_mask=node,node_rebalance_tick_ms=200");
    REQUIRE(!decisions_to(often, DecisionKind::Pull, 2).empty());
    CHECK(decisions_to(often, DecisionKind::Pull, 2)[0].time_ns == 200 * kMs);
}

TEST_CASE("rework: A2's idle tick with the CPU's own mask never pulls, the node's mask does", "[policy][rework]")
{
    // CPU 1's task ends at 3.5 ms while the four tasks on CPU 0 may not run
    // elsewhere yet, so going idle finds nothing. At 9.5 ms they are
    // released: from then on only the idle tick can bring CPU 1 work.
    auto run = [](const std::string &policy) { return cpu1_runs_dry(kTwoNodes, policy, 4, 19 * kMs / 2, 300 * kMs); };
    Simulation fixed = run("linux-2.5-numa");
    auto pulls = decisions_to(fixed, DecisionKind::Pull, 1);
    REQUIRE(!pulls.empty());
    CHECK(pulls[0].time_ns == 10 * kMs); // the first idle tick after the release
    CHECK(pulls[0].from == 0);
    CHECK(pulls[0].reason.find("idle tick, within node 0") != std::string::npos);

    Simulation a2 = run("linux-2.5-numa:idle_balance_mask=cpu");
    CHECK(decisions_to(a2, DecisionKind::Pull, 1).empty());
    CHECK(static_cast<double>(a2.rq(1).idle_ns) / 1e6 > 290.0);
}

TEST_CASE("rework: with A2's own-mask mistake a CPU going idle still balances within its node", "[policy][rework]")
{
    // sched-2.5.59-A2 schedule(): an emptied runqueue calls load_balance()
    // with __cpu_to_node_mask(), here the node's mask (node_mask=node); the
    // mistaken mask was rebalance_tick()'s. CPU 1's task ends at 3.5 ms,
    // between ticks, with three cold tasks queued on CPU 0.
    Simulation sim = cpu1_runs_dry(kTwoNodes, "linux-2.5-numa:idle_balance_mask=cpu,node_mask=node", 3, kMs / 2,
                                   10 * kMs);
    auto pulls = decisions_to(sim, DecisionKind::Pull, 1);
    REQUIRE(pulls.size() == 1); // idle: one task
    CHECK(pulls[0].reason.find("newly idle, within node 0") != std::string::npos);
    CHECK(pulls[0].time_ns % kMs != 0);
    CHECK(pulls[0].task == 3); // load_balance() walks the queue from its tail
    CHECK(check_invariants(sim).empty());
}

TEST_CASE("rework: A2 as built balances within __cpu_to_node_mask, which is every CPU", "[policy][rework]")
{
    // A2's include/linux/topology.h defines __cpu_to_node_mask() first as
    // cpu_online_map and then, dead, as the node's mask; no architecture
    // defines it. CPU 2 (node 1) runs dry at 3.5 ms while CPU 0 (node 0)
    // still has queued tasks and CPU 3 is idle: going idle, CPU 2 takes one
    // of them across nodes as built (the default), and nothing with the
    // node's mask, where node 1 has nothing to give.
    auto run = [](const std::string &policy) {
        Simulation sim = make_sim(kTwoNodes, policy);
        add_spin_on(sim, 2, 3.5);
        for (int i = 0; i < 3; ++i)
            add_spin_on(sim, 0, 500.0);
        sim.run_until(kMs / 2);
        for (TaskId t = 1; t <= 3; ++t)
            release(sim, t);
        sim.run_until(10 * kMs);
        return sim;
    };
    Simulation built = run("linux-2.5-numa");
    auto pulls = decisions_to(built, DecisionKind::Pull, 2);
    REQUIRE(pulls.size() == 1);
    CHECK(pulls[0].from == 0);
    CHECK(pulls[0].time_ns >= 7 * kMs / 2); // as it goes idle, before the next tick
    CHECK(pulls[0].time_ns < 4 * kMs);
    CHECK(pulls[0].reason.find("newly idle, within __cpu_to_node_mask (every CPU)") != std::string::npos);
    CHECK(check_invariants(built).empty());

    Simulation meant = run("linux-2.5-numa:node_mask=node");
    CHECK(decisions_to(meant, DecisionKind::Pull, 2).empty());
}

namespace {

// When the family below starts: between ticks, after the node tick at
// jiffy 0, so that only a tick 400 ms later could cross nodes.
constexpr SimTime kFamilyStart = 5 * kMs + kMs / 2;

// A program that forks `children` CPU-bound children of 300 ms and does
// not exec them (hackbench's shape): one Process, its first task the
// exec'd parent. Run to `until_ns`.
Simulation forked_family(const std::string &policy, int children, SimTime until_ns)
{
    Simulation sim = make_sim(kTwoNodes, policy);
    const ProcId p = sim.add_process("family", 4 << 20);
    for (int i = 0; i < 1 + children; ++i) {
        Simulation::TaskSpec s;
        s.program.ops = {Op{Op::Kind::Compute, 300 * kMs, 0, -1}};
        s.working_set_bytes = 256 * 1024;
        s.start_ns = kFamilyStart;
        sim.add_task(p, std::move(s));
    }
    sim.run_until(until_ns);
    return sim;
}

double busy_ms(const Simulation &sim, int cpu, SimTime until_ns)
{
    return static_cast<double>(until_ns - sim.rq(cpu).idle_ns) / 1e6;
}

} // namespace

TEST_CASE("2.5.59 starts forked children on their parent's CPU, for every variant", "[policy][rework][orig]")
{
    // Linux 2.5.59 wake_up_forked_process(): no balancing at fork; the
    // parent was placed by sched_balance_exec().
    for (const char *policy :
         {"linux-2.5-numa", "linux-2.5-numa:idle_balance_mask=cpu", "linux-2.5-numa:variant=orig"}) {
        Simulation sim = forked_family(policy, 3, kFamilyStart + kMs / 4); // before the next tick
        INFO(policy);
        for (TaskId t = 0; t < 4; ++t)
            CHECK(sim.task(t).cpu == 0);
    }
}

TEST_CASE("a forked family: A2 as posted leaves every other CPU idle, the fix shares the node, orig crosses nodes",
          "[policy][rework][orig]")
{
    // Five tasks on CPU 0 at fork. A2 as posted: the idle tick's own mask
    // pulls nothing and no other CPU ever goes idle from busy, so schedule()
    // never balances either; CPU 0's busy tick finds no busier queue.
    const SimTime until = 100 * kMs;
    Simulation posted = forked_family("linux-2.5-numa:idle_balance_mask=cpu", 4, until);
    for (int c = 1; c < 4; ++c)
        CHECK(busy_ms(posted, c, until) < 1.0);
    // A2 fixed: the idle tick balances within the node, so CPU 1 takes work
    // on its first tick; node 1 has no idle cross-node balancing in A2.
    Simulation fixed = forked_family("linux-2.5-numa", 4, until);
    CHECK(busy_ms(fixed, 1, until) > 90.0 - 5.0); // from its first tick after the start
    CHECK(busy_ms(fixed, 2, until) < 1.0);
    CHECK(busy_ms(fixed, 3, until) < 1.0);
    // orig: every NODE_BALANCE_RATE-th idle balance looks at the busiest
    // node, so node 1's CPUs get work within the first tens of ms.
    Simulation orig = forked_family("linux-2.5-numa:variant=orig", 4, until);
    CHECK(busy_ms(orig, 2, until) > 50.0);
    CHECK(busy_ms(orig, 3, until) > 50.0);
    for (const Simulation *s : {&posted, &fixed, &orig})
        CHECK(check_invariants(*s).empty());
}

TEST_CASE("rework: A2's one NODE_REBALANCE_TICK also runs on idle CPUs, every 400 ms", "[policy][rework]")
{
    // Five tasks on CPU 0 (A2 as posted keeps them there, see above): at
    // jiffy 400 the idle CPUs of node 1 look at the busiest node and each
    // takes one task (idle=1), the mistaken mask notwithstanding.
    const SimTime until = 450 * kMs;
    Simulation sim = forked_family("linux-2.5-numa:idle_balance_mask=cpu", 4, until);
    for (int c : {2, 3}) {
        auto pulls = decisions_to(sim, DecisionKind::Pull, c);
        REQUIRE(pulls.size() == 1);
        CHECK(pulls[0].time_ns == 400 * kMs);
        CHECK(pulls[0].from == 0);
        CHECK(pulls[0].reason.find("node balancing towards busiest node 0") != std::string::npos);
    }
    // As this model had A2 before (and B0's split made possible): off.
    Simulation off = forked_family("linux-2.5-numa:idle_balance_mask=cpu,idle_node_rebalance_tick_ms=0", 4, until);
    CHECK(decisions_to(off, DecisionKind::Pull, 2).empty());
    CHECK(decisions_to(off, DecisionKind::Pull, 3).empty());
}
