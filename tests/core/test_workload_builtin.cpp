// The built-in workloads: each builds and runs on small machines, keeps the
// engine's invariants, and has the shape its benchmark defines.

#include "catalog/catalog.h"
#include "engine/invariants.h"
#include "engine/simulation.h"
#include "scenario/run.h"
#include "topology/import.h"
#include "util/input_error.h"
#include "workloads/workload_support.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

using namespace schedscope;

namespace {

std::shared_ptr<const Topology> synth(const std::string &s)
{
    return std::make_shared<const Topology>(import_synthetic(s));
}

// Four nodes of two PUs: small enough to run anything in a moment.
const char *kFourNodes = "pack:4 [numa] l3:1(size=4MiB) core:2 pu:1";

Simulation build(const std::string &topo, const std::string &workload, SimTime duration_ns = 0, std::uint64_t seed = 1)
{
    SimConfig cfg;
    cfg.seed = seed;
    cfg.duration_ns = duration_ns;
    Simulation sim(synth(topo), make_policy("simple", {}, "test"), cfg);
    auto [name, params] = parse_name_params(workload, "test");
    find_workload(name, "test").build(sim, params, "test");
    return sim;
}

} // namespace

TEST_CASE("every built-in workload runs small to its end with invariants intact", "[workload]")
{
    struct Case {
        const char *spec;
        SimTime duration_ns; // throughput workloads
    };
    const Case cases[] = {
        {"numa01:memory_mb=64,loops=2", 0},
        {"numa01_THREAD_ALLOC:memory_mb=64,loops=4", 0},
        {"numa02:memory_mb=32,loops=4", 0},
        {"numa02_SMT:memory_mb=32,loops=4", 0},
        {"stream:instances=4,array_elements=1000000,ntimes=2", 0},
        {"hackbench:groups=1,loops=5", 0},
        {"kernbench:jobs=20,job_min_ms=1,job_max_ms=5", 0},
        {"numa_test:work_ms=50,disturb_groups=1,disturb_loops=5,disturb_at_ms=10", 0},
        {"sembench:threads=64,wake=16", 50'000'000},
        {"specjbb:noise=1,heap_mb=64", 50'000'000},
        {"oltp:processes=16", 100'000'000},
    };
    for (const auto &c : cases) {
        INFO(c.spec);
        Simulation sim = build(kFourNodes, c.spec, c.duration_ns);
        sim.run_to_end();
        REQUIRE(sim.finished());
        CHECK(check_invariants(sim).empty());
        const auto [name, params] = parse_name_params(c.spec, "t");
        const bool fixed = find_workload(name, "t").fixed_work;
        CHECK(fixed == (c.duration_ns == 0));
        if (fixed) {
            for (const auto &t : sim.tasks())
                if (!t.kernel) // the OS's threads run forever, as on a real machine
                    CHECK(t.state == TaskState::Exited);
        } else {
            CHECK(sim.total_ops() > 0);
        }
    }
}

TEST_CASE("every workload lists a description and defaults its factory accepts", "[workload]")
{
    for (const auto &w : workload_catalog()) {
        INFO(w.name);
        CHECK(!w.description.empty());
        ParamMap defaults;
        for (const auto &p : w.params) {
            CHECK(!p.description.empty());
            defaults[p.name] = p.default_value;
        }
        SimConfig cfg;
        cfg.duration_ns = 1'000'000;
        Simulation sim(synth(kFourNodes), make_policy("simple", {}, "t"), cfg);
        CHECK_NOTHROW(w.build(sim, defaults, "t"));
        CHECK_THROWS(w.build(sim, ParamMap{{"no_such_param", "1"}}, "t"));
    }
}

