// What the OLTP sweep of cache_hot_time rests on beside the balancer's
// rules: a sleeping server process's cache cools while the others' scattered
// reads of the shared buffer stream through it, and an I/O completes on the
// CPU its controller's interrupt was given (Linux 2.6.9 ia64 spreads the
// vectors over the CPUs), which is where try_to_wake_up() is called from.

#include "catalog/catalog.h"
#include "engine/memory_model.h"
#include "engine/simulation.h"
#include "topology/import.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <set>

using namespace schedscope;

namespace {

Task task(TaskId id, double intensity, double working_set, double stray)
{
    Task t;
    t.id = id;
    t.mem_intensity = intensity;
    t.dependent_fraction = 1.0;
    t.working_set_bytes = working_set;
    t.stray_share = stray;
    t.node_weight = {1.0};
    t.used_nodes = {0};
    t.unplaced_weight = 0;
    return t;
}

Simulation oltp(const std::string &params)
{
    SimConfig cfg;
    cfg.seed = 1;
    cfg.duration_ns = 10'000'000;
    cfg.model.os_noise = 0;
    Simulation sim(std::make_shared<const Topology>(import_synthetic("pack:1 core:4 pu:1")),
                   make_policy("simple", {}, "test"), cfg);
    auto [name, p] = parse_name_params("oltp:" + params, "test");
    find_workload(name, "test").build(sim, p, "test");
    return sim;
}

} // namespace

TEST_CASE("stray accesses cool a sleeper's cache: exp(-lines in / capacity)", "[policy][2.6.9][oltp]")
{
    // 9 MB of L3, as the Itanium 2's; a sleeper with 1.5 MiB warm.
    const auto topo = std::make_shared<const Topology>(import_synthetic("pack:1 l3:1(size=9MB) core:1 pu:1"));
    ModelParams model;
    MemoryModel mm(topo, model);
    const double cap = mm.caches().front().capacity_bytes;
    REQUIRE(cap == 9e6);
    // A task already warm (its set fits beside the sleeper's; it warmed
    // first, into an empty cache) runs 10 ms of work; a tenth of its 0.03
    // accesses per ns land on a buffer far larger than the cache: 30,000
    // lines come in.
    Task runner = task(1, 0.03, 1.5 * 1024 * 1024, 0.1);
    mm.warm(runner, 0, 1e9, 1e9);
    Task sleeper = task(0, 0.03, 1.5 * 1024 * 1024, 0.0);
    mm.warm(sleeper, 0, 1e9, 1e9); // long enough to fill its whole set
    REQUIRE(mm.warmth_on(0, 0, 3) == Approx(1.5 * 1024 * 1024));
    const double before = mm.warmth_on(0, 0, 3);
    const double work = 10e6;
    mm.warm(runner, 0, work, work);
    const double in = work * 0.03 * 0.1 * model.cache_line_bytes;
    CHECK(mm.warmth_on(0, 0, 3) == Approx(before * std::exp(-in / cap)));
    CHECK(mm.warmth_on(0, 0, 3) < 0.99 * before); // without the stray lines it stayed whole
    // The runner keeps its own set: it touches it all the while.
    CHECK(mm.warmth_on(1, 0, 3) == Approx(1.5 * 1024 * 1024));
    // A task with no stray accesses leaves the sleeper as it was.
    Task tidy = task(2, 0.03, 1.0 * 1024 * 1024, 0.0);
    mm.warm(tidy, 0, 1e9, 1e9);
    const double after_tidy_fill = mm.warmth_on(0, 0, 3);
    mm.warm(tidy, 0, work, work);
    CHECK(mm.warmth_on(0, 0, 3) == Approx(after_tidy_fill));
}

TEST_CASE("stray accesses miss every cache, however warm the task's own set", "[policy][2.6.9][oltp]")
{
    const auto topo = std::make_shared<const Topology>(import_synthetic("pack:1 l3:1(size=9MB) core:1 pu:1"));
    MemoryModel mm(topo, ModelParams{});
    Task t = task(0, 0.03, 1.5 * 1024 * 1024, 0.1);
    mm.warm(t, 0, 1e9, 1e9);
    double covered = 0;
    mm.cache_latency_ns(t, 0, &covered);
    CHECK(covered == Approx(0.9)); // the whole set is held; the tenth that strays still misses
}

TEST_CASE("oltp: irq_cpu=-2 completes each I/O on a CPU of its own draw, the I/O times unchanged",
          "[policy][2.6.9][oltp]")
{
    Simulation spread = oltp("processes=8,irq_cpu=-2");
    Simulation one = oltp("processes=8,irq_cpu=0");
    std::set<int> cpus;
    std::size_t sleeps = 0;
    for (std::size_t i = 0; i < spread.tasks().size(); ++i) {
        const Task &a = spread.tasks()[i];
        const Task &b = one.tasks()[i];
        REQUIRE(a.op_count == b.op_count);
        for (int k = 0; k < a.op_count; ++k)
            if (a.ops[k].kind == Op::Kind::Sleep) {
                ++sleeps;
                cpus.insert(a.ops[k].channel);
                CHECK(a.ops[k].a == b.ops[k].a); // the same I/O time, drawn from its own stream
                CHECK(b.ops[k].channel == 0);
            }
        CHECK(a.stray_share == 0.0); // stray_lines off: the earlier model
    }
    CHECK(sleeps == 8 * 16 * 4);
    CHECK(cpus == std::set<int>{0, 1, 2, 3});
    // stray_lines=on: a tenth of its reads scattered over the buffer.
    Simulation stray = oltp("processes=8,stray_lines=on");
    for (const Task &t : stray.tasks())
        CHECK(t.stray_share == Approx(0.1));
}
