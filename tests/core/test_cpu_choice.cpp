// policies/cpu_choice.h: the least loaded CPU search and a node's CPUs, as
// the simple, sched-domains and linux-2.5-numa policies share them.

#include "hand_built.h"
#include "policies/cpu_choice.h"

#include <catch2/catch.hpp>

using namespace schedscope;
using namespace schedscope::hand_built;

TEST_CASE("least_loaded_cpu takes the first CPU with the fewest tasks, or the preferred one on a tie", "[policy]")
{
    Simulation sim = make_sim("pack:2 [numa] core:2 pu:1", "simple");
    add_spin_on(sim, 0, 50.0);
    add_spin_on(sim, 0, 50.0);
    add_spin_on(sim, 2, 50.0);
    sim.run_until(kMs / 10);
    REQUIRE(sim.nr_running(0) == 2);
    REQUIRE(sim.nr_running(1) == 0);
    REQUIRE(sim.nr_running(2) == 1);
    REQUIRE(sim.nr_running(3) == 0);
    CHECK(least_loaded_cpu(sim, cpus({0, 1, 2, 3})) == 1);
    CHECK(least_loaded_cpu(sim, cpus({0, 1, 2, 3}), 3) == 3);
    CHECK(least_loaded_cpu(sim, cpus({0, 1, 2, 3}), 2) == 1); // a loaded preference does not win
    CHECK(least_loaded_cpu(sim, cpus({0, 2})) == 2);
    CHECK(least_loaded_cpu(sim, cpus({0, 2}), 0) == 2);
    CHECK(least_loaded_cpu(sim, CpuSet()) == -1);
}

TEST_CASE("node_or_machine gives a node's CPUs", "[policy]")
{
    const Topology numa = import_synthetic("pack:2 [numa] core:2 pu:1");
    CHECK(node_or_machine(numa, 0) == cpus({0, 1}));
    CHECK(node_or_machine(numa, 1) == cpus({2, 3}));
}
