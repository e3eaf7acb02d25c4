// The loads of the 2.6.9 sched-domains balancer (kernel/sched.c of 2.6.9):
// rebalance_tick()'s decayed cpu_load, source_load() and target_load(), and
// find_busiest_group()'s arithmetic on them, on machines and runqueue
// histories built by hand; every expected figure is worked out in the
// comments from the kernel's integer formulas.

#include "catalog/catalog.h"
#include "engine/simulation.h"
#include "policies/domain_balancer.h"
#include "topology/import.h"

#include <catch2/catch.hpp>

using namespace schedscope;

namespace {

// The balancer with its loads and find_busiest_group() reachable.
struct LoadProbe final : DomainBalancer {
    using DomainBalancer::DomainBalancer;
    std::unique_ptr<Policy> clone() const override { return std::make_unique<LoadProbe>(*this); }
    std::string name() const override { return "sched-domains"; }
    ParamMap params() const override { return base_params(); }
    using DomainBalancer::Busiest;
    using DomainBalancer::cpu_load;
    using DomainBalancer::cpu_load_of;
    using DomainBalancer::IdleType;
    using DomainBalancer::source_load;
    using DomainBalancer::target_load;
    Busiest busiest(const Simulation &sim, int cpu, int level, IdleType idle) const
    {
        return find_busiest(sim, cpu, domains_of(cpu).at(static_cast<size_t>(level)), idle);
    }
};

Simulation make(const std::string &topo)
{
    SimConfig cfg;
    cfg.model.os_noise = 0; // the hand-built situation alone
    return Simulation(std::make_shared<const Topology>(import_synthetic(topo)),
                      std::make_unique<LoadProbe>(BalancerParams{}), cfg);
}

LoadProbe &probe(Simulation &sim) { return dynamic_cast<LoadProbe &>(sim.policy()); }

CpuSet cpus(std::initializer_list<int> list)
{
    CpuSet s;
    for (int c : list)
        s.set(c);
    return s;
}

// A task pinned to `allowed`, computing `ms`.
TaskId add(Simulation &sim, double ms, CpuSet allowed)
{
    ProcId p = sim.add_process("p" + std::to_string(sim.processes().size()), 4 << 20);
    Simulation::TaskSpec s;
    s.program.ops = {Op{Op::Kind::Compute, static_cast<std::int64_t>(ms * 1e6), 0, -1}};
    s.working_set_bytes = 256 * 1024;
    s.cpus_allowed = allowed;
    return sim.add_task(p, std::move(s));
}

} // namespace