TEST_CASE("the catalog refuses a policy's parameter given to any workload, listing the workload's own", "[workload]")
{
    for (const auto &w : workload_catalog()) {
        INFO(w.name);
        SimConfig cfg;
        cfg.duration_ns = 1'000'000;
        Simulation sim(synth(kFourNodes), make_policy("simple", {}, "t"), cfg);
        try {
            find_workload(w.name, "t").build(sim, ParamMap{{"wakeup", "queued"}}, "t");
            FAIL("wakeup=queued accepted");
        } catch (const InputError &e) {
            CHECK(e.field() == "wakeup");
            CHECK(e.message().find("workload '" + w.name + "'") != std::string::npos);
        }
        try {
            find_workload(w.name, "t").build(sim, ParamMap{{"no_such_param", "1"}}, "t");
            FAIL("no_such_param accepted");
        } catch (const InputError &e) {
            CHECK(e.field() == "no_such_param");
            // The known list is the workload's parameters, nothing else.
            std::string known;
            for (const auto &p : w.params)
                known += (known.empty() ? "" : ", ") + p.name;
            CHECK(e.message().find("(known: " + (known.empty() ? std::string("none") : known) + ")") !=
                  std::string::npos);
            CHECK(e.message().find("wakeup") == std::string::npos);
        }
    }
    // Policies still take it, and name it among theirs.
    CHECK_NOTHROW(make_policy("simple", {{"wakeup", "queued"}}, "t"));
    CHECK_THROWS_WITH(make_policy("simple", {{"nosuch", "1"}}, "t"), Catch::Contains("known: wakeup"));
}

TEST_CASE("numa01: two processes of NCPUS/2 threads, memory first written on one node, one half or by its writers, "
          "each thread on all of it",
          "[workload]")
{
    Simulation sim = build(kFourNodes, "numa01:memory_mb=64");
    REQUIRE(sim.processes().size() == 2);
    const int chunks = static_cast<int>(sim.processes()[0].chunk_node.size());
    for (const auto &p : sim.processes()) {
        CHECK(p.tasks.size() == 4); // 8 PUs / 2
        // numa01.c's NO_BIND_FORCE_SAME_NODE binds the first bzero() of both
        // processes to one node (nodemask_global): node 0 by default.
        CHECK(p.chunks_on_node[0] == chunks);
        for (TaskId t : p.tasks) {
            REQUIRE(sim.task(t).segments.size() == 1);
            CHECK(sim.task(t).segments[0].chunk_begin == 0);
            CHECK(sim.task(t).segments[0].chunk_end == chunks);
            // numa01.c's thread(): one bzero() of all of it, then nr = 50 more.
            CHECK(sim.task(t).program.iterations == 51);
            // bzero()'s ordinary stores read each line for ownership and write it back.
            CHECK(sim.task(t).writeback_share == 1.0);
        }
    }
    Simulation one = build(kFourNodes, "numa01:memory_mb=64,first_node=2");
    for (const auto &p : one.processes())
        CHECK(p.chunks_on_node[2] == chunks);
    // The libnuma revision binds it to one half of the nodes (memmask_global):
    // all threads write at once, so it lands spread over that half.
    Simulation half = build(kFourNodes, "numa01:memory_mb=64,first_write=half,first_node=3");
    for (const auto &p : half.processes()) {
        CHECK(p.chunks_on_node[2] == chunks / 2);
        CHECK(p.chunks_on_node[3] == chunks - chunks / 2);
    }
    // On two nodes a half is one node.
    Simulation two = build("pack:2 [numa] l3:1(size=4MiB) core:2 pu:1", "numa01:memory_mb=64,first_write=half");
    for (const auto &p : two.processes())
        CHECK(p.chunks_on_node[0] == static_cast<int>(p.chunk_node.size()));
    // Without it every thread writes from where it runs: spread over all nodes.
    for (const char *spec :
         {"numa01:memory_mb=64,first_write=threads", "numa01_THREAD_ALLOC:memory_mb=64,first_write=threads"}) {
        INFO(spec);
        Simulation spread = build(kFourNodes, spec);
        for (const auto &p : spread.processes())
            for (int n = 0; n < 4; ++n)
                CHECK(p.chunks_on_node[n] == static_cast<int>(p.chunk_node.size()) / 4);
    }
    CHECK_THROWS(build(kFourNodes, "numa01:first_write=local"));
    CHECK_THROWS(build(kFourNodes, "numa01:first_write=quarter"));
}

