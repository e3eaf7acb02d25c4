// Balancing policies on tiny machines, with outcomes worked out by hand:
// who pulls what, when, and what stops them.

#include "catalog/catalog.h"
#include "engine/invariants.h"
#include "engine/simulation.h"
#include "engine_test_access.h"
#include "policies/domain_balancer.h"
#include "topology/import.h"

#include <catch2/catch.hpp>

using namespace schedscope;

namespace {

Simulation make(const std::string &topo, const std::string &policy, std::uint64_t seed = 1, bool noise = true)
{
    SimConfig cfg;
    cfg.seed = seed;
    if (!noise)
        cfg.model.os_noise = 0; // the scripted tasks alone
    auto [name, params] = parse_name_params(policy, "test");
    return Simulation(std::make_shared<const Topology>(import_synthetic(topo)), make_policy(name, params, "test"), cfg);
}

// A CPU-bound task of `work_ms` with no memory traffic.
TaskId add_spin(Simulation &sim, double work_ms)
{
    ProcId p = sim.add_process("p" + std::to_string(sim.processes().size()), 4 << 20);
    Simulation::TaskSpec s;
    s.program.ops = {Op{Op::Kind::Compute, static_cast<std::int64_t>(work_ms * 1e6), 0, -1}};
    s.working_set_bytes = 256 * 1024;
    return sim.add_task(p, std::move(s));
}

std::vector<Decision> decisions_of(const Simulation &sim, DecisionKind kind, int to)
{
    std::vector<Decision> out;
    for (auto &d : sim.recording().decisions)
        if (d.kind == kind && d.to == to)
            out.push_back(d);
    return out;
}

// 2 nodes x 2 CPUs, six tasks arriving together. linux-2.5-numa's exec
// placement on the least loaded node alternates nodes: 0 -> CPU 0,
// 1 -> CPU 2, 2 -> CPU 1, 3 -> CPU 3, 4 -> CPU 0, 5 -> CPU 2. Task
// `short_task` (2 by default), alone on CPU 1, is short: when it exits CPU 1
// is idle while CPU 0 (same node) has two.
Simulation idle_pull_setup(const std::string &policy, int short_task = 2)
{
    Simulation sim = make("pack:2 [numa] core:2 pu:1", policy);
    for (int i = 0; i < 6; ++i)
        add_spin(sim, i == short_task ? 5.0 : 200.0);
    return sim;
}

} // namespace

