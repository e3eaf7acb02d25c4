// Migration analysis on tiny machines where every move is scripted, so the
// matrix, folds, times since last run and the refill and remote costs can be
// worked out by hand from the model constants.

#include "analysis/migration_analysis.h"
#include "analysis/migration_json.h"
#include "engine/simulation.h"
#include "scenario/run.h"
#include "topology/import.h"

#include <catch2/catch.hpp>

#include <map>

using namespace schedscope;

namespace {

constexpr SimTime kMs = 1'000'000;

// Places each task on a given PU, sends its wakeups to a scripted list of
// PUs, and moves running tasks or memory chunks at given tick times.
class ScriptedPolicy final : public Policy {
public:
    struct Move {
        SimTime at_ns;
        TaskId task;
        int to_cpu;
    };
    struct ChunkMove {
        SimTime at_ns;
        ProcId proc;
        int chunk;
        int node;
    };
    std::map<TaskId, int> start_cpu;
    std::map<TaskId, std::vector<int>> wake_cpus; // consumed in order; empty = wake where it was
    std::vector<Move> moves;
    std::vector<ChunkMove> chunk_moves;
    ParamMap extra_params;

    std::unique_ptr<Policy> clone() const override { return std::make_unique<ScriptedPolicy>(*this); }
    std::string name() const override { return "scripted"; }
    ParamMap params() const override { return extra_params; }
    // A balancer states its cache-hot threshold (Policy::cache_hot_time_ms);
    // this one takes it from its parameters when given one.
    double cache_hot_time_ms() const override
    {
        auto it = extra_params.find("cache_hot_time_ms");
        return it == extra_params.end() ? -1.0 : std::stod(it->second);
    }
    int select_cpu_fork(PolicyContext, TaskId t) override { return start_cpu.at(t); }
    int select_cpu_wakeup(PolicyContext sim, TaskId t, int) override
    {
        auto &list = wake_cpus[t];
        if (list.empty())
            return sim.task(t).cpu;
        const int to = list.front();
        list.erase(list.begin());
        if (to != sim.task(t).cpu)
            sim.log(DecisionKind::Wakeup, t, sim.task(t).cpu, to, "scripted wakeup to CPU " + std::to_string(to));
        return to;
    }
    void on_tick(PolicyContext sim, int cpu) override
    {
        for (const Move &m : moves)
            if (m.at_ns == sim.now() && sim.task(m.task).cpu == cpu)
                sim.migrate_task(m.task, m.to_cpu, cpu, DecisionKind::Pull,
                                 "scripted move to CPU " + std::to_string(m.to_cpu));
        for (const ChunkMove &c : chunk_moves)
            if (c.at_ns == sim.now() && cpu == 0)
                sim.migrate_chunk(c.proc, c.chunk, c.node, 0, "scripted chunk move");
    }
};

std::shared_ptr<const Topology> synth(const std::string &s)
{
    return std::make_shared<const Topology>(import_synthetic(s));
}

// One memory-bound task of 100 ms on PU 0 with its one chunk of memory on
// node 0, moved to PU 1 while it runs at 5 ms.
Simulation memory_task_sim(const std::string &topo, double intensity, double working_set_bytes,
                           std::vector<ScriptedPolicy::ChunkMove> chunk_moves = {})
{
    auto pol = std::make_unique<ScriptedPolicy>();
    pol->start_cpu[0] = 0;
    pol->moves = {{5 * kMs, 0, 1}};
    pol->chunk_moves = std::move(chunk_moves);
    // The costs below are worked out by hand without queueing (the task alone
    // loads its node's memory to a third: a queueing wait would be priced
    // too, and is tested in test_engine.cpp).
    // No OS noise either: its kernel threads and interrupts would share the
    // PUs. One dependent access at a time, so each access waits its whole
    // latency (no memory-level parallelism to carry through the sums).
    SimConfig cfg;
    cfg.model.queueing_max_utilisation = 0;
    cfg.model.os_noise = 0;
    Simulation sim(synth(topo), std::move(pol), cfg);
    const ProcId p = sim.add_process("m", sim.model().chunk_bytes);
    sim.place_chunks(p, 0, 1, 0);
    Simulation::TaskSpec s;
    s.program.ops = {{Op::Kind::Compute, 100 * kMs}};
    s.program.iterations = 1;
    s.segments = {AccessSegment{0, 1, 1.0}};
    s.mem_intensity = intensity;
    s.dependent_fraction = 1.0;
    s.working_set_bytes = working_set_bytes;
    sim.add_task(p, std::move(s));
    sim.start();
    return sim;
}

// Two tasks with no memory traffic that sleep and are woken on scripted PUs
// of a 2-node machine (PUs 0,1 share node 0's L2; PUs 2,3 node 1's):
//   A on PU 0: 2 ms work, 3 ms sleep, three times; woken on 1, 0, 2
//   B on PU 3: 1 ms work, 20 ms sleep, twice;      woken on 2, 3
Simulation sleepers_sim(ParamMap params = {})
{
    auto pol = std::make_unique<ScriptedPolicy>();
    pol->start_cpu = {{0, 0}, {1, 3}};
    pol->wake_cpus = {{0, {1, 0, 2}}, {1, {2, 3}}};
    pol->extra_params = std::move(params);
    SimConfig cfg;
    cfg.model.os_noise = 0; // only the scripted tasks
    Simulation sim(synth("pack:2 [numa] l2:1(size=1MB) core:2 pu:1"), std::move(pol), cfg);
    const ProcId p = sim.add_process("s", 0);
    auto add = [&](SimTime work, SimTime sleep, int iterations) {
        Simulation::TaskSpec s;
        s.program.ops = {{Op::Kind::Compute, work}, {Op::Kind::Sleep, sleep}};
        s.program.iterations = iterations;
        sim.add_task(p, std::move(s));
    };
    add(2 * kMs, 3 * kMs, 3);
    add(1 * kMs, 20 * kMs, 2);
    sim.start();
    return sim;
}

} // namespace