TEST_CASE("numa01_THREAD_ALLOC and numa02 give each thread its own slice", "[workload]")
{
    for (const char *spec : {"numa01_THREAD_ALLOC:memory_mb=64", "numa02:memory_mb=64"}) {
        INFO(spec);
        Simulation sim = build(kFourNodes, spec);
        for (const auto &p : sim.processes()) {
            int next = 0;
            for (TaskId t : p.tasks) {
                if (!sim.task(t).creates_at_exit.empty())
                    continue; // numa02's main(), whose write covers all of it before the threads
                const auto &seg = sim.task(t).segments.at(0);
                CHECK(seg.chunk_begin == next);
                CHECK(seg.chunk_end > seg.chunk_begin);
                next = seg.chunk_end;
            }
            CHECK(next == static_cast<int>(p.chunk_node.size()));
        }
    }
    Simulation n2 = build(kFourNodes, "numa02:memory_mb=64");
    CHECK(n2.processes().size() == 1);
    // main() and its 8 threads.
    REQUIRE(n2.tasks().size() == 9);
    // The plain build: main() writes all of it before the threads start,
    // bind() empty, so every chunk sits on main()'s node; main() is a task
    // of the run, on that node, and it creates every thread.
    CHECK(n2.processes()[0].chunks_on_node[0] == 16);
    for (int n = 1; n < 4; ++n)
        CHECK(n2.processes()[0].chunks_on_node[n] == 0);
    CHECK(n2.task(0).name == "numa02/main");
    CHECK(n2.task(0).creates_at_exit.size() == 8);
    CHECK(n2.task(0).program.iterations == 1);
    CHECK(n2.topology().node_of_pu(n2.task(0).cpus_allowed.first()) == 0);
    // Under bind(), main() writes part k from node k: one task a part, each
    // creating the next, the last creating the threads.
    Simulation hb = build(kFourNodes, "numa02:memory_mb=64,bind=hard");
    REQUIRE(hb.tasks().size() == 12);
    for (int k = 0; k < 4; ++k) {
        INFO("part " << k);
        const Task &part = hb.task(k);
        CHECK(part.name == "numa02/main." + std::to_string(k));
        CHECK(hb.topology().node_of_pu(part.cpus_allowed.first()) == k);
        CHECK(part.creates_at_exit.size() == (k < 3 ? 1U : 8U));
        CHECK(hb.processes()[0].chunk_node[static_cast<size_t>(part.segments[0].chunk_begin)] == k);
    }
    // The binding builds' bind(k) binds main() before part k: a quarter on
    // each node; first_touch=nodes asks for that without binding threads.
    for (const char *spec : {"numa02:memory_mb=64,bind=hard", "numa02:memory_mb=64,bind=inverse",
                             "numa02:memory_mb=64,first_touch=nodes"}) {
        INFO(spec);
        Simulation s = build(kFourNodes, spec);
        for (int n = 0; n < 4; ++n)
            CHECK(s.processes()[0].chunks_on_node[n] == 4);
    }
    // first_touch=thread leaves every chunk to its thread's first write.
    Simulation lazy = build(kFourNodes, "numa02:memory_mb=64,first_touch=thread");
    for (int n = 0; n < 4; ++n)
        CHECK(lazy.processes()[0].chunks_on_node[n] == 0);
    CHECK(build(kFourNodes, "numa02_SMT:memory_mb=64").tasks().size() == 5);
}

