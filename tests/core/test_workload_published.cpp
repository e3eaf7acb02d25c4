// Workloads configured as the published experiments ran them: several
// independent JVMs and their manual pinning, hackbench senders that block on
// a full socket, numa_test as its 2003 script ran it.

#include "engine/catalog.h"
#include "engine/invariants.h"
#include "engine/simulation.h"
#include "topology/import.h"
#include "workloads/workload_support.h"

#include <catch2/catch.hpp>

#include <numeric>

using namespace schedscope;

namespace {

Simulation build(const std::string &topo, const std::string &policy, const std::string &workload,
                 SimTime duration_ns = 0)
{
    SimConfig cfg;
    cfg.seed = 1;
    cfg.duration_ns = duration_ns;
    auto [pname, pparams] = parse_name_params(policy, "test");
    Simulation sim(std::make_shared<const Topology>(import_synthetic(topo)), make_policy(pname, pparams, "test"),
                   cfg);
    auto [name, params] = parse_name_params(workload, "test");
    find_workload(name, "test").build(sim, params, "test");
    return sim;
}

const char *kFourNodes = "pack:4 [numa] l3:1(size=4MiB) core:2 pu:1"; // node n = CPUs 2n, 2n+1

} // namespace

TEST_CASE("specjbb jvms=N: N processes, each with its own heap and PUs/N warehouses", "[workload][published]")
{
    Simulation sim = build(kFourNodes, "simple", "specjbb:jvms=4,heap_mb=64", 10'000'000);
    REQUIRE(sim.processes().size() == 4);
    for (const Process &p : sim.processes()) {
        CHECK(p.name == "jvm" + std::to_string(p.id));
        REQUIRE(p.tasks.size() == 2); // 8 PUs / 4 JVMs
        for (TaskId t : p.tasks)
            for (const auto &seg : sim.task(t).segments) // every access stays in its own JVM's heap
                CHECK(seg.chunk_end <= static_cast<int>(p.chunk_node.size()));
    }
    // One JVM is the workload it always was.
    Simulation one = build(kFourNodes, "simple", "specjbb:heap_mb=64", 10'000'000);
    REQUIRE(one.processes().size() == 1);
    CHECK(one.processes()[0].name == "jvm");
    CHECK(one.tasks().size() == 8);
    CHECK(one.tasks()[3].name == "jvm/warehouse3");
}

TEST_CASE("specjbb jvms=4 under manual pinning: each JVM's CPUs and memory on a node of its own", "[workload][published]")
{
    Simulation sim = build(kFourNodes, "bind:mode=hard", "specjbb:jvms=4,heap_mb=64", 50'000'000);
    sim.run_to_end();
    for (const Process &p : sim.processes()) {
        const int node = p.id; // JVM i owns node i
        for (TaskId t : p.tasks) {
            CHECK(sim.task(t).cpus_allowed.to_list_string() == std::to_string(2 * node) + "-" + std::to_string(2 * node + 1));
            CHECK(sim.topology().node_of_pu(sim.task(t).cpu) == node);
        }
        const int total = std::accumulate(p.chunks_on_node.begin(), p.chunks_on_node.end(), 0);
        REQUIRE(total > 0);
        CHECK(p.chunks_on_node[static_cast<size_t>(node)] == total);
    }
    CHECK(sim.total_ops() > 0);
    CHECK(check_invariants(sim).empty());
}

TEST_CASE("hackbench: the era's 64 KiB socket holds 170 messages", "[workload][published]")
{
    CHECK(hackbench_buffer_messages(kHackbenchSocketBufferBytes) == 170);
    CHECK(hackbench_buffer_messages(0) == 0);
    CHECK(hackbench_buffer_messages(1) == 1);
}

TEST_CASE("hackbench senders block while a receiver's socket is full", "[workload][published]")
{
    // One CPU, one group; a slow reader (50 us per message): 2000 messages
    // take 100 ms to read. Unbounded, the senders write all theirs early and
    // exit; with room for two messages per socket they can run only two
    // messages ahead of the readers, so by 50 ms (about 1000 messages read)
    // at most half of the 20 senders can have had all 100 of theirs taken.
    auto senders_done_by = [](const std::string &buffer, SimTime t) {
        Simulation sim = build("pack:1 core:1 pu:1", "simple",
                               "hackbench:groups=1,loops=5,receive_us=50,socket_buffer_bytes=" + buffer);
        sim.run_until(t);
        int done = 0;
        for (const Task &task : sim.tasks())
            done += task.name.find("/send") != std::string::npos && task.state == TaskState::Exited;
        sim.run_to_end();
        CHECK(sim.finished());
        CHECK(check_invariants(sim).empty());
        return done;
    };
    CHECK(senders_done_by("0", 50'000'000) == 20);
    CHECK(senders_done_by("768", 50'000'000) <= 10);
}

TEST_CASE("numa_test runs as its 2003 script did: randupdt's 20 MB, hackbench 10 three seconds in", "[workload][published]")
{
    Simulation sim = build(kFourNodes, "simple", "numa_test:tasks=4");
    int bench = 0, hack = 0;
    for (const Task &t : sim.tasks()) {
        if (t.name.rfind("hackbench", 0) == 0) {
            ++hack;
            CHECK(t.start_ns == 3'000'000'000);
        } else {
            ++bench;
            CHECK(sim.processes()[t.proc].chunk_node.size() * sim.model().chunk_bytes >= 20'000'000);
        }
    }
    CHECK(bench == 4);
    CHECK(hack == 10 * 40);
}
