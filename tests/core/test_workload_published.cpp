// Workloads configured as the published experiments ran them: several
// independent JVMs and their manual pinning, hackbench senders that block on
// a full socket, numa_test as its 2003 script ran it.

#include "catalog/catalog.h"
#include "engine/invariants.h"
#include "engine/simulation.h"
#include "engine_test_access.h"
#include "scenario/run.h"
#include "scenario/scenario.h"
#include "topology/import.h"
#include "workloads/workload_support.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <numeric>

using namespace schedscope;

namespace {

Simulation build(const std::string &topo, const std::string &policy, const std::string &workload,
                 SimTime duration_ns = 0, const std::function<void(ModelParams &)> &machine = {})
{
    SimConfig cfg;
    cfg.seed = 1;
    cfg.duration_ns = duration_ns;
    cfg.model.os_noise = 0; // the workload's tasks alone, without the OS's threads
    if (machine)
        machine(cfg.model);
    auto [pname, pparams] = parse_name_params(policy, "test");
    Simulation sim(std::make_shared<const Topology>(import_synthetic(topo)), make_policy(pname, pparams, "test"), cfg);
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
        int warehouses = 0;
        for (TaskId t : p.tasks)
            warehouses += sim.task(t).name.find("/warehouse") != std::string::npos;
        CHECK(warehouses == 2); // 8 PUs / 4 JVMs
        for (TaskId t : p.tasks)
            for (const auto &seg : sim.task(t).segments) // every access stays in its own JVM's heap
                CHECK(seg.chunk_end <= static_cast<int>(p.chunk_node.size()));
    }
    // One JVM keeps its historical names.
    Simulation one = build(kFourNodes, "simple", "specjbb:heap_mb=64", 10'000'000);
    REQUIRE(one.processes().size() == 1);
    CHECK(one.processes()[0].name == "jvm");
    CHECK(one.tasks()[3].name == "jvm/warehouse3");
}

namespace {

int gc_threads_of(const Simulation &sim, ProcId p)
{
    int n = 0;
    for (TaskId t : sim.processes()[static_cast<size_t>(p)].tasks)
        n += sim.task(t).name.find("/gc") != std::string::npos;
    return n;
}

SimTime warehouses_start(const Simulation &sim)
{
    for (const Task &t : sim.tasks())
        if (t.name.find("/warehouse") != std::string::npos)
            return t.start_ns;
    return -1;
}

} // namespace

TEST_CASE("specjbb: each JVM runs HotSpot's default ParallelGCThreads for the machine's CPUs",
          "[workload][published][specjbb]")
{
    // 8 CPUs: one per CPU. 32 (the R910): 8 + (32 - 8) x 5 / 8 = 23, pinned
    // or not (the JVMs of 2012 counted the online CPUs).
    Simulation eight = build(kFourNodes, "simple", "specjbb:jvms=4,heap_mb=64", 10'000'000);
    for (const Process &p : eight.processes())
        CHECK(gc_threads_of(eight, p.id) == 8);
    Simulation r910 = build("pack:4 [numa] l3:1(size=24MiB) core:8 pu:1", "bind:mode=hard",
                            "specjbb:jvms=4,heap_mb=128", 10'000'000);
    for (const Process &p : r910.processes())
        CHECK(gc_threads_of(r910, p.id) == 23);
    Simulation set = build(kFourNodes, "simple", "specjbb:jvms=2,heap_mb=64,gc_threads=3", 10'000'000);
    for (const Process &p : set.processes())
        CHECK(gc_threads_of(set, p.id) == 3);
}

