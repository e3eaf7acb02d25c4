// linux-2.5-numa variant=orig (Linux 2.5.59 as released) on hand-built
// machines: which task an idle or busy CPU pulls, when, and from where;
// every NODE_BALANCE_RATE-th balance crossing nodes; find_busiest_node's
// NODE_THRESHOLD; the hot-task rule that binds idle CPUs too (in the
// rework as well).

#include "catalog/catalog.h"
#include "engine/invariants.h"
#include "engine/simulation.h"
#include "engine_test_access.h"
#include "hand_built.h"
#include "topology/import.h"
#include "util/input_error.h"

#include <catch2/catch.hpp>

using namespace schedscope;
using namespace schedscope::hand_built;

namespace {

constexpr const char *kTwoNodes = "pack:2 [numa] core:2 pu:1"; // CPUs 0-1 node 0, 2-3 node 1

// Five tasks started on CPU 0, released after half a millisecond: task 0
// runs, 1-4 are queued and have never run (cold).
Simulation five_on_cpu0(const std::string &policy)
{
    Simulation sim = make_sim(kTwoNodes, policy);
    for (int i = 0; i < 5; ++i)
        add_spin_on(sim, 0, 1000.0);
    sim.run_until(kMs / 2);
    for (int i = 0; i < 5; ++i)
        release(sim, i);
    return sim;
}

} // namespace

TEST_CASE("orig: an idle CPU pulls one task, the most recently queued, from its node on the next tick",
          "[policy][orig]")
{
    Simulation sim = five_on_cpu0("linux-2.5-numa:variant=orig");
    sim.run_until(9 * kMs);
    auto pulls = decisions_to(sim, DecisionKind::Pull, 1);
    REQUIRE(pulls.size() == 1);         // idle: one task, although (5 - 0) / 2 = 2 would balance
    CHECK(pulls[0].time_ns == 1 * kMs); // the first idle tick after the release
    CHECK(pulls[0].from == 0);
    CHECK(pulls[0].task == 4); // load_balance() walks the queue from its tail
    CHECK(pulls[0].reason.find("within node 0") != std::string::npos);
    // Node 1's CPUs balanced within node 1 only, where there is nothing.
    CHECK(decisions_to(sim, DecisionKind::Pull, 2).empty());
    CHECK(decisions_to(sim, DecisionKind::Pull, 3).empty());
    CHECK(check_invariants(sim).empty());
}

TEST_CASE("orig: every NODE_BALANCE_RATE-th balance crosses to the busiest node", "[policy][orig]")
{
    for (int rate : {10, 4}) {
        Simulation sim = five_on_cpu0("linux-2.5-numa:variant=orig" +
                                      (rate == 10 ? std::string() : ",node_balance_rate=" + std::to_string(rate)));
        sim.run_until(30 * kMs);
        for (int cpu : {2, 3}) {
            auto pulls = decisions_to(sim, DecisionKind::Pull, cpu);
            REQUIRE(!pulls.empty());
            // Idle CPUs 2 and 3 balance on every 1 ms tick, the first at
            // 1 ms; call number `rate` is the first to look beyond node 1.
            CHECK(pulls[0].time_ns == rate * kMs);
            CHECK(pulls[0].from == 0);
            CHECK(pulls[0].reason.find("crosses to busiest node 0") != std::string::npos);
        }
        // Each took a different cold task from CPU 0's tail.
        CHECK(decisions_to(sim, DecisionKind::Pull, 2)[0].task != decisions_to(sim, DecisionKind::Pull, 3)[0].task);
    }
}

TEST_CASE("orig: find_busiest_node needs more than NODE_THRESHOLD % of our node's load", "[policy][orig]")
{
    // Node 0 holds 5 runnable (3 on CPU 0, 2 on CPU 1), free to move; node 1
    // holds `pinned` tasks that only CPU 2 may run, so CPU 3 idles and finds
    // nothing within its node. Its 10th balance compares 5 with `pinned`.
    auto first_pull_to_3 = [](int pinned) {
        Simulation sim = make_sim(kTwoNodes, "linux-2.5-numa:variant=orig");
        for (int i = 0; i < 3; ++i)
            add_spin_on(sim, 0, 1000.0);
        for (int i = 0; i < 2; ++i)
            add_spin_on(sim, 1, 1000.0);
        for (int i = 0; i < pinned; ++i)
            add_spin_on(sim, 2, 1000.0);
        sim.run_until(kMs / 2);
        for (TaskId t = 0; t < 5; ++t)
            release(sim, t);
        sim.run_until(12 * kMs);
        auto pulls = decisions_to(sim, DecisionKind::Pull, 3);
        return pulls.empty() ? SimTime(-1) : pulls[0].time_ns;
    };
    CHECK(first_pull_to_3(3) == 10 * kMs); // 500 > 125 x 3: crosses at call 10 (the 10 ms tick)
    CHECK(first_pull_to_3(4) == -1);       // 500 > 125 x 4 is false: stays home
}

