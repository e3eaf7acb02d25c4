// Checkpoints are plain copies of a Simulation (its copy is the defaulted
// memberwise one): a copy taken mid-run and carried on ends exactly where a
// run that was never copied ends, with the policy's state, the memory
// model's congestion and caches, and the recording all carried over.

#include "catalog/catalog.h"
#include "engine/simulation.h"
#include "topology/import.h"

#include <catch2/catch.hpp>

using namespace schedscope;

namespace {

Simulation build(const std::string &topo, const std::string &workload, const std::string &policy)
{
    SimConfig cfg;
    cfg.seed = 7;
    cfg.sample_interval_ns = 10'000'000;
    cfg.duration_ns = 400'000'000;
    auto [pname, pparams] = parse_name_params(policy, "test");
    Simulation sim(std::make_shared<const Topology>(import_synthetic(topo)), make_policy(pname, pparams, "test"), cfg);
    auto [wname, wparams] = parse_name_params(workload, "test");
    find_workload(wname, "test").build(sim, wparams, "test");
    return sim;
}

// Everything a run's results are made of, as text.
std::string state_of(const Simulation &sim)
{
    std::string f = std::to_string(sim.now()) + "|" + std::to_string(sim.events_processed()) + "|" +
                    std::to_string(sim.total_ops()) + "|" + std::to_string(sim.migrations_total());
    for (const Task &t : sim.tasks())
        f += "|" + std::to_string(t.stats.user_ns) + "," + std::to_string(t.stats.sys_ns) + "," +
             std::to_string(t.cpu) + "," + std::to_string(t.stats.migrations) + "," + std::to_string(t.stats.accesses);
    for (const Runqueue &rq : sim.runqueues())
        f += "|" + std::to_string(rq.idle_ns) + "," + std::to_string(rq.sys_ns);
    for (const Process &p : sim.processes())
        for (int n : p.chunks_on_node)
            f += "," + std::to_string(n);
    for (const CacheState &c : sim.caches())
        f += "|" + std::to_string(c.used_bytes);
    const Recording &r = sim.recording();
    f += "|" + std::to_string(r.decisions.size()) + "," + std::to_string(r.migrations.size()) + "," +
         std::to_string(r.samples.size());
    if (!r.decisions.empty())
        f += "," + r.decisions.back().reason.str();
    if (!r.samples.empty())
        f += "," + std::to_string(r.samples.back().user_ns) + "," + std::to_string(r.samples.back().sys_ns);
    return f;
}

} // namespace

TEST_CASE("a copy taken mid-run and carried on ends as a run never copied", "[engine][checkpoint]")
{
    // AutoNUMA on two nodes: the policy's scanner state, armed chunks,
    // page migrations, congestion and cache warmth are all in flight at
    // the copy.
    const std::string topo = "pack:2 [numa] l3:1(size=2MB) core:4 pu:1";
    const std::string workload = "numa01:memory_mb=256,loops=4";
    Simulation whole = build(topo, workload, "autonuma");
    whole.run_to_end();

    Simulation first = build(topo, workload, "autonuma");
    first.run_until(150'000'000);
    REQUIRE(!first.finished());
    REQUIRE(first.recording().decisions.size() > 0);
    Simulation copy = first; // the checkpoint
    copy.run_to_end();
    first.run_to_end();
    CHECK(state_of(copy) == state_of(whole));
    CHECK(state_of(first) == state_of(whole));

    // The same through assignment over a simulation that ran elsewhere.
    Simulation other = build(topo, workload, "sched-domains");
    other.run_until(50'000'000);
    Simulation again = build(topo, workload, "autonuma");
    again.run_until(150'000'000);
    other = again;
    other.run_to_end();
    CHECK(state_of(other) == state_of(whole));
}

TEST_CASE("where a run is stopped along the way does not change it", "[engine][checkpoint]")
{
    // The GUI advances in slices that follow wall time and the CLI in
    // 100 ms slices; stopping between two events must leave the run as it
    // would have been, or a loaded machine would change the results. The
    // stops here fall between ticks, in the middle of bursts.
    const std::string topo = "pack:2 [numa] l3:1(size=2MB) core:4 pu:1";
    const std::string workload = "numa01:memory_mb=256,loops=4";
    for (const char *policy : {"autonuma", "sched-domains", "cfs"}) {
        INFO(policy);
        Simulation whole = build(topo, workload, policy);
        whole.run_to_end();
        Simulation sliced = build(topo, workload, policy);
        SimTime stop = 0;
        for (int i = 1; !sliced.finished(); ++i) {
            stop += 1'234'567 * (i % 7 + 1);
            sliced.run_until(stop);
            CHECK(sliced.now() <= stop);
        }
        CHECK(state_of(sliced) == state_of(whole));
    }
}

TEST_CASE("a copy does not inherit the event sink, and an assignment keeps its own", "[engine][checkpoint]")
{
    struct Counter : SchedEventSink {
        int switches = 0;
        void on_switch_in(SimTime, int, TaskId) override { ++switches; }
    };
    Counter sink;
    Simulation sim = build("pack:1 core:2 pu:1", "spin:threads=4,work_ms=20", "simple");
    sim.set_event_sink(&sink);
    Simulation copy = sim;
    CHECK(copy.event_sink() == nullptr);
    Simulation other = build("pack:1 core:2 pu:1", "spin:threads=4,work_ms=20", "simple");
    other = sim;
    CHECK(other.event_sink() == nullptr);
    sim = other;
    CHECK(sim.event_sink() == &sink);
    sim.run_to_end();
    CHECK(sink.switches > 0);
}