TEST_CASE("specjbb: the GC threads first-touch the heap before the warehouses start, and unbound it spans the nodes",
          "[workload][published][specjbb]")
{
    // Four JVMs on 4 nodes x 2 CPUs. The warehouses are created after the
    // start-up collections; by then the heaps have been written by the GC
    // threads. Under cfs a JVM's GC threads were spread over
    // the machine at clone, so its heap is on several nodes; under manual
    // pinning it is on the JVM's node alone.
    for (const char *policy : {"cfs", "bind:mode=hard"}) {
        Simulation sim = build(kFourNodes, policy, "specjbb:jvms=4,heap_mb=64", 400'000'000);
        const SimTime start = warehouses_start(sim);
        REQUIRE(start > 0);
        sim.run_until(start);
        for (const Process &p : sim.processes()) {
            // The engine samples a running task's touches (2 a tick), so a
            // chunk copied in a GC thread's last moments may be left for a
            // warehouse to touch first: nearly all, not all.
            int unplaced = 0;
            for (auto n : p.chunk_node)
                unplaced += n == kNoNode;
            CHECK(unplaced * 10 <= static_cast<int>(p.chunk_node.size()));
            int nodes = 0;
            for (int c : p.chunks_on_node)
                nodes += c > 0;
            if (std::string(policy) == "cfs")
                CHECK(nodes >= 3);
            else
                CHECK(nodes == 1);
        }
        CHECK(check_invariants(sim).empty());
    }
}

TEST_CASE("specjbb: unbound warehouses find most of their heap remote, pinned ones all of it local",
          "[workload][published][specjbb]")
{
    // What the published table turns on: a warehouse's accesses are local
    // in proportion to its JVM's heap on its node, which under cfs is about
    // a node's share (1/4 here) and under manual pinning all of it.
    auto local_share = [](const char *policy) {
        Simulation sim = build(kFourNodes, policy, "specjbb:jvms=4,heap_mb=64", 300'000'000);
        sim.run_to_end();
        double acc = 0, local = 0;
        for (const Task &t : sim.tasks())
            if (t.name.find("/warehouse") != std::string::npos) {
                acc += t.stats.accesses;
                local += t.stats.local_accesses;
            }
        REQUIRE(acc > 0);
        return local / acc;
    };
    CHECK(local_share("cfs") < 0.5);
    CHECK(local_share("bind:mode=hard") > 0.95);
}

TEST_CASE("specjbb jvms=4 under manual pinning: each JVM's CPUs and memory on a node of its own",
          "[workload][published]")
{
    Simulation sim = build(kFourNodes, "bind:mode=hard", "specjbb:jvms=4,heap_mb=64", 80'000'000);
    sim.run_to_end();
    for (const Process &p : sim.processes()) {
        const int node = p.id; // JVM i owns node i
        for (TaskId t : p.tasks) {
            CHECK(sim.task(t).cpus_allowed.to_list_string() ==
                  std::to_string(2 * node) + "-" + std::to_string(2 * node + 1));
            CHECK(sim.topology().node_of_pu(sim.task(t).cpu) == node);
        }
        const int total = std::accumulate(p.chunks_on_node.begin(), p.chunks_on_node.end(), 0);
        REQUIRE(total > 0);
        CHECK(p.chunks_on_node[static_cast<size_t>(node)] == total);
    }
    CHECK(sim.total_ops() > 0);
    CHECK(check_invariants(sim).empty());
}

TEST_CASE("STREAM on the R910 under 3.6: instances spread at exec, one node at a time, and stay with their arrays",
          "[workload][published][stream]")
{
    // Linux 3.6 select_task_rq_fair() with SD_BALANCE_EXEC/FORK, which
    // sd_numa_init() sets below RECLAIM_DISTANCE (the R910's SLIT 20): each
    // instance goes to the idlest node by instantaneous load (forkexec_idx
    // 0), so 4, 8 and 16 instances land 1, 2 and 4 a node, and each
    // first-touches its arrays there. With idle CPUs on every node,
    // find_busiest_group() finds the nodes balanced (the busiest has no more
    // tasks than CPUs and at most one idle CPU fewer; 125 % imbalance_pct),
    // so with nothing else running the balancer never takes an instance
    // from its memory, over a run ten times stream.c's NTIMES.
    //
    // With OS noise, a daemon that holds an instance's CPU past
    // sched_migration_cost (irqbalance's millisecond) can leave it queued
    // when a CPU of another node goes newly idle, which pulls it (125 %
    // imbalance_pct); the nodes are then uneven, and idle balancing later
    // evens them by moving instances whose arrays are placed. Whether that
    // happens depends on where the noise falls, so only the spread at exec
    // is asserted with noise on (docs/CALIBRATION.md, seventh round).
    for (int instances : {4, 8, 16}) {
        for (const double noise : {1.0, 0.0}) {
            INFO(instances << " instances, os_noise " << noise);
            Scenario s;
            s.topology = "sample:dell-r910-4node";
            s.workload = {"stream", {{"instances", std::to_string(instances)}, {"ntimes", "100"}}};
            s.policies = {{"cfs", {}}};
            s.model["os_noise"] = noise;
            Simulation sim = build_simulation(s, s.policies.front(), 1, scenario_topology(s));
            const auto spread = [&] {
                std::vector<int> per_node(4, 0);
                for (const Task &t : sim.tasks())
                    if (t.name.rfind("stream", 0) == 0)
                        ++per_node[static_cast<size_t>(sim.topology().node_of_pu(t.cpu))];
                return per_node;
            };
            // Every instance has been exec'd and placed within the first tick.
            sim.run_until(1'000'000);
            for (int n : spread())
                CHECK(n == instances / 4);
            if (noise > 0)
                continue;
            sim.run_to_end();
            for (int n : spread())
                CHECK(n == instances / 4);
            double acc = 0, local = 0;
            for (const Task &t : sim.tasks()) {
                acc += t.stats.accesses;
                local += t.stats.local_accesses;
            }
            REQUIRE(acc > 0);
            CHECK(local / acc > 0.99);
        }
    }
}