TEST_CASE("the benchmark's own binding: hard puts thread i with its memory, inverse away from it", "[workload]")
{
    Simulation hard = build(kFourNodes, "numa02:memory_mb=64,bind=hard");
    Simulation inv = build(kFourNodes, "numa02:memory_mb=64,bind=inverse");
    const Topology &topo = hard.topology();
    // The first four tasks are main()'s write, part by part; then the threads.
    constexpr size_t kMainParts = 4;
    REQUIRE(hard.tasks().size() == kMainParts + 8);
    for (size_t i = kMainParts; i < hard.tasks().size(); ++i) {
        const auto &th = hard.tasks()[i];
        const auto &ti = inv.tasks()[i];
        const int slice_node = hard.processes()[0].chunk_node[th.segments[0].chunk_begin];
        CHECK(topo.node_of_pu(th.cpus_allowed.first()) == slice_node);
        CHECK(th.cpus_allowed.count() == 2);
        CHECK(topo.node_of_pu(ti.cpus_allowed.first()) != slice_node);
    }
    Simulation n1 = build(kFourNodes, "numa01:memory_mb=64,bind=hard");
    // Process 0 on nodes 0-1 (CPUs and memory), process 1 on nodes 2-3.
    CHECK(n1.processes()[0].chunks_on_node[0] + n1.processes()[0].chunks_on_node[1] ==
          static_cast<int>(n1.processes()[0].chunk_node.size()));
    CHECK(n1.processes()[1].chunks_on_node[2] + n1.processes()[1].chunks_on_node[3] ==
          static_cast<int>(n1.processes()[1].chunk_node.size()));
    CHECK(topo.node_of_pu(n1.tasks().back().cpus_allowed.first()) >= 2);
    // Inverse, as the repository's 2012 numa01.c does it: its nodemask swap
    // tests NODEMASK1 twice, so process 0 (CPUs on nodes 0-1) gets the
    // second half's mask and process 1 keeps it. Process 0's memory, written
    // from outside its mask, all on the mask's first node (MPOL_BIND's
    // choice); process 1 writes from inside it, spread over nodes 2-3.
    Simulation i1 = build(kFourNodes, "numa01:memory_mb=64,bind=inverse");
    const int c1 = static_cast<int>(i1.processes()[0].chunk_node.size());
    CHECK(i1.processes()[0].chunks_on_node[2] == c1);
    CHECK(i1.processes()[1].chunks_on_node[2] == c1 / 2);
    CHECK(i1.processes()[1].chunks_on_node[3] == c1 - c1 / 2);
    CHECK(topo.node_of_pu(i1.tasks().front().cpus_allowed.first()) < 2);
    CHECK(topo.node_of_pu(i1.tasks().back().cpus_allowed.first()) >= 2);
    // The March 2012 numa01.c swaps the masks: each process's threads on its
    // own half, its memory on the other's first node.
    Simulation sw = build(kFourNodes, "numa01:memory_mb=64,bind=inverse,inverse_memory=swap");
    CHECK(sw.processes()[0].chunks_on_node[2] == c1);
    CHECK(sw.processes()[1].chunks_on_node[0] == c1);
    CHECK(topo.node_of_pu(sw.tasks().front().cpus_allowed.first()) < 2);
    CHECK(topo.node_of_pu(sw.tasks().back().cpus_allowed.first()) >= 2);
    // THREAD_ALLOC: the first pass over all of it is not a pass of its own.
    Simulation ta = build(kFourNodes, "numa01_THREAD_ALLOC:memory_mb=64");
    for (const auto &p : ta.processes())
        for (TaskId t : p.tasks)
            CHECK(ta.task(t).program.iterations == 1000);
}

TEST_CASE("bind suffixes name a bind mode and the base workload", "[workload]")
{
    using P = std::pair<std::string, std::string>;
    CHECK(split_bind_suffix("numa01_HARD_BIND") == P{"numa01", "hard"});
    CHECK(split_bind_suffix("numa02_SMT_INVERSE_BIND") == P{"numa02_SMT", "inverse"});
    CHECK(split_bind_suffix("numa01_THREAD_ALLOC_HARD_BIND") == P{"numa01_THREAD_ALLOC", "hard"});
    CHECK(split_bind_suffix("numa01_THREAD_ALLOC") == P{"numa01_THREAD_ALLOC", ""});
    CHECK(split_bind_suffix("_HARD_BIND") == P{"_HARD_BIND", ""}); // a suffix alone names no workload
}

TEST_CASE("remote memory slows numa02 down: inverse binding well behind hard binding", "[workload]")
{
    // The threads' part of the run: from when main()'s write, the same in
    // both builds, is done and creates them.
    auto elapsed = [](const std::string &spec) {
        Simulation sim = build(kFourNodes, spec);
        const auto creating = [&sim] {
            for (const Task &t : sim.tasks())
                if (!t.creates_at_exit.empty() && t.state != TaskState::Exited)
                    return true;
            return false;
        };
        while (creating())
            REQUIRE(sim.step());
        const SimTime threads_start = sim.now();
        sim.run_to_end();
        return static_cast<double>(sim.end_time() - threads_start);
    };
    const double hard = elapsed("numa02:memory_mb=32,loops=20,bind=hard");
    const double inverse = elapsed("numa02:memory_mb=32,loops=20,bind=inverse");
    CHECK(inverse > 1.3 * hard);
}