TEST_CASE("orig: a busy CPU pulls only an imbalance seen on two busy ticks", "[policy][orig]")
{
    // One node of two CPUs: CPU 1 runs one task, CPU 0 four. The busy tick
    // (250 ms) compares with the lengths remembered from the previous look,
    // which start at 0: the first look cannot pull, the second does.
    Simulation sim = make_sim("pack:1 core:2 pu:1", "linux-2.5-numa:variant=orig");
    for (int i = 0; i < 4; ++i)
        add_spin_on(sim, 0, 2000.0);
    add_spin_on(sim, 1, 2000.0);
    sim.run_until(kMs / 2);
    for (TaskId t = 0; t < 4; ++t)
        release(sim, t);
    sim.run_until(600 * kMs);
    auto pulls = decisions_to(sim, DecisionKind::Pull, 1);
    REQUIRE(pulls.size() == 1); // imbalance (4 - 1) / 2 = 1
    CHECK(pulls[0].time_ns == 500 * kMs);
    CHECK(pulls[0].from == 0);
    CHECK(pulls[0].reason.find("busy tick") != std::string::npos);
}

TEST_CASE("idle CPUs skip cache-hot tasks, in orig and in the rework alike", "[policy][orig]")
{
    // With the engine's 6 ms rotation (timeslice=cfs) both tasks on CPU 0
    // have run within 10 ms (cache_decay_ticks) when CPU 1 looks. 2.5.59's
    // CAN_MIGRATE_TASK refuses them whether or not the puller is idle, and
    // sched-2.5.59-A2 left it as it was.
    auto run = [](const std::string &policy) {
        Simulation sim = make_sim("pack:1 core:2 pu:1", policy);
        for (int i = 0; i < 2; ++i)
            add_spin_on(sim, 0, 100.0);
        sim.run_until(7 * kMs);
        for (TaskId t = 0; t < 2; ++t)
            release(sim, t);
        sim.run_until(20 * kMs);
        return sim;
    };
    for (const char *policy : {"linux-2.5-numa:variant=orig,timeslice=cfs", "linux-2.5-numa:timeslice=cfs"}) {
        Simulation hot = run(policy);
        CHECK(decisions_to(hot, DecisionKind::Pull, 1).empty());
        CHECK(!decisions_to(hot, DecisionKind::SkipHot, 1).empty());
    }
    // With 2.5.59's 151 ms timeslice (the default) the queued task has not run:
    // both pull it.
    for (const char *policy : {"linux-2.5-numa:variant=orig", "linux-2.5-numa"}) {
        Simulation o1 = run(policy);
        CHECK(decisions_to(o1, DecisionKind::Pull, 1).size() == 1);
    }
}

TEST_CASE("orig: schedule() on an empty runqueue balances at once", "[policy][orig]")
{
    // CPU 1's only task ends at 3.5 ms, between ticks; CPU 0 holds two
    // queued cold tasks. The pull comes from the new-idle call, not a tick.
    Simulation sim = cpu1_runs_dry("pack:1 core:2 pu:1", "linux-2.5-numa:variant=orig", 3, kMs / 2, 10 * kMs);
    auto pulls = decisions_to(sim, DecisionKind::Pull, 1);
    REQUIRE(!pulls.empty());
    CHECK(pulls[0].reason.find("newly idle") != std::string::npos);
    CHECK(pulls[0].time_ns % kMs != 0);
}

TEST_CASE("linux-2.5-numa variants refuse each other's knobs", "[policy][orig]")
{
    auto error_field = [](const std::string &text) {
        try {
            auto [name, params] = parse_name_params(text, "test");
            make_policy(name, params, "test");
        } catch (const InputError &e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK(error_field("linux-2.5-numa:variant=orig,idle_balance_mask=cpu").find("idle_balance_mask") !=
          std::string::npos);
    CHECK(error_field("linux-2.5-numa:node_balance_rate=5").find("node_balance_rate") != std::string::npos);
    CHECK(error_field("linux-2.5-numa:variant=2.5.60").find("variant") != std::string::npos);
    CHECK(error_field("linux-2.5-numa:variant=orig,node_balance_rate=10").empty());
}