TEST_CASE("log histogram bins by decade fractions and counts every value once", "[analysis]")
{
    LogHistogram h(100.0, 2, 2); // edges 100, 316, 1000, 3162, 10000
    REQUIRE(h.edges().size() == 5);
    CHECK(h.edges()[2] == Approx(1000.0));
    for (double v : {0.0, 99.0, 100.0, 315.0, 1000.0, 9999.0, 10000.0, 1e9})
        h.add(v);
    CHECK(h.below() == 2);
    CHECK(h.counts() == std::vector<std::int64_t>{2, 0, 1, 1});
    CHECK(h.above() == 2);
    CHECK(h.total() == 8);
}

TEST_CASE("a hot task moved off its warm cache pays the refill, by hand from the model", "[analysis]")
{
    // One node; PU 1 shares no cache with PU 0. The 64 KiB working set is
    // warm in PU 0's L2 after the first tick, every access hitting the L2.
    constexpr double kIntensity = 0.01;
    Simulation sim = memory_task_sim("pack:2 l2:1(size=1MB) core:1 pu:1", kIntensity, 64 * 1024);
    sim.run_until(20 * kMs);
    const ModelParams &m = sim.model();

    const MigrationAnalysis a = analyze_migrations(sim);
    REQUIRE(a.items.size() == 1);
    const MigrationItem &it = a.items[0];
    CHECK(it.time_ns == 5 * kMs);
    CHECK(it.from_cpu == 0);
    CHECK(it.to_cpu == 1);
    CHECK(it.since_last_ran_ns == 0); // it was running
    CHECK(it.hot);
    // On PU 1 for the first tick: every access cold, to local memory. Before
    // the move: every access an L2 hit. It starts after a context switch
    // under PU 1's runqueue lock, charged as system time (the only system
    // time PU 1 ever has here); by the next tick its 64 KiB are warm again.
    const double lat_now = m.mem_latency_local_ns;
    const double lat_before = m.l2_latency_ns;
    REQUIRE(sim.rq(1).sys_ns >= m.context_switch_ns);
    const double ran_ns = static_cast<double>(m.tick_ns - sim.rq(1).sys_ns);
    const double expected = ran_ns * kIntensity * (lat_now - lat_before) / (1.0 + kIntensity * lat_now);
    CHECK(it.refill_stall_ns == Approx(expected).epsilon(1e-9));
    CHECK(it.remote_stall_ns == 0.0); // same node
    CHECK_FALSE(it.cost_open);
    CHECK(a.totals.refill_stall_ns == Approx(expected).epsilon(1e-9));
    CHECK(migration_reason(sim.recording(), it) == "scripted move to CPU 1");
}