TEST_CASE("hackbench moves every message, sembench wakes W per round", "[workload]")
{
    Simulation hb = build(kFourNodes, "hackbench:groups=2,loops=3");
    CHECK(hb.tasks().size() == 80);
    hb.run_to_end();
    CHECK(hb.finished());
    Simulation sb = build(kFourNodes, "sembench:threads=32,wake=8", 20'000'000);
    sb.run_to_end();
    // Burns come in whole rounds of W (one round may be in flight at the end).
    CHECK(sb.total_ops() >= 8);
}

TEST_CASE("sembench as sembench.c runs it: pinned workers, a waker that wakes only those waiting", "[workload]")
{
    // 8 PUs, 32 workers: worker i on PU i mod 8; the waker is free.
    Simulation sb = build(kFourNodes, "sembench:threads=32,wake=12,burn_us=0,affinity=pinned,waker=loop", 2'000'000);
    REQUIRE(sb.tasks().size() == 33);
    for (int i = 0; i < 32; ++i) {
        INFO("worker " << i);
        CHECK(sb.task(i).cpus_allowed.count() == 1);
        CHECK(sb.task(i).cpus_allowed.test(i % 8));
    }
    CHECK(sb.task(32).cpus_allowed.count() == 8);
    sb.run_until(1'500'000);
    // The waker never blocks: it goes round its loop whether or not anyone
    // was waiting.
    CHECK(sb.task(32).state != TaskState::Blocked);
    std::int64_t burns = 0;
    for (int i = 0; i < 32; ++i)
        burns += sb.task(i).stats.ops;
    CHECK(burns > 32); // several passes woke workers
}

TEST_CASE("a woken task that waits again at once does not take a token meant for another waiter", "[workload]")
{
    // 8 workers, one per PU, all waiting when the waker's first pass (at
    // 1 ms) wakes all 8. Locked wakeups start a woken worker on its idle PU
    // at once, inside the waker's post; with no burn it is back in Wait
    // before the post has woken the others. Each token still goes to its own
    // waiter: after the pass every worker but the one sharing the waker's PU
    // (queued behind it) has counted exactly one wakeup.
    Simulation sb = build(kFourNodes, "sembench:threads=8,wake=8,burn_us=0,affinity=pinned,waker=loop,pass_ns=100000",
                          10'000'000);
    sb.run_until(1'050'000);
    const int waker_pu = sb.task(8).cpu;
    for (int i = 0; i < 8; ++i) {
        INFO("worker " << i << ", waker on PU " << waker_pu);
        CHECK(sb.task(i).stats.ops == (i == waker_pu ? 0 : 1));
    }
}

TEST_CASE("kernbench keeps make -j's jobs in flight: the next starts as one ends", "[workload]")
{
    Simulation sim = build(kFourNodes, "kernbench:jobs=10,parallel=5,job_min_ms=10,job_max_ms=30");
    REQUIRE(sim.tasks().size() == 10);
    CHECK(sim.processes().size() == 10);
    for (TaskId t = 0; t < 5; ++t) {
        CHECK(sim.task(t).start_ns == 0);
        CHECK_FALSE(sim.task(t).arrives_with_creator);
        CHECK(sim.task(t).creates_at_exit == std::vector<TaskId>{t + 5});
    }
    for (TaskId t = 5; t < 10; ++t) {
        CHECK(sim.task(t).arrives_with_creator);
        CHECK(sim.task(t).creates_at_exit.empty());
    }
    // Never more than -j jobs at once, and each later job only after the
    // one whose end started it (the run adds its OS noise's tasks after the
    // workload's ten).
    int most = 0;
    while (sim.step()) {
        int live = 0;
        for (TaskId t = 0; t < 10; ++t)
            live += sim.task(t).state != TaskState::NotStarted && sim.task(t).state != TaskState::Exited ? 1 : 0;
        most = std::max(most, live);
        for (TaskId t = 5; t < 10; ++t)
            if (sim.task(t).state != TaskState::NotStarted)
                REQUIRE(sim.task(t - 5).state == TaskState::Exited);
    }
    CHECK(most == 5);
    REQUIRE(sim.finished());
    for (TaskId t = 0; t < 10; ++t)
        CHECK(sim.task(t).state == TaskState::Exited);
}
