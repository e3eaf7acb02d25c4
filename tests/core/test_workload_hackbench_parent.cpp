// hackbench as hackbench.c runs it: main() forks every group's senders and
// receivers itself, so all groups are one program's children.

#include "catalog/catalog.h"
#include "engine/simulation.h"
#include "scenario/run.h"
#include "topology/import.h"

#include <catch2/catch.hpp>

using namespace schedscope;

namespace {

Simulation build(const std::string &workload)
{
    SimConfig cfg;
    cfg.seed = 1;
    cfg.model.os_noise = 0;
    Simulation sim(std::make_shared<const Topology>(import_synthetic("pack:4 [numa] core:2 pu:1")),
                   make_policy("simple", {}, "test"), cfg);
    auto [name, params] = parse_name_params(workload, "test");
    find_workload(name, "test").build(sim, params, "test");
    return sim;
}

std::size_t processes_with_tasks(const Simulation &sim, const std::string &prefix)
{
    std::size_t n = 0;
    for (const auto &p : sim.processes())
        if (!p.tasks.empty() && sim.task(p.tasks.front()).name.rfind(prefix, 0) == 0)
            ++n;
    return n;
}

} // namespace

TEST_CASE("hackbench's groups are the children of one parent", "[workload][hackbench]")
{
    Simulation sim = build("hackbench:groups=3");
    REQUIRE(processes_with_tasks(sim, "hackbench") == 1);
    std::size_t tasks = 0;
    for (const auto &p : sim.processes())
        tasks += p.tasks.size();
    CHECK(tasks == 3 * 40);
}

TEST_CASE("numa_test's hackbench disturbance is one command's children, its memory tasks programs of their own",
          "[workload][hackbench]")
{
    Simulation sim = build("numa_test:tasks=4,disturb_groups=2");
    CHECK(processes_with_tasks(sim, "hackbench") == 1);
    std::size_t single = 0;
    for (const auto &p : sim.processes())
        if (p.tasks.size() == 1)
            ++single;
    CHECK(single == 4);
}