TEST_CASE("a move away from its memory pays the remote penalty until the memory follows", "[analysis]")
{
    // Two nodes at SLIT 20. The 1 MiB working set fills the 256 KiB L2 to a
    // quarter in one tick. At 10 ms the policy moves its chunk to node 1.
    constexpr double kIntensity = 0.05;
    const double ws = 1024.0 * 1024.0;
    Simulation sim = memory_task_sim("pack:2 [numa] l2:1(size=256KB) core:1 pu:1", kIntensity, ws,
                                     {{10 * kMs, 0, 0, 1}});
    sim.run_until(20 * kMs);
    const ModelParams &m = sim.model();
    REQUIRE(sim.caches().front().level == 2);
    const double l2 = sim.caches().front().capacity_bytes;             // the synthetic "KB" is 1000 bytes
    const double L = m.mem_latency_local_ns, hit = l2 / ws, far = 1.5; // SLIT 20 by the rule: 1 + (20/10 - 1) x 0.5
    const double per_lat_cold = kIntensity / (1.0 + kIntensity * (far * L));
    const double lat_warm_remote = hit * m.l2_latency_ns + (1 - hit) * far * L;
    const double per_lat_warm = kIntensity / (1.0 + kIntensity * lat_warm_remote);
    // PU 1's only system time is the switch (context switch + its rq lock).
    REQUIRE(sim.rq(1).sys_ns >= m.context_switch_ns);
    const double first_ns = static_cast<double>(m.tick_ns - sim.rq(1).sys_ns);
    // First tick on PU 1: all cold and all remote. Before: a quarter in L2, the
    // rest local. The parts add up to now minus before.
    const double refill_lat = (0 - hit * m.l2_latency_ns) + (1.0 - (1 - hit)) * L;
    const double remote_cold_lat = 1.0 * L * (far - 1.0);
    // Then four warm ticks (6..10 ms) with the remote part alone, until the
    // chunk moves at 10 ms.
    const double remote_warm_lat = (1 - hit) * L * (far - 1.0);
    const double expected_refill = first_ns * refill_lat * per_lat_cold;
    const double expected_remote = first_ns * remote_cold_lat * per_lat_cold +
                                   4.0 * static_cast<double>(m.tick_ns) * remote_warm_lat * per_lat_warm;

    const MigrationAnalysis a = analyze_migrations(sim);
    REQUIRE(a.items.size() == 1);
    const MigrationItem &it = a.items[0];
    CHECK(it.from_node == 0);
    CHECK(it.to_node == 1);
    CHECK(it.cls == DistanceClass::RemoteNode);
    CHECK(it.refill_stall_ns == Approx(expected_refill).epsilon(1e-9));
    CHECK(it.remote_stall_ns == Approx(expected_remote).epsilon(1e-9));
    CHECK_FALSE(it.cost_open);
    CHECK(it.cost_ns() == Approx(expected_refill + expected_remote));
    CHECK(a.totals.remote_stall_ns == Approx(expected_remote).epsilon(1e-9));
}

TEST_CASE("a restore puts the cost of a move still being paid back to the checkpoint", "[analysis]")
{
    auto make = [] {
        return memory_task_sim("pack:2 [numa] l2:1(size=256KB) core:1 pu:1", 0.05, 1024.0 * 1024.0,
                               {{10 * kMs, 0, 0, 1}});
    };
    Simulation straight = make();
    straight.run_until(12 * kMs);
    Simulation scrubbed = make();
    scrubbed.run_until(7 * kMs); // remote phase open
    REQUIRE(scrubbed.task(0).mig_cost.record == 0);
    const auto cp = scrubbed.checkpoint();
    scrubbed.run_until(9 * kMs);
    scrubbed.restore(cp);
    CHECK(scrubbed.recording().migrations[0].remote_stall_ns == scrubbed.task(0).mig_cost.remote_ns);
    scrubbed.run_until(12 * kMs);
    CHECK(scrubbed.recording().migrations[0].remote_stall_ns == straight.recording().migrations[0].remote_stall_ns);
    CHECK(scrubbed.recording().migrations[0].refill_stall_ns == straight.recording().migrations[0].refill_stall_ns);
}

