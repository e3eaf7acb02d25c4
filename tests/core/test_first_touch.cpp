// The kernel time of first-touch faults: each page of anonymous memory a
// task touches first traps, is cleared and mapped, and the task pays it as
// system time (ModelParams::page_fault_ns, page_clear_bytes_per_ns).

#include "catalog/catalog.h"
#include "engine/simulation.h"
#include "scenario/run.h"
#include "scenario/scenario.h"
#include "topology/import.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>

using namespace schedscope;

namespace {

struct FirstTouchRun {
    double task_sys_ns = 0;
    int placed_chunks = 0;
    int chunks = 0;
};

// A run whose only system time is what its tasks' touches charge: no OS
// noise, free switches and moves, 16 KiB pages at the given costs.
SimConfig quiet_fault_config(SimTime duration_ns, double fault_ns, double clear_bytes_per_ns)
{
    SimConfig cfg;
    cfg.duration_ns = duration_ns;
    cfg.model.os_noise = 0;
    cfg.model.context_switch_ns = 0;
    cfg.model.task_migration_ns = 0;
    cfg.model.page_bytes = 16384;
    cfg.model.page_fault_ns = fault_ns;
    cfg.model.page_clear_bytes_per_ns = clear_bytes_per_ns;
    return cfg;
}

// One task on a one-PU machine touching `memory_bytes` of its own memory
// while it computes for 200 ms; nothing else charges system time.
enum class Setup { None, PlacedBefore, FaultedIn, FirstWriteInRun, FirstWriteThenFaultedIn };

FirstTouchRun run_touching(std::int64_t memory_bytes, double fault_ns, double clear_bytes_per_ns,
                           Setup setup = Setup::None)
{
    const SimConfig cfg = quiet_fault_config(1'000'000'000, fault_ns, clear_bytes_per_ns);
    Simulation sim(std::make_shared<const Topology>(import_synthetic("[numa] pack:1 core:1 pu:1")),
                   make_policy("simple", {}, "t"), cfg);
    const ProcId p = sim.add_process("toucher", memory_bytes);
    const int chunks = static_cast<int>(sim.processes()[p].chunk_node.size());
    if (setup == Setup::PlacedBefore)
        sim.place_chunks(p, 0, chunks, 0);
    if (setup == Setup::FaultedIn)
        sim.mark_faulted_in(p);
    if (setup == Setup::FirstWriteInRun || setup == Setup::FirstWriteThenFaultedIn) {
        sim.place_chunks(p, 0, chunks, 0);
        sim.mark_first_write_in_run(p);
    }
    if (setup == Setup::FirstWriteThenFaultedIn)
        sim.mark_faulted_in(p);
    Simulation::TaskSpec spec;
    spec.program.ops = {{Op::Kind::Compute, 200'000'000}};
    spec.segments = {AccessSegment{0, chunks, 1.0}};
    spec.mem_intensity = 0.01;
    sim.add_task(p, std::move(spec));
    sim.run_to_end();
    FirstTouchRun r;
    r.chunks = chunks;
    for (auto n : sim.processes()[p].chunk_node)
        r.placed_chunks += n != kNoNode ? 1 : 0;
    r.task_sys_ns = static_cast<double>(sim.tasks()[0].stats.sys_ns - sim.tasks()[0].stats.irq_ns);
    return r;
}

} // namespace

TEST_CASE("a first touch charges each page's fault and clearing to the task that touched it", "[engine][memory]")
{
    // 10 MiB in 4 MiB chunks: three chunks, the last one half used. 640
    // pages of 16 KiB, each a 2 us fault and 16 KiB cleared at 1 byte/ns:
    // 640 x (2 + 16.384) us = 11.77 ms, and nothing for the unused half.
    // The same run with the memory placed before it (a workload's setup
    // wrote it) takes no fault: what the task's system time has beyond it
    // (its wakeup's runqueue lock) is the faults.
    const std::int64_t bytes = std::int64_t{10} << 20;
    const FirstTouchRun placed = run_touching(bytes, 2'000, 1.0, Setup::PlacedBefore);
    REQUIRE(placed.placed_chunks == 3);
    CHECK(placed.task_sys_ns < 1'000);
    const FirstTouchRun r = run_touching(bytes, 2'000, 1.0);
    REQUIRE(r.chunks == 3);
    REQUIRE(r.placed_chunks == 3);
    CHECK(r.task_sys_ns - placed.task_sys_ns == Approx(640 * (2'000.0 + 16'384.0)).epsilon(1e-9));

    // Each part of the cost scales on its own: the clearing with the rate,
    // the faults with their number.
    const FirstTouchRun fast_clear = run_touching(bytes, 2'000, 4.0);
    CHECK(fast_clear.task_sys_ns - placed.task_sys_ns == Approx(640 * (2'000.0 + 4'096.0)).epsilon(1e-9));
    const FirstTouchRun no_trap = run_touching(bytes, 0, 1.0);
    CHECK(no_trap.task_sys_ns - placed.task_sys_ns == Approx(640 * 16'384.0).epsilon(1e-9));

    // A server's memory faulted in while it warmed up, before the measured
    // run: the run's first touches place it where the task runs, free.
    const FirstTouchRun warm = run_touching(bytes, 2'000, 1.0, Setup::FaultedIn);
    CHECK(warm.placed_chunks == 3);
    CHECK(warm.task_sys_ns == placed.task_sys_ns);

    // Memory a workload places before the run for a first write its own
    // task makes in it (numa01's first bzero()): placed, but the faults
    // are the task's, the same as for memory it places itself.
    const FirstTouchRun in_run = run_touching(bytes, 2'000, 1.0, Setup::FirstWriteInRun);
    CHECK(in_run.placed_chunks == 3);
    CHECK(in_run.task_sys_ns == Approx(r.task_sys_ns).epsilon(1e-12));
    // Marked faulted in afterwards, it owes nothing after all.
    const FirstTouchRun then_warm = run_touching(bytes, 2'000, 1.0, Setup::FirstWriteThenFaultedIn);
    CHECK(then_warm.task_sys_ns == placed.task_sys_ns);
}

namespace {

// Two nodes of one PU each. A toucher on node 0 faults in 8 MiB (two
// chunks of 16 KiB pages) placed before the run on `node` for its first
// write; beside it, on `load_pu` (or nowhere, -1), a bzero-like stream on
// node 1's memory that keeps that controller saturated.
double toucher_sys_ns(int node, int load_pu)
{
    SimConfig cfg = quiet_fault_config(300'000'000, 0, 1.0);
    cfg.model.mem_latency_local_ns = 100;
    cfg.model.mem_latency_remote_ns = 150;
    cfg.model.mem_bandwidth_bytes_per_ns = 1.0;
    Simulation sim(std::make_shared<const Topology>(import_synthetic("pack:2 [numa] core:1 pu:1")),
                   make_policy("simple", {}, "t"), cfg);
    const ProcId p = sim.add_process("toucher", std::int64_t{8} << 20);
    sim.place_chunks(p, 0, 2, node);
    sim.mark_first_write_in_run(p);
    Simulation::TaskSpec spec;
    spec.program.ops = {{Op::Kind::Compute, 100'000'000}};
    spec.segments = {AccessSegment{0, 2, 1.0}};
    spec.mem_intensity = 1e-4; // a few touches, no load of its own
    spec.cpus_allowed.set(0);
    const TaskId toucher = sim.add_task(p, std::move(spec));
    if (load_pu >= 0) {
        const ProcId q = sim.add_process("stream", std::int64_t{64} << 20);
        sim.place_chunks(q, 0, 16, 1);
        sim.mark_faulted_in(q);
        Simulation::TaskSpec l;
        l.program.ops = {{Op::Kind::Compute, 200'000'000}};
        l.segments = {AccessSegment{0, 16, 1.0}};
        l.mem_intensity = 2.0;                    // lines per ns of work: far more than 1 byte/ns
        l.working_set_bytes = 64.0 * 1024 * 1024; // no cache holds it
        l.cpus_allowed.set(load_pu);
        sim.add_task(q, std::move(l));
    }
    sim.run_to_end();
    return static_cast<double>(sim.tasks()[static_cast<size_t>(toucher)].stats.sys_ns -
                               sim.tasks()[static_cast<size_t>(toucher)].stats.irq_ns);
}

} // namespace

TEST_CASE("clearing a page takes as much longer as a line from its node takes now", "[engine][memory]")
{
    // 8 MiB cleared at 1 byte/ns is 8.39 ms on an idle local node; from the
    // other node each line takes 150 / 100 as long, so the clearing does.
    const double local = toucher_sys_ns(0, -1);
    const double remote = toucher_sys_ns(1, -1);
    INFO("local " << local << " ns, remote " << remote << " ns");
    CHECK(local == Approx(8'388'608.0).epsilon(0.01));
    CHECK(remote / local == Approx(1.5).epsilon(0.01));
    // With a stream saturating node 1 from its own PU, a line of node 1
    // waits behind it: clearing pages of node 1 takes longer still, and
    // clearing node 0's pages does not.
    const double remote_loaded = toucher_sys_ns(1, 1);
    const double local_beside_load = toucher_sys_ns(0, 1);
    INFO("remote, node 1 loaded " << remote_loaded << " ns; local, node 1 loaded " << local_beside_load << " ns");
    CHECK(remote_loaded > 1.5 * remote);
    CHECK(local_beside_load == Approx(local).epsilon(0.01));
}

TEST_CASE("numa_test's jobs fault their 20 MB in on the TX7 as its 16 KB pages ask", "[engine][memory][published]")
{
    // The TX7 sample's figures (Linux ia64's 16 KB pages, an Itanium 2's
    // fault and clearing rate): a job's 20 MiB is 1280 faults of about
    // 14.4 us, some 18 ms of system time, the order of the ~20 ms a job the
    // January 2003 table shows (0.65 s for 32 jobs on 2.5.59).
    Scenario s;
    s.topology = "sample:nec-tx7";
    s.workload = {"numa_test", {{"tasks", "4"}, {"disturb_groups", "0"}}};
    s.policies = {{"linux-2.5-numa", {{"variant", "orig"}}}};
    Simulation sim = build_simulation(s, s.policies.front(), 1, scenario_topology(s));
    REQUIRE(sim.model().page_bytes == 16384);
    sim.run_to_end();
    const RunResult r = summarize(sim, true, false);
    const double per_job_ms = r.task_sys_s / 4 * 1e3;
    const double faults_ms = 1280 * (sim.model().page_fault_ns + 16384 / sim.model().page_clear_bytes_per_ns) / 1e6;
    INFO("system time per job " << per_job_ms << " ms, its faults " << faults_ms << " ms");
    CHECK(faults_ms == Approx(18.4).epsilon(0.05));
    // The faults are most of a job's own kernel time, and all of it is there.
    CHECK(per_job_ms >= faults_ms);
    CHECK(per_job_ms < 1.3 * faults_ms);
}

TEST_CASE("numa02's main() writes the memory inside the timed run: its faults, then the threads", "[engine][memory]")
{
    // numa02.c: main() bzero()s the whole 1 GiB before pthread_create();
    // `time` counts it. Here 64 MiB on a 2-node machine: main() alone takes
    // the faults of every chunk it touches, the threads start after it.
    Scenario s;
    s.topology = "synthetic:pack:2 [numa] core:2 pu:1";
    s.workload = {"numa02", {{"memory_mb", "64"}, {"loops", "5"}}};
    s.policies = {{"cfs", {}}};
    s.model["os_noise"] = 0;
    Simulation sim = build_simulation(s, s.policies.front(), 1, scenario_topology(s));
    REQUIRE(sim.tasks().size() == 5);
    const Task &main_task = sim.task(0);
    REQUIRE(main_task.name == "numa02/main");
    while (sim.task(0).state != TaskState::Exited) {
        for (size_t t = 1; t < sim.tasks().size(); ++t)
            REQUIRE(sim.task(static_cast<TaskId>(t)).state == TaskState::NotStarted);
        REQUIRE(sim.step());
    }
    const SimTime main_end = sim.now();
    sim.run_to_end();
    const Process &p = sim.processes().front();
    double faults_ns = 0;
    for (size_t c = 0; c < p.chunk_node.size(); ++c)
        faults_ns += static_cast<double>(sim.model().chunk_bytes) / static_cast<double>(sim.model().page_bytes) *
                         sim.model().page_fault_ns +
                     static_cast<double>(sim.model().chunk_bytes) / sim.model().page_clear_bytes_per_ns;
    double threads_sys_ns = 0;
    for (size_t t = 1; t < sim.tasks().size(); ++t)
        threads_sys_ns += static_cast<double>(sim.task(static_cast<TaskId>(t)).stats.sys_ns);
    const double main_sys_ns = static_cast<double>(sim.task(0).stats.sys_ns);
    INFO("main() " << main_sys_ns / 1e6 << " ms of system time, the threads " << threads_sys_ns / 1e6
                   << " ms; all the faults at the local rate " << faults_ns / 1e6 << " ms");
    // All of it on main()'s node, where main() cleared it at the local rate;
    // a chunk its sampled touches missed is cleared later by a thread.
    CHECK(p.chunks_on_node[0] == static_cast<int>(p.chunk_node.size()));
    CHECK(main_sys_ns + threads_sys_ns >= 0.99 * faults_ns);
    CHECK(main_sys_ns >= 0.75 * faults_ns);
    // A page clears at its node's rate as main()'s own stream leaves it
    // (first_touch_ns): a little above the idle node's.
    CHECK(main_sys_ns <= 1.3 * faults_ns);
    CHECK(static_cast<double>(main_end) >= main_sys_ns);
    CHECK(p.unfaulted_chunks == 0);
}