TEST_CASE("sched-numa home=task: no home at fork, then each thread's own hinting faults pick its home",
          "[policy][published][sched-numa]")
{
    // One process, two threads: thread 0 on node 0 over its half of the
    // memory on node 0, thread 1 on node 2 over its half on node 2. The
    // October 2012 posting homes tasks, not processes: none at first
    // (__sched_fork(): p->node = -1), then each where its own faults went
    // (task_numa_placement()). A home per process gives both one home.
    auto homes = [](const std::string &home, SimTime t) {
        SimConfig cfg;
        cfg.model.os_noise = 0;
        cfg.duration_ns = 2'000'000'000;
        Simulation sim(std::make_shared<const Topology>(import_synthetic(kFourNodes)),
                       make_policy("sched-numa", {{"home", home}, {"sched_numa_scan_period_min_ms", "20"}}, "test"),
                       cfg);
        const ProcId p = sim.add_process("two", std::int64_t{8} << 22);
        for (int i = 0; i < 2; ++i) {
            Simulation::TaskSpec s;
            s.program.ops = {Op{Op::Kind::Compute, 1'000'000, 0, -1}};
            s.program.iterations = 0;
            s.segments = {AccessSegment{4 * i, 4 * i + 4, 1.0}};
            s.mem_intensity = 0.02;
            s.working_set_bytes = 1 << 20;
            s.cpus_allowed.set(4 * i);
            s.cpus_allowed.set(4 * i + 1);
            sim.add_task(p, std::move(s));
            sim.place_chunks(p, 4 * i, 4 * i + 4, 2 * i);
        }
        sim.run_until(t);
        CHECK(check_invariants(sim).empty());
        return std::pair{sim.policy().preferred_node(sim, 0), sim.policy().preferred_node(sim, 1)};
    };
    CHECK(homes("task", 1'000'000) == std::pair{kNoNode, kNoNode});
    CHECK(homes("task", 1'000'000'000) == std::pair{0, 2});
    const auto [a, b] = homes("process", 1'000'000'000);
    CHECK(a == b);
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

TEST_CASE("numa_test runs as its 2003 script did: randupdt's 20 MB, hackbench 10 three seconds in",
          "[workload][published]")
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

TEST_CASE("numa_test's updates wait out each miss on an in-order core, and overlap on an out-of-order one",
          "[workload][published]")
{
    // One randupdt alone, its memory local: the time per update is its
    // compute plus its misses' latency, all of it in order (each miss is
    // waited for at its use), a third of it out of order with 3 lines in
    // flight.
    auto user_ns = [](bool in_order) {
        Simulation sim = build(kFourNodes, "simple", "numa_test:tasks=1,disturb_groups=0,work_ms=20", 0,
                               [in_order](ModelParams &m) {
                                   m.core_in_order = in_order;
                                   m.mem_misses_in_flight = 3;
                               });
        sim.run_to_end();
        REQUIRE(sim.finished());
        const Task &t = sim.tasks().at(0);
        CHECK(t.dependent_fraction == (in_order ? 1.0 : 0.0));
        return static_cast<double>(t.stats.user_ns);
    };
    const double out_of_order = user_ns(false);
    const double in_order = user_ns(true);
    const ModelParams m;
    // Per work-ns: c = the clock's compute, s = accesses x local latency;
    // (c + s) / (c + s / 3) is what the overlap alone changes.
    const double c = m.compute_ns_per_work_ns();
    const double s = 593.75e-3 * m.mem_latency_local_ns;
    const double expected = (c + s) / (c + s / 3.0);
    CHECK(in_order / out_of_order == Approx(expected).epsilon(0.15));
}

TEST_CASE("an I/O completed on an interrupt CPU wakes its task from there: wake-affine may take it",
          "[workload][published]")
{
    // CPU 1 runs two pinned spinners; a sleeper that ran on CPU 1 sleeps
    // 5 ms (cold after 2.5 ms) and wakes. From CPU 1 itself it stays
    // there; from an interrupt on idle CPU 0, sched-domains' wake-affine
    // takes it to CPU 0.
    auto woken_on = [](int irq_cpu) {
        SimConfig cfg;
        cfg.model.os_noise = 0;
        Simulation sim(std::make_shared<const Topology>(import_synthetic("pack:1 core:2 pu:1")),
                       make_policy("sched-domains", {}, "test"), cfg);
        CpuSet one;
        one.set(1);
        // Added first, the sleeper runs first: 0.1 ms, then asleep by the
        // time its affinity is widened, so no balancer moves it before.
        ProcId p = sim.add_process("io", 4 << 20);
        Simulation::TaskSpec s;
        s.program.ops = {Op{Op::Kind::Compute, 100'000, 0, -1}, Op{Op::Kind::Sleep, 5'000'000, 0, irq_cpu},
                         Op{Op::Kind::Compute, 100'000, 0, -1}};
        TaskId io = sim.add_task(p, std::move(s));
        EngineTestAccess::task(sim, io).cpus_allowed = one;
        for (int i = 0; i < 2; ++i) {
            ProcId q = sim.add_process("spin" + std::to_string(i), 4 << 20);
            Simulation::TaskSpec sp;
            sp.program.ops = {Op{Op::Kind::Compute, 50'000'000, 0, -1}};
            TaskId t = sim.add_task(q, std::move(sp));
            EngineTestAccess::task(sim, t).cpus_allowed = one;
        }
        sim.run_until(1'000'000);
        EngineTestAccess::task(sim, io).cpus_allowed.set(0);
        sim.run_until(20'000'000);
        // A wakeup that moves a task is logged; none means it stayed on its
        // previous CPU, 1 (an idle balancer may pull it later: not asked).
        for (const Decision &d : sim.recording().decisions)
            if (d.kind == DecisionKind::Wakeup && d.task == io)
                return d.to;
        return 1;
    };
    CHECK(woken_on(-1) == 1);
    CHECK(woken_on(0) == 0);
}

TEST_CASE("oltp: heavy-tailed I/O of the set mean, completed on irq_cpu", "[workload][published]")
{
    Simulation sim = build("pack:1 core:4 pu:1", "simple", "oltp:processes=8", 10'000'000);
    std::vector<double> io;
    for (const Task &t : sim.tasks())
        for (int k = 0; k < t.op_count; ++k)
            if (t.ops[k].kind == Op::Kind::Sleep) {
                CHECK(t.ops[k].channel == 0); // irq_cpu's default
                io.push_back(static_cast<double>(t.ops[k].a) / 1e6);
            }
    REQUIRE(io.size() == std::size_t{8} * 16 * 4); // 16 transactions of 4 I/Os per process
    std::sort(io.begin(), io.end());
    const double mean = std::accumulate(io.begin(), io.end(), 0.0) / static_cast<double>(io.size());
    CHECK(mean > 4.0);
    CHECK(mean < 6.0); // io_us 5000
    const double median = io[io.size() / 2];
    CHECK(median < 0.8 * mean);                   // lognormal: the median well below the mean
    CHECK(io[io.size() * 99 / 100] > 5 * median); // and a long tail
    Simulation own = build("pack:1 core:4 pu:1", "simple", "oltp:processes=8,irq_cpu=-1,io_sigma=0", 10'000'000);
    CHECK(own.tasks()[0].ops[1].channel == -1);
    CHECK(own.tasks()[0].ops[1].b > 0); // the exponential draw of the earlier model
}