TEST_CASE("matrix, folds, times since last run and ping-pongs of scripted wakeups", "[analysis]")
{
    Simulation sim = sleepers_sim();
    sim.run_to_end();
    REQUIRE(sim.finished());
    const MigrationAnalysis a = analyze_migrations(sim);

    CHECK(a.pu_matrix.size == 4);
    CHECK(a.pu_matrix.count(0, 1) == 1);
    CHECK(a.pu_matrix.count(1, 0) == 1);
    CHECK(a.pu_matrix.count(0, 2) == 1);
    CHECK(a.pu_matrix.count(3, 2) == 1);
    CHECK(a.pu_matrix.count(2, 3) == 1);
    CHECK(a.pu_matrix.cells.size() == 5);
    CHECK(a.pu_matrix.total() == 5);
    CHECK(a.pu_matrix.total() == summarize(sim, true).migrations_total);

    CHECK(a.node_matrix.count(0, 0) == 2);
    CHECK(a.node_matrix.count(0, 1) == 1);
    CHECK(a.node_matrix.count(1, 1) == 2);
    CHECK(a.node_matrix.total() == 5);
    CHECK(a.node_matrix.max_count() == 2);
    CHECK(a.by_class[static_cast<int>(DistanceClass::SharedL2)] == 4);
    CHECK(a.by_class[static_cast<int>(DistanceClass::RemoteNode)] == 1);

    // A sleeps 3 ms before each wakeup, B 20 ms: exactly, since a timer wakes it.
    std::vector<SimTime> a_since, b_since;
    for (const auto &it : a.items)
        (it.task == 0 ? a_since : b_since).push_back(it.since_last_ran_ns);
    CHECK(a_since == std::vector<SimTime>{3 * kMs, 3 * kMs, 3 * kMs});
    CHECK(b_since == std::vector<SimTime>{20 * kMs, 20 * kMs});

    // A's move back from 1 to 0 comes about 5 ms after its move away; B's
    // return comes 21 ms after, outside the window.
    CHECK(a.totals.ping_pongs == 1);
    for (const auto &it : a.items)
        CHECK(it.ping_pong == (it.task == 0 && it.from_cpu == 1 && it.to_cpu == 0));

    // No memory traffic, so no move costs anything.
    CHECK(a.totals.refill_stall_ns == 0.0);
    CHECK(a.totals.remote_stall_ns == 0.0);
    CHECK(a.cost.below() == 5);

    // The policy has no cache_hot_time: 2.5 ms, and 3 ms sleeps are cold.
    CHECK(a.cache_hot_time_ns == 2'500'000);
    CHECK(a.totals.hot == 0);
    CHECK(a.since_last_ran.total() == 5);
    CHECK(a.totals.per_second == Approx(5.0 / (static_cast<double>(sim.end_time()) / 1e9)));

    // Clicking the (0, 2) cell: A's move to the other node, with its reason.
    const auto cell = a.items_in_cell(0, 2);
    REQUIRE(cell.size() == 1);
    CHECK(a.items[cell[0]].task == 0);
    CHECK(migration_reason(sim.recording(), a.items[cell[0]]) == "scripted wakeup to CPU 2");
}

TEST_CASE("the hot share uses the policy's cache_hot_time", "[analysis]")
{
    Simulation sim = sleepers_sim({{"cache_hot_time_ms", "5"}});
    sim.run_to_end();
    const MigrationAnalysis a = analyze_migrations(sim);
    CHECK(a.cache_hot_time_ns == 5 * kMs);
    CHECK(a.cache_hot_time_origin == "policy cache_hot_time_ms");
    CHECK(a.totals.hot == 3); // A's 3 ms sleeps, not B's 20 ms
    CHECK(a.totals.hot_share == Approx(3.0 / 5.0));

    const RunResult r = summarize(sim, true);
    CHECK(r.hot_migration_pct == Approx(60.0));
    const auto &j = r.migrations_detail;
    CHECK(j.at("totals").at("migrations") == 5);
    CHECK(j.at("pu_matrix").at("cells").size() == 5);
    CHECK(j.at("since_last_ran_ns").at("cache_hot_time_ns") == 5 * kMs);
    CHECK(run_to_json(r, false).contains("migrations_detail"));
}