TEST_CASE("linux-2.5-numa places new tasks on the least loaded node", "[policy]")
{
    Simulation sim = idle_pull_setup("linux-2.5-numa");
    sim.run_until(100'000);
    const std::vector<int> expected{0, 2, 1, 3, 0, 2};
    for (int t = 0; t < 6; ++t)
        CHECK(sim.task(t).cpu == expected[t]);
}

TEST_CASE("linux-2.5-numa: an idle CPU pulls from its node within one idle tick", "[policy]")
{
    Simulation sim = idle_pull_setup("linux-2.5-numa");
    sim.run_until(20'000'000);
    const SimTime exit_ns = sim.task(2).stats.user_ns + sim.task(2).stats.sys_ns; // it ran alone from 0
    REQUIRE(sim.task(2).state == TaskState::Exited);
    auto pulls = decisions_of(sim, DecisionKind::Pull, 1);
    REQUIRE(!pulls.empty());
    CHECK(pulls.front().from == 0); // within the node, from the CPU with two
    CHECK(pulls.front().time_ns >= exit_ns - 50'000);
    CHECK(pulls.front().time_ns <= exit_ns + sim.model().tick_ns);
    CHECK(pulls.front().reason.find("CPU 1") == 0);
    CHECK(check_invariants(sim).empty());
}

TEST_CASE("linux-2.5-numa with idle_balance_mask=cpu: the idle CPU pulls only as it goes idle", "[policy]")
{
    // A2's own-mask mistake is in rebalance_tick(): an idle CPU's ticks find
    // nothing, while schedule() on an emptied runqueue balances within the
    // node as before. CPU 1 pulls the moment task 2 exits, and never on a
    // tick.
    Simulation sim = idle_pull_setup("linux-2.5-numa:idle_balance_mask=cpu");
    sim.run_to_end();
    auto pulls = decisions_of(sim, DecisionKind::Pull, 1);
    REQUIRE(!pulls.empty());
    for (auto &d : pulls) {
        CHECK(d.reason.find("newly idle") != std::string::npos);
        CHECK(d.reason.find("idle tick") == std::string::npos);
    }
    // No idle tick pulls anywhere: each looks at its own runqueue only.
    for (int cpu : {0, 2, 3})
        for (auto &d : decisions_of(sim, DecisionKind::Pull, cpu))
            CHECK(d.reason.find("idle tick") == std::string::npos);
    CHECK(check_invariants(sim).empty());
}

TEST_CASE("linux-2.5-numa: the idle node balancer variant pulls across nodes", "[policy]")
{
    // Node 1 idle, node 0 overloaded: only node balancing can help, and
    // busy node balancing never runs on an idle CPU.
    auto setup = [](const std::string &policy) {
        Simulation sim = make("pack:2 [numa] core:2 pu:1", policy);
        for (int i = 0; i < 4; ++i) {
            TaskId t = add_spin(sim, 50.0);
            CpuSet node0;
            node0.set(0);
            node0.set(1);
            // Pinned for placement only: released after the first ms below.
            EngineTestAccess::task(sim, t).cpus_allowed = node0;
        }
        sim.run_until(500'000);
        for (auto &t : sim.tasks())
            for (int c = 0; c < 4; ++c)
                EngineTestAccess::task(sim, t.id).cpus_allowed.set(c);
        sim.run_to_end();
        return sim;
    };
    // node_mask=node: "within the node" is the node, so an idle CPU of
    // node 1 can cross only by node balancing (A2 as built balances over
    // every CPU and would cross anyway: test_policy_linux25_rework.cpp).
    Simulation off = setup("linux-2.5-numa:node_mask=node");
    Simulation on = setup("linux-2.5-numa:node_mask=node,idle_node_rebalance_tick_ms=5");
    CHECK(decisions_of(off, DecisionKind::Pull, 2).empty());
    CHECK(decisions_of(off, DecisionKind::Pull, 3).empty());
    CHECK(decisions_of(on, DecisionKind::Pull, 2).size() + decisions_of(on, DecisionKind::Pull, 3).size() >= 2);
    CHECK(on.end_time() < off.end_time());
}

TEST_CASE("sched-domains builds the levels the machine has", "[policy]")
{
    auto levels = [](const std::string &topo) {
        Simulation sim = make(topo, "sched-domains");
        add_spin(sim, 1.0);
        sim.start();
        std::vector<std::string> names;
        for (auto &sd : dynamic_cast<const DomainBalancer &>(sim.policy()).domains_of(0))
            names.push_back(sd.level + ":" + sd.span.to_list_string() + "/" + std::to_string(sd.groups().size()));
        return names;
    };
    CHECK(levels("pack:1 core:2 pu:1") == std::vector<std::string>{"package:0-1/2"});
    CHECK(levels("pack:2 [numa] l3:1 core:2 pu:2") == std::vector<std::string>{"SMT:0-1/2", "MC:0-3/2", "NUMA:0-7/2"});
    CHECK(levels("pack:2 core:2 pu:1") == std::vector<std::string>{"package:0-1/2", "node:0-3/2"});
}

TEST_CASE("sched-domains: a newly idle CPU pulls at once", "[policy]")
{
    // 2.6.9's sched_exec() from CPU 0 (find_idlest_cpu): tasks 0-3 go to
    // CPUs 0-3, and 4 and 5 stay on CPU 0, cpu_load being still 0 at the
    // start (source_load(0) + 128 = 128 is not above an idle CPU's 128 x
    // 112 %). Task 1, alone on CPU 1, is the short one: CPU 0, in its
    // package, has three when it exits.
    Simulation sim = idle_pull_setup("sched-domains:cache_hot_time_ms=0", 1);
    sim.run_until(100'000);
    const std::vector<int> placed{0, 1, 2, 3, 0, 0};
    for (int t = 0; t < 6; ++t)
        CHECK(sim.task(t).cpu == placed[static_cast<size_t>(t)]);
    sim.run_until(20'000'000);
    const SimTime exit_ns = sim.task(1).stats.user_ns + sim.task(1).stats.sys_ns;
    auto pulls = decisions_of(sim, DecisionKind::Pull, 1);
    REQUIRE(!pulls.empty());
    CHECK(pulls.front().from == 0);
    CHECK(pulls.front().time_ns <= exit_ns + sim.model().tick_ns);
}

TEST_CASE("sched-domains: a cache-hot task is skipped until cache_nice_tries attempts failed", "[policy]")
{
    // CPU 0 runs tasks 0 and 2 (long, taking turns in 2.6.9's 100 ms
    // slices), CPU 1 runs task 1 (250 ms). With cache_hot_time far above the
    // slice, the task queued on CPU 0 is always hot (it last ran one slice
    // ago; task_hot() counts from p->last_ran). CPU 1 goes idle at ~250 ms: its new-idle
    // attempt skips the hot task without counting a failure (2.6.9's
    // load_balance_newidle), then one attempt per idle tick fails while the
    // failures are below cache_nice_tries (2.6.9's can_migrate_task):
    // cache_nice_tries + 1 skips precede the pull.
    for (int tries : {0, 1, 3}) {
        // Without the OS's threads: a kworker running on CPU 1 in the quarter
        // second before it idles would add new-idle passes of its own.
        Simulation sim = make("pack:1 core:2 pu:1",
                              "sched-domains:cache_hot_time_ms=1000,cache_nice_tries=" + std::to_string(tries), 1,
                              false);
        add_spin(sim, 600);
        add_spin(sim, 250);
        add_spin(sim, 600);
        sim.run_until(400'000'000);
        auto pulls = decisions_of(sim, DecisionKind::Pull, 1);
        REQUIRE(!pulls.empty());
        int skips = 0;
        for (auto &d : decisions_of(sim, DecisionKind::SkipHot, 1))
            if (d.time_ns < pulls.front().time_ns) {
                ++skips;
                CHECK(d.reason.find("cache hot") != std::string::npos);
            }
        INFO("cache_nice_tries=" << tries);
        CHECK(skips == tries + 1);
        CHECK(pulls.front().reason.find("cache hot") != std::string::npos);
        // Taken by a periodic idle pass: a newly idle CPU never takes a hot task.
        CHECK(pulls.front().reason.find("CPU 1 idle") != std::string::npos);
        // The new-idle attempt left the level's failure count alone: the
        // periodic passes alone reached the pull.
        for (auto &d : decisions_of(sim, DecisionKind::Pull, 1))
            if (d.reason.find("cache hot") != std::string::npos)
                CHECK(d.reason.find("newly idle") == std::string::npos);
    }
    // A cold task (cache_hot_time 0) is taken at the first attempt.
    Simulation cold = make("pack:1 core:2 pu:1", "sched-domains:cache_hot_time_ms=0");
    add_spin(cold, 200);
    add_spin(cold, 5);
    add_spin(cold, 200);
    cold.run_until(30'000'000);
    CHECK(decisions_of(cold, DecisionKind::SkipHot, 1).empty());
    CHECK(!decisions_of(cold, DecisionKind::Pull, 1).empty());
}

TEST_CASE("sched-domains params() gives the effective values and reads back the same", "[policy]")
{
    auto p = make_policy("sched-domains", {{"migration_cost_ns", "500000"}}, "test");
    ParamMap m = p->params();
    CHECK(m.at("cache_hot_time_ms") == "0.5");
    CHECK(m.at("migration_cost_ns") == "500000");
    CHECK(m.at("cache_nice_tries") == "1");
    CHECK(m.at("wakeup") == "locked");
    auto again = make_policy("sched-domains", m, "test");
    CHECK(again->params() == m);
}
