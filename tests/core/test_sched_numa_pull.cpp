// The load-balancer side of sched/numa's 25 October 2012 posting
// (NumaPull::OffnodeFirst, core/policies/cfs_numa_pull.cpp), each rule on a
// 2-node machine of 2 CPUs per node (CPUs 0-1 node 0, 2-3 node 1) with the
// tasks' homes set by hand: which task the balancer pulls first (NUMA_PULL),
// which moves a busy CPU's pass refuses (task_numa_hot()), a balanced NUMA
// level still bringing an off-node task home (NUMA_PULL_BIAS, with the
// stopper for a lone one), and wakeups that ignore the home
// (NUMA_TTWU_BIAS off).

#include "engine/invariants.h"
#include "engine/simulation.h"
#include "engine_test_access.h"
#include "hand_built.h"
#include "policies/cfs_balancer.h"
#include "topology/import.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <vector>

using namespace schedscope;
using namespace schedscope::hand_built;

namespace {

// CFS with homes set by hand (preferred_node()) and the chosen NumaPull;
// sched_migration_cost 0, so that no task is cache hot and only the NUMA
// rules decide.
class HomedCfs final : public CfsBalancer {
public:
    explicit HomedCfs(NumaPull mode) : CfsBalancer(no_cache_hot()), mode_(mode) {}
    std::unique_ptr<Policy> clone() const override { return std::make_unique<HomedCfs>(*this); }
    std::string name() const override { return "homed-cfs"; }
    ParamMap params() const override { return base_params(); }
    int preferred_node(PolicyView, TaskId t) const override
    {
        return t >= 0 && static_cast<size_t>(t) < homes.size() ? homes[static_cast<size_t>(t)] : kNoNode;
    }
    std::vector<int> homes;

protected:
    NumaPull numa_pull() const override { return mode_; }

private:
    static CfsParams no_cache_hot()
    {
        CfsParams p;
        p.sched_migration_cost_ns = 0;
        return p;
    }
    NumaPull mode_;
};

Simulation make(NumaPull mode = NumaPull::OffnodeFirst, const std::string &topo = "pack:2 [numa] core:2 pu:1")
{
    SimConfig cfg;
    cfg.seed = 3;
    cfg.model.os_noise = 0;
    return Simulation(std::make_shared<const Topology>(import_synthetic(topo)), std::make_unique<HomedCfs>(mode), cfg);
}

HomedCfs &pol(Simulation &sim) { return dynamic_cast<HomedCfs &>(sim.policy()); }

// `per_cpu[c]` CPU-bound tasks pinned to CPU c, run for 300 ms so that
// cpu_load[] settles; then every task may run anywhere and has no home.
std::vector<TaskId> settle(Simulation &sim, const std::vector<int> &per_cpu)
{
    std::vector<TaskId> all;
    for (int c = 0; c < static_cast<int>(per_cpu.size()); ++c)
        for (int i = 0; i < per_cpu[static_cast<size_t>(c)]; ++i)
            all.push_back(add_spin_on(sim, c, 100'000));
    sim.run_until(300 * kMs);
    for (TaskId t : all)
        release(sim, t);
    pol(sim).homes.assign(sim.tasks().size(), kNoNode);
    return all;
}

// The tasks pulled, in order, by the decisions recorded after `from`.
std::vector<TaskId> pulls_since(const Simulation &sim, size_t from)
{
    std::vector<TaskId> out;
    const auto &d = sim.recording().decisions;
    for (size_t i = from; i < d.size(); ++i)
        if (d[i].kind == DecisionKind::Pull)
            out.push_back(d[i].task);
    return out;
}

} // namespace

TEST_CASE("sched/numa October 2012: move_tasks() walks the off-node tasks first (NUMA_PULL)",
          "[policy][cfs][sched-numa]")
{
    // CPU 0 idle, CPU 1 and CPU 3 one task each, CPU 2 three. Of CPU 2's
    // two queued tasks the older one is made off its home (home 0), the
    // newer one at home (home 1). 3.6 walks cfs_tasks newest first; the
    // October posting walks offnode_tasks first, so the older one goes.
    for (const NumaPull mode : {NumaPull::OffnodeFirst, NumaPull::AwayIsHot}) {
        Simulation sim = make(mode);
        settle(sim, {0, 1, 3, 1});
        const auto &queue = sim.rq(2).queue;
        REQUIRE(queue.size() == 2);
        const TaskId older = queue[0], newer = queue[1];
        pol(sim).homes[static_cast<size_t>(older)] = 0;
        pol(sim).homes[static_cast<size_t>(newer)] = 1;
        if (mode == NumaPull::AwayIsHot)
            pol(sim).homes.assign(sim.tasks().size(), kNoNode); // plain 3.6 order
        const int lvl = level_index(pol(sim), 0, "NUMA");
        REQUIRE(lvl >= 0);
        const size_t before = sim.recording().decisions.size();
        REQUIRE(pol(sim).balance_level(sim, 0, lvl, true));
        const std::vector<TaskId> pulled = pulls_since(sim, before);
        REQUIRE_FALSE(pulled.empty());
        INFO((mode == NumaPull::OffnodeFirst ? "October 2012" : "plain 3.6 order"));
        CHECK(pulled.front() == (mode == NumaPull::OffnodeFirst ? older : newer));
        CHECK(check_invariants(sim).empty());
    }
}

TEST_CASE("sched/numa October 2012: a busy CPU's pass refuses a move no nearer home, an idle one takes it "
          "(task_numa_hot())",
          "[policy][cfs][sched-numa]")
{
    // CPU 2 runs three tasks at home on node 1; node 0 is less loaded.
    // A busy CPU 0 finds the imbalance, but every move to node 0 takes a
    // task away from home: refused (nr_balance_failed 0, cache_nice_tries
    // 2 at the NUMA level). An idle CPU 0 has no such test and pulls.
    for (const bool idle : {false, true}) {
        Simulation sim = make();
        settle(sim, {idle ? 0 : 1, 1, 3, 1});
        for (TaskId t : sim.rq(2).queue)
            pol(sim).homes[static_cast<size_t>(t)] = 1;
        pol(sim).homes[static_cast<size_t>(sim.rq(2).current)] = 1;
        const int lvl = level_index(pol(sim), 0, "NUMA");
        REQUIRE(pol(sim).domains_of(0)[static_cast<size_t>(lvl)].nr_balance_failed == 0);
        const size_t before = sim.recording().decisions.size();
        const bool moved = pol(sim).balance_level(sim, 0, lvl, idle);
        INFO((idle ? "idle CPU 0" : "busy CPU 0"));
        CHECK(moved == idle);
        CHECK((sim.nr_running(2) < 3) == idle);
        if (!idle) {
            const auto &d = sim.recording().decisions;
            CHECK(std::any_of(d.begin() + static_cast<std::ptrdiff_t>(before), d.end(),
                              [](const Decision &x) { return x.reason.find("task_numa_hot") != std::string::npos; }));
        }
    }
}

TEST_CASE("sched/numa October 2012: a busy CPU's pass takes a move towards home", "[policy][cfs][sched-numa]")
{
    // As above with CPU 2's queued tasks homed on node 0: nearer home, so
    // not NUMA-hot, and the busy pass pulls one.
    Simulation sim = make();
    settle(sim, {1, 1, 3, 1});
    for (TaskId t : sim.rq(2).queue)
        pol(sim).homes[static_cast<size_t>(t)] = 0;
    const int lvl = level_index(pol(sim), 0, "NUMA");
    CHECK(pol(sim).balance_level(sim, 0, lvl, false));
    CHECK(sim.nr_running(2) == 2);
}

TEST_CASE("sched/numa October 2012: a balanced NUMA level still pulls an off-node task home (NUMA_PULL_BIAS)",
          "[policy][cfs][sched-numa]")
{
    // Node 0 runs 5 tasks (3 + 2), node 1 6 (3 + 3): 6 x 100 <= 5 x 125,
    // balanced for a busy CPU 0 by imbalance_pct. One queued task of CPU 2
    // has home 0. CPU 0's group has homeless tasks to trade, so
    // check_numa_busiest_group() sets an imbalance of that task's load and
    // CPU 0 pulls it. Without the off-node task, or with nothing to trade
    // (every task of node 0 at home), nothing moves.
    enum Case { OffNode, NoneOffNode, NothingToTrade };
    for (const Case c : {OffNode, NoneOffNode, NothingToTrade}) {
        Simulation sim = make();
        settle(sim, {3, 2, 3, 3});
        const TaskId away = sim.rq(2).queue.front();
        if (c != NoneOffNode)
            pol(sim).homes[static_cast<size_t>(away)] = 0;
        if (c == NothingToTrade)
            for (int cpu : {0, 1}) {
                pol(sim).homes[static_cast<size_t>(sim.rq(cpu).current)] = 0;
                for (TaskId t : sim.rq(cpu).queue)
                    pol(sim).homes[static_cast<size_t>(t)] = 0;
            }
        const int lvl = level_index(pol(sim), 0, "NUMA");
        const bool moved = pol(sim).balance_level(sim, 0, lvl, false);
        INFO("case " << static_cast<int>(c));
        CHECK(moved == (c == OffNode));
        CHECK(sim.task(away).cpu == (c == OffNode ? 0 : 2));
        CHECK(check_invariants(sim).empty());
    }
    // Plain 3.6 (no homes, AwayIsHot): balanced, nothing moves.
    Simulation plain = make(NumaPull::AwayIsHot);
    settle(plain, {3, 2, 3, 3});
    CHECK_FALSE(pol(plain).balance_level(plain, 0, level_index(pol(plain), 0, "NUMA"), false));
}

TEST_CASE("sched/numa October 2012: a lone off-node task is pushed home by the stopper at once "
          "(need_active_numa_balance())",
          "[policy][cfs][sched-numa]")
{
    // 4 CPUs per node here (CPUs 4-7 node 1), so that node 1's runqueues
    // differ by one task at most (no group_imb): node 0 runs 6 tasks
    // (2 2 1 1), node 1 7 (1 2 2 2), 7 x 100 <= 6 x 125. CPU 4's one task is
    // homed on node 0. The pull bias picks CPU 4, which runs that task
    // only: move_tasks() has nothing queued, and the stopper pushes the
    // running task to CPU 0 on the first failure.
    Simulation sim = make(NumaPull::OffnodeFirst, "pack:2 [numa] core:4 pu:1");
    settle(sim, {2, 2, 1, 1, 1, 2, 2, 2});
    const TaskId lone = sim.rq(4).current;
    REQUIRE(lone >= 0);
    REQUIRE(sim.rq(4).queue.empty());
    pol(sim).homes[static_cast<size_t>(lone)] = 0;
    const int lvl = level_index(pol(sim), 0, "NUMA");
    const size_t before = sim.recording().decisions.size();
    pol(sim).balance_level(sim, 0, lvl, false);
    const auto &d = sim.recording().decisions;
    CHECK(sim.task(lone).cpu == 0);
    CHECK(std::any_of(d.begin() + static_cast<std::ptrdiff_t>(before), d.end(), [&](const Decision &x) {
        return x.kind == DecisionKind::Pull && x.task == lone &&
               x.reason.find("lone off-node task") != std::string::npos;
    }));
    CHECK(check_invariants(sim).empty());
}

TEST_CASE("sched/numa October 2012: wakeups ignore the home (NUMA_TTWU_BIAS off)", "[policy][cfs][sched-numa]")
{
    // A task on CPU 0 with home 1 wakes as plain 3.6 would: near CPU 0
    // (select_idle_sibling finds idle CPU 1 on node 0), not on node 1.
    Simulation sim = make();
    settle(sim, {1, 0, 0, 0});
    const TaskId t = sim.rq(0).current;
    pol(sim).homes[static_cast<size_t>(t)] = 1;
    const int home1 = pol(sim).select_cpu_wakeup(sim, t, -1);
    pol(sim).homes[static_cast<size_t>(t)] = kNoNode;
    const int none = pol(sim).select_cpu_wakeup(sim, t, -1);
    CHECK(home1 == none);
    CHECK(sim.topology().node_of_pu(home1) == 0);
}