TEST_CASE("2.6.9 rebalance_tick: cpu_load halves towards nr_running * 128 each tick, rounding up as it rises",
          "[policy][2.6.9]")
{
    // Two tasks pinned to CPU 0 of two: each 1 ms tick sets cpu_load to
    // (old + 1 + 2 * 128) / 2 in integers while it is below 256 (the round
    // up): 0 -> 128 -> 192 -> 224 -> 240 ... -> 255 -> 256, where it stays.
    // source_load() is the lower, target_load() the higher of that and 256.
    // CPU 1 stays at 0.
    Simulation sim = make("pack:1 core:2 pu:1");
    add(sim, 100, cpus({0}));
    add(sim, 100, cpus({0}));
    sim.start();
    long prev = probe(sim).cpu_load(0);
    CHECK(prev == 0);
    std::vector<long> seen;
    for (int k = 0; k < 12; ++k) {
        sim.run_until(static_cast<SimTime>(k) * 1'000'000 + 500'000);
        const long now = probe(sim).cpu_load(0);
        if (now != prev) {
            CHECK(now == (prev + 1 + 256) / 2);
            seen.push_back(now);
        }
        prev = now;
        CHECK(probe(sim).source_load(sim, 0) == std::min(now, 256L));
        CHECK(probe(sim).target_load(sim, 0) == 256);
        CHECK(probe(sim).cpu_load(1) == 0);
    }
    REQUIRE(seen.size() >= 5);
    CHECK(std::vector<long>(seen.begin(), seen.begin() + 5) == std::vector<long>{128, 192, 224, 240, 248});
    sim.run_until(30'000'000);
    CHECK(probe(sim).cpu_load(0) == 256);
    CHECK(probe(sim).source_load(sim, 0) == 256);
}

TEST_CASE("2.6.9 find_busiest_group: three tasks against one, in SCHED_LOAD_SCALE units", "[policy][2.6.9]")
{
    // Steady state: cpu_load(0) = 384 under three tasks (rising loads round
    // up, so it reaches 3 * 128), cpu_load(1) = 128 under one. From CPU 1:
    // this_load = target_load(1) = 128, max_load = source_load(0) = 384,
    // avg_load = 128 * 512 / 256 = 256; 100 * 384 > 125 * 128; *imbalance =
    // min(384 - 256, 256 - 128) = 128, times min(128, 128) / 128 = 128, not
    // below SCHED_LOAD_SCALE - 1, so (128 + 1) / 128 = 1 task, from CPU 0.
    Simulation sim = make("pack:1 core:2 pu:1");
    for (int i = 0; i < 3; ++i)
        add(sim, 100, cpus({0}));
    add(sim, 100, cpus({1}));
    sim.run_until(30'000'000);
    REQUIRE(probe(sim).cpu_load(0) == 384);
    REQUIRE(probe(sim).cpu_load(1) == 128);
    const auto b = probe(sim).busiest(sim, 1, 0, LoadProbe::IdleType::NotIdle);
    CHECK(b.this_load == 128);
    CHECK(b.max_load == 384);
    CHECK(b.cpu == 0);
    CHECK(b.imbalance == 1);
    CHECK_FALSE(b.out_balanced);
    // From CPU 0 the other group is the lighter one: balanced.
    CHECK(probe(sim).busiest(sim, 0, 0, LoadProbe::IdleType::NotIdle).group < 0);
}

TEST_CASE("2.6.9 source_load: a queue that just filled is not busiest until its second tick", "[policy][2.6.9]")
{
    // CPU 0 has two runnable tasks but a cpu_load of 0 (it was idle until
    // now); CPU 1 is idle with cpu_load 0. Counting tasks, CPU 1 would pull
    // one at once. source_load(0) = min(0, 256) = 0: no group is busiest.
    Simulation sim = make("pack:1 core:2 pu:1");
    add(sim, 100, cpus({0}));
    add(sim, 100, cpus({0}));
    sim.run_until(500'000); // both forked onto CPU 0, before the first tick's balancing matters
    REQUIRE(sim.nr_running(0) == 2);
    LoadProbe &p = probe(sim);
    p.cpu_load_of(0) = 0;
    p.cpu_load_of(1) = 0;
    CHECK(p.busiest(sim, 1, 0, LoadProbe::IdleType::Idle).group < 0);
    // One tick later cpu_load(0) = 128: max_load 128, avg_load 64,
    // *imbalance 64 < 127, the gap 128 < 2 * 128, and moving one task would
    // give pwr_move = 128 * min(128, 0 + 128) / 128 = 128 < pwr_now 128 +
    // 128 / 8: out_balanced, and 128 is not above SCHED_LOAD_SCALE, so even
    // an idle CPU leaves it.
    p.cpu_load_of(0) = 128;
    CHECK(p.busiest(sim, 1, 0, LoadProbe::IdleType::Idle).group < 0);
    CHECK(p.busiest(sim, 1, 0, LoadProbe::IdleType::NotIdle).group < 0);
    // A newly idle CPU takes one task from the busiest group whatever its
    // load (2.6.9's out_balanced: NEWLY_IDLE, or IDLE over one task's load).
    const auto newly = p.busiest(sim, 1, 0, LoadProbe::IdleType::NewIdle);
    CHECK(newly.cpu == 0);
    CHECK(newly.imbalance == 1);
    CHECK(newly.out_balanced);
    // Two ticks: 192. *imbalance 96 < 127, gap 192 < 256, but pwr_move =
    // (128 * min(128, 192 - 128) + 128 * min(128, 0 + 128)) / 128 = 192 >=
    // 128 + 16: one task, busy or idle.
    p.cpu_load_of(0) = 192;
    for (auto idle : {LoadProbe::IdleType::Idle, LoadProbe::IdleType::NotIdle}) {
        const auto b = p.busiest(sim, 1, 0, idle);
        CHECK(b.cpu == 0);
        CHECK(b.imbalance == 1);
        CHECK(b.max_load == 192);
        CHECK(b.this_load == 0);
    }
    // target_load biases the puller's own side: CPU 1 just emptied
    // (cpu_load 256) sees its load as 256 and CPU 0's as 192: balanced.
    p.cpu_load_of(1) = 256;
    CHECK(p.busiest(sim, 1, 0, LoadProbe::IdleType::NotIdle).group < 0);
}

TEST_CASE("2.6.9 cpu_power: SMT siblings count 1.1 CPUs, single CPUs 1", "[policy][2.6.9]")
{
    // arch_init_sched_domains(): a package of two siblings has power 128 +
    // 128 * (2 - 1) / 10 = 140; the SMT level's groups (one PU each) 128.
    Simulation sim = make("pack:1 core:2 pu:2");
    add(sim, 1, CpuSet{});
    sim.start();
    const auto &levels = probe(sim).domains_of(0);
    REQUIRE(levels.size() == 2);
    CHECK(levels[0].shared_groups->power == std::vector<long>{128, 128});
    CHECK(levels[1].shared_groups->power == std::vector<long>{140, 140});
}
