// The engine's contract: event order, determinism, accounting, invariants,
// checkpoints and lockstep.

#include "catalog/catalog.h"
#include "engine/event_queue.h"
#include "engine/invariants.h"
#include "engine/memory_model.h"
#include "engine/simulation.h"
#include "scoped_env.h"
#include "topology/import.h"
#include "util/prng.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

using namespace schedscope;

namespace {

std::shared_ptr<const Topology> synth(const std::string &s)
{
    return std::make_shared<const Topology>(import_synthetic(s));
}

Simulation make_sim(const std::string &topo, const std::string &workload, std::uint64_t seed = 1,
                    const std::string &policy = "simple")
{
    SimConfig cfg;
    cfg.seed = seed;
    cfg.sample_interval_ns = 10'000'000;
    cfg.model.os_noise = 0; // the contract of the engine itself, without the OS's threads
    auto [pname, pparams] = parse_name_params(policy, "test");
    Simulation sim(synth(topo), make_policy(pname, pparams, "test"), cfg);
    auto [wname, wparams] = parse_name_params(workload, "test");
    find_workload(wname, "test").build(sim, wparams, "test");
    return sim;
}

// A mixed load with randomness: bursts of random length, sleeps, and
// semaphore handoffs between two threads.
Simulation make_random_sim(std::uint64_t seed, int cpus)
{
    SimConfig cfg;
    cfg.seed = seed;
    cfg.sample_interval_ns = 5'000'000;
    cfg.model.os_noise = 0;
    Simulation sim(synth("pack:1 l3:1 core:" + std::to_string(cpus) + " pu:1"), make_policy("simple", {}, "t"), cfg);
    ProcId p = sim.add_process("mix", 64 << 20);
    const int ch = sim.add_channel();
    for (int i = 0; i < 6; ++i) {
        Simulation::TaskSpec s;
        s.program.iterations = 20;
        if (i == 0)
            s.program.ops = {{Op::Kind::Compute, 100'000, 300'000}, {Op::Kind::Post, 1, 0, ch}};
        else if (i == 1)
            s.program.ops = {{Op::Kind::Wait, 0, 0, ch}, {Op::Kind::Compute, 50'000, 90'000}};
        else
            s.program.ops = {{Op::Kind::Compute, 200'000, 2'000'000}, {Op::Kind::Sleep, 100'000, 500'000}};
        s.segments = {AccessSegment{i * 2, i * 2 + 4, 1.0}};
        s.mem_intensity = 0.02;
        s.working_set_bytes = 1 << 20;
        s.start_ns = i * 100'000;
        sim.add_task(p, std::move(s));
    }
    return sim;
}

std::string fingerprint(const Simulation &sim)
{
    std::string f = std::to_string(sim.now()) + "|" + std::to_string(sim.events_processed());
    for (auto &t : sim.tasks())
        f += "|" + std::to_string(t.stats.user_ns) + "," + std::to_string(t.stats.sys_ns) + "," +
             std::to_string(t.cpu) + "," + std::to_string(t.stats.migrations);
    for (auto &rq : sim.runqueues())
        f += "|" + std::to_string(rq.idle_ns);
    return f;
}

} // namespace

TEST_CASE("events run in (time, sequence) order", "[engine]")
{
    EventQueue q;
    q.push(30, EventType::Tick, 1);
    q.push(10, EventType::Tick, 2);
    q.push(10, EventType::Tick, 3);
    q.push(20, EventType::Tick, 4);
    std::vector<int> order;
    while (!q.empty())
        order.push_back(q.pop().a);
    CHECK(order == std::vector<int>{2, 3, 4, 1});
}

TEST_CASE("the event queue pops in (time, sequence) order through any mix of pushes, peeks and pops", "[engine]")
{
    // Against the order a sorted list gives, on times drawn from narrow and
    // wide ranges (many equal times; gaps from 1 ns to hours), never before
    // the last time popped, as the engine schedules them.
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        Prng rng(seed);
        EventQueue q;
        std::vector<Event> pending; // what the queue should hold, in push order
        std::uint64_t seq = 0;
        std::int64_t now = 0;
        int popped = 0;
        for (int step = 0; step < 4000; ++step) {
            if (pending.empty() || rng.below(100) < 55) {
                const std::uint64_t span = std::uint64_t{1} << rng.below(44);
                const std::int64_t t = now + static_cast<std::int64_t>(rng.below(span));
                q.push(t, EventType::Tick, static_cast<std::int32_t>(seq));
                pending.push_back(Event{t, seq++, EventType::Tick, 0, 0});
                continue;
            }
            auto first = pending.begin();
            for (auto it = pending.begin(); it != pending.end(); ++it)
                if (it->time_ns < first->time_ns)
                    first = it; // the earliest time, the first pushed of equals
            REQUIRE(q.top().time_ns == first->time_ns);
            REQUIRE(q.top().seq == first->seq);
            const Event e = q.pop();
            REQUIRE(e.time_ns == first->time_ns);
            REQUIRE(e.a == static_cast<std::int32_t>(first->seq));
            now = e.time_ns;
            pending.erase(first);
            ++popped;
            REQUIRE(q.size() == pending.size());
        }
        CHECK(popped > 1000);
    }
}

TEST_CASE("the event queue refuses an event before the last one run", "[engine]")
{
    EventQueue q;
    q.push(100, EventType::Tick);
    q.push(50, EventType::Tick); // before anything ran: fine
    CHECK(q.pop().time_ns == 50);
    CHECK_THROWS_AS(q.push(49, EventType::Tick), std::logic_error);
    q.push(50, EventType::Tick, 7); // the same time again: after the 50 already run
    CHECK(q.pop().a == 7);
    CHECK(q.pop().time_ns == 100);
    CHECK(q.empty());
    CHECK_THROWS_AS(q.pop(), std::logic_error);
}

TEST_CASE("CPU-bound work spreads over the PUs and finishes in work/PUs time", "[engine]")
{
    // 4 threads of 100 ms on 2 PUs with no memory traffic: 200 ms plus overheads.
    Simulation sim = make_sim("pack:1 core:2 pu:1", "spin:threads=4,work_ms=100,mem_accesses_per_us=0");
    sim.run_to_end();
    REQUIRE(sim.finished());
    const double elapsed_ms = sim.end_time() / 1e6;
    CHECK(elapsed_ms >= 200.0);
    CHECK(elapsed_ms < 210.0);
    for (auto &t : sim.tasks()) {
        CHECK(t.state == TaskState::Exited);
        CHECK(t.stats.user_ns >= 100'000'000);
    }
    CHECK(check_invariants(sim).empty());
}

TEST_CASE("a task created by another arrives when its creator's program ends, not before", "[engine]")
{
    // main() computes 50 ms, then two threads of 30 ms each start: 80 ms on
    // 2 PUs, though the second PU sits idle for main()'s 50 ms.
    SimConfig cfg;
    cfg.model.os_noise = 0;
    Simulation sim(synth("pack:1 core:2 pu:1"), make_policy("simple", {}, "t"), cfg);
    const ProcId p = sim.add_process("prog", 0);
    Simulation::TaskSpec main_spec;
    main_spec.name = "main";
    main_spec.program.ops = {{Op::Kind::Compute, 50'000'000}};
    const TaskId main_task = sim.add_task(p, main_spec);
    for (int i = 0; i < 2; ++i) {
        Simulation::TaskSpec s;
        s.name = "thread" + std::to_string(i);
        s.program.ops = {{Op::Kind::Compute, 30'000'000}};
        s.created_by = main_task;
        sim.add_task(p, s);
    }
    sim.run_until(49'000'000);
    CHECK(sim.task(1).state == TaskState::NotStarted);
    CHECK(sim.task(2).state == TaskState::NotStarted);
    CHECK(sim.runqueues()[0].current == main_task);
    sim.run_to_end();
    REQUIRE(sim.finished());
    CHECK(sim.end_time() / 1e6 == Approx(80.0).margin(1.0));
    for (auto &t : sim.tasks())
        CHECK(t.state == TaskState::Exited);
    CHECK(check_invariants(sim).empty());

    // A creator must come first and end.
    Simulation bad(synth("pack:1 core:2 pu:1"), make_policy("simple", {}, "t"), cfg);
    const ProcId q = bad.add_process("prog", 0);
    Simulation::TaskSpec forever;
    forever.program.ops = {{Op::Kind::Compute, 1'000'000}};
    forever.program.iterations = 0;
    const TaskId f = bad.add_task(q, forever);
    Simulation::TaskSpec child;
    child.program.ops = {{Op::Kind::Compute, 1'000'000}};
    child.created_by = f;
    CHECK_THROWS_AS(bad.add_task(q, child), std::logic_error);
    child.created_by = 5;
    CHECK_THROWS_AS(bad.add_task(q, child), std::logic_error);
}

TEST_CASE("user + system + idle equals PUs x elapsed", "[engine]")
{
    Simulation sim = make_random_sim(7, 4);
    sim.run_to_end();
    double total = 0;
    for (auto &rq : sim.runqueues())
        total += static_cast<double>(rq.user_ns + rq.sys_ns + rq.idle_ns);
    CHECK(total == Approx(4.0 * static_cast<double>(sim.end_time())));
    CHECK(check_invariants(sim).empty());
}

TEST_CASE("invariants hold at every step of random scenarios", "[engine]")
{
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        Simulation sim = make_random_sim(seed, 1 + static_cast<int>(seed % 3));
        SimTime last = 0;
        int steps = 0;
        while (sim.step()) {
            REQUIRE(sim.now() >= last);
            last = sim.now();
            if (++steps % 97 == 0) {
                auto v = check_invariants(sim);
                INFO("seed " << seed << " at " << sim.now() << ": " << (v.empty() ? "" : v.front()));
                REQUIRE(v.empty());
            }
        }
        REQUIRE(sim.finished());
        for (auto &t : sim.tasks())
            CHECK(t.state == TaskState::Exited);
        CHECK(check_invariants(sim).empty());
    }
}

TEST_CASE("SCHEDSCOPE_CHECK_INVARIANTS turns the per-event check on, and changes no result", "[engine]")
{
    const testing::ScopedEnv env("SCHEDSCOPE_CHECK_INVARIANTS", std::nullopt);
    Simulation plain = make_random_sim(11, 2);
    env.set("0");
    Simulation zero = make_random_sim(11, 2);
    env.set("1");
    Simulation checked = make_random_sim(11, 2);
    CHECK_FALSE(plain.checks_each_event());
    CHECK_FALSE(zero.checks_each_event());
    CHECK(checked.checks_each_event());
    plain.run_to_end();
    checked.run_to_end(); // would abort at the first broken invariant
    CHECK(fingerprint(plain) == fingerprint(checked));
}

TEST_CASE("same seed gives identical runs, different seeds differ", "[engine]")
{
    Simulation a = make_random_sim(42, 2), b = make_random_sim(42, 2), c = make_random_sim(43, 2);
    a.run_to_end();
    b.run_to_end();
    c.run_to_end();
    CHECK(fingerprint(a) == fingerprint(b));
    CHECK(fingerprint(a) != fingerprint(c));
}

TEST_CASE("a checkpoint restores the exact state and the run replays identically", "[engine]")
{
    Simulation sim = make_random_sim(3, 2);
    sim.run_until(5'000'000);
    auto cp = sim.checkpoint();
    const auto samples_at_cp = sim.recording().samples.size();
    sim.run_until(20'000'000);
    const std::string later = fingerprint(sim);
    const auto samples_later = sim.recording().samples.size();
    sim.restore(cp);
    CHECK(sim.now() == 5'000'000);
    CHECK(sim.recording().samples.size() == samples_at_cp);
    sim.run_until(20'000'000);
    CHECK(fingerprint(sim) == later);
    CHECK(sim.recording().samples.size() == samples_later);
}

TEST_CASE("simulations advance in lockstep to the same time", "[engine]")
{
    Simulation a = make_random_sim(5, 2);
    Simulation b = make_random_sim(5, 3);
    for (SimTime t = 1'000'000; t <= 10'000'000; t += 1'000'000) {
        a.run_until(t);
        b.run_until(t);
        CHECK(a.now() == t);
        CHECK(b.now() == t);
    }
}

TEST_CASE("a migrated task starts cold where it did not share a cache", "[engine]")
{
    // Two packages with an L2 each: a task that warmed package 0's L2 has
    // nothing in package 1's.
    Simulation sim = make_sim("pack:2 l2:1(size=4MB) core:1 pu:1", "spin:threads=1,work_ms=50,working_set_kb=1024");
    sim.run_until(20'000'000);
    const Task &t = sim.task(0);
    const int here = t.cpu;
    const int there = 1 - here;
    CHECK(sim.warmth_on(0, here, 2) == Approx(1024.0 * 1024.0).margin(1.0));
    CHECK(sim.warmth_on(0, there, 2) == 0.0);
}

TEST_CASE("remote memory slows a pointer-chasing task by the remote latency", "[engine]")
{
    // No caches, every access a dependent miss: at intensity I the task
    // takes (1 + I L) ns per work-ns. Remote over SLIT 20 without a
    // machine figure: L = 80 x (1 + (20/10 - 1) x 0.5) = 120 ns, so
    // (1 + 0.01 x 120) / (1 + 0.01 x 80) = 2.2 / 1.8 = 1.222 times longer.
    auto run = [](int mem_node) {
        SimConfig cfg;
        cfg.model.os_noise = 0;
        Simulation sim(synth("pack:2 [numa] core:1 pu:1"), make_policy("simple", {}, "t"), cfg);
        ProcId p = sim.add_process("m", 256 << 20);
        sim.place_chunks(p, 0, 64, mem_node);
        Simulation::TaskSpec s;
        s.program.ops = {{Op::Kind::Compute, 10'000'000}};
        s.segments = {AccessSegment{0, 64, 1.0}};
        s.mem_intensity = 0.01;
        s.dependent_fraction = 1.0;
        s.working_set_bytes = 256 << 20;
        s.cpus_allowed.set(0); // node 0
        sim.add_task(p, std::move(s));
        sim.run_to_end();
        return static_cast<double>(sim.end_time());
    };
    const auto local = run(0), remote = run(1);
    CHECK(remote / local == Approx(2.2 / 1.8).epsilon(0.01));
}

namespace {

// `tasks` memory-streaming tasks on node `cpu_node` over memory on node
// `mem_node`, with the given interconnect bandwidth.
Simulation make_stream_sim(std::shared_ptr<const Topology> topo, int cpu_node, int mem_node, int tasks,
                           double link_bandwidth, double queueing = ModelParams{}.queueing_max_utilisation)
{
    SimConfig cfg;
    cfg.duration_ns = 400'000'000;
    cfg.model.os_noise = 0;
    cfg.model.link_bandwidth_bytes_per_ns = link_bandwidth;
    cfg.model.queueing_max_utilisation = queueing;
    Simulation sim(topo, make_policy("simple", {}, "t"), cfg);
    ProcId p = sim.add_process("m", 512 << 20);
    sim.place_chunks(p, 0, 128, mem_node);
    const CpuSet node_cpus = topo->pus_of_node(cpu_node);
    for (int i = 0; i < tasks; ++i) {
        Simulation::TaskSpec s;
        s.program.ops = {{Op::Kind::Compute, 10'000'000'000}};
        s.segments = {AccessSegment{0, 128, 1.0}};
        s.mem_intensity = 0.2; // a line about every 5 ns of work
        // One line per latency (no memory-level parallelism), so that a few
        // streams load a link without saturating the node's memory first.
        s.dependent_fraction = 1.0;
        s.working_set_bytes = 512 << 20;
        s.cpus_allowed = node_cpus;
        sim.add_task(p, std::move(s));
    }
    return sim;
}

double total_accesses(const Simulation &sim)
{
    double accesses = 0;
    for (const Task &t : sim.tasks())
        accesses += t.stats.accesses;
    return accesses;
}

// Bytes per ns those streams move over the whole run.
double stream_bytes_per_ns(std::shared_ptr<const Topology> topo, int cpu_node, int mem_node, int tasks,
                           double link_bandwidth, double queueing = ModelParams{}.queueing_max_utilisation)
{
    Simulation sim = make_stream_sim(std::move(topo), cpu_node, mem_node, tasks, link_bandwidth, queueing);
    sim.run_to_end();
    return total_accesses(sim) * sim.model().cache_line_bytes / static_cast<double>(sim.end_time());
}

} // namespace

TEST_CASE("remote traffic settles at the interconnect bandwidth, local traffic never crosses it", "[engine]")
{
    // Eight dependent streams on node 0 over node 1's memory ask for about
    // 4 GB/s at remote latency (far below node 1's 10 GB/s).
    // The link's multiplier alone (no queueing below saturation) holds the
    // demand at the bandwidth; with queueing the wait, rising steeply as the
    // link fills, holds it a little below.
    // Each line crosses behind its packet header (ModelParams::
    // link_packet_header_bytes), so the link's bytes are the lines' times
    // `wire`.
    const auto two = synth("pack:2 [numa] core:8 pu:1");
    const double wire = MemoryModel::link_wire_bytes_per_line(ModelParams{}).data;
    const double free_flow = stream_bytes_per_ns(two, 0, 1, 8, 1e4);
    CHECK(free_flow > 2.0);
    const double capped = stream_bytes_per_ns(two, 0, 1, 8, 1.0, 0.0);
    CHECK(capped * wire == Approx(1.0).epsilon(0.1));
    const double queued = stream_bytes_per_ns(two, 0, 1, 8, 1.0);
    CHECK(queued * wire <= 1.0);
    CHECK(queued * wire > 0.8);
    // The same streams on their own node's memory do not notice the link.
    CHECK(stream_bytes_per_ns(two, 1, 1, 8, 1.0) == Approx(stream_bytes_per_ns(two, 1, 1, 8, 1e4)));

    // A SLIT 30 route counts as two links: half the bandwidth of a direct one.
    Topology line = import_synthetic("pack:3 [numa] core:8 pu:1");
    line.set_distances({{10, 20, 30}, {20, 10, 20}, {30, 20, 10}});
    line.finalize();
    const auto three = std::make_shared<const Topology>(std::move(line));
    CHECK(stream_bytes_per_ns(three, 0, 1, 8, 1.0, 0.0) == Approx(1.0).epsilon(0.1));
    CHECK(stream_bytes_per_ns(three, 0, 2, 8, 1.0, 0.0) == Approx(0.5).epsilon(0.1));

    // A saturated link's state survives a checkpoint: the replay is exact.
    Simulation sim = make_stream_sim(two, 0, 1, 8, 1.0);
    sim.run_until(50'000'000);
    auto cp = sim.checkpoint();
    sim.run_until(150'000'000);
    const double later = total_accesses(sim);
    sim.restore(cp);
    sim.run_until(150'000'000);
    CHECK(total_accesses(sim) == later);
}

TEST_CASE("below saturation a memory controller queues: the M/D/1 wait, by hand", "[engine]")
{
    // One pointer chase on node 0 over node 0's memory; no caches, so every
    // access goes to memory, one at a time. At rate r it asks D = r * I *
    // line bytes per ns of a controller of bandwidth B (utilisation u = D /
    // B), and each line waits line / B * u / (2 (1 - u)) ns on top of the
    // latency L, so r = 1 / (1 + I * (L + wait)). Solved here by bisection.
    constexpr double kIntensity = 0.2;
    constexpr double kBandwidth = 1.5;
    auto measured = [](double queueing) {
        SimConfig cfg;
        cfg.duration_ns = 400'000'000;
        cfg.model.os_noise = 0;
        cfg.model.mem_bandwidth_bytes_per_ns = kBandwidth;
        cfg.model.queueing_max_utilisation = queueing;
        Simulation sim(synth("pack:2 [numa] core:1 pu:1"), make_policy("simple", {}, "t"), cfg);
        ProcId p = sim.add_process("m", 256 << 20);
        sim.place_chunks(p, 0, 64, 0);
        Simulation::TaskSpec s;
        s.program.ops = {{Op::Kind::Compute, 10'000'000'000}};
        s.segments = {AccessSegment{0, 64, 1.0}};
        s.mem_intensity = kIntensity;
        s.dependent_fraction = 1.0;
        s.working_set_bytes = 256 << 20;
        s.cpus_allowed.set(0);
        sim.add_task(p, std::move(s));
        sim.run_to_end();
        return total_accesses(sim) * sim.model().cache_line_bytes / static_cast<double>(sim.end_time());
    };
    const ModelParams m;
    const double line = m.cache_line_bytes, lat = m.mem_latency_local_ns;
    const auto demand_at = [&](double d) { // the demand a guess d implies
        const double u = d / kBandwidth;
        const double wait = line / kBandwidth * u / (2 * (1 - u));
        return kIntensity * line / (1.0 + kIntensity * (lat + wait));
    };
    double lo = 0, hi = kBandwidth * 0.9;
    for (int i = 0; i < 100; ++i) {
        const double mid = 0.5 * (lo + hi);
        (demand_at(mid) > mid ? lo : hi) = mid;
    }
    const double expected = lo;
    const double free_flow = kIntensity * line / (1.0 + kIntensity * lat);
    REQUIRE(expected / kBandwidth > 0.4); // loaded enough to queue visibly
    REQUIRE(expected / kBandwidth < 0.9); // and below the cap
    CHECK(measured(0.9) == Approx(expected).epsilon(0.01));
    CHECK(measured(0.0) == Approx(free_flow).epsilon(0.01));
    CHECK(expected < 0.9 * free_flow);
}

TEST_CASE("a loaded link queues remote traffic that stays below its bandwidth", "[engine]")
{
    // Four streams on node 0 over node 1's memory, on a link with room for
    // them: they get through, but slower than on an unloaded link; the same
    // streams on their own node are not slowed by the link.
    const auto two = synth("pack:2 [numa] core:8 pu:1");
    const double unloaded = stream_bytes_per_ns(two, 0, 1, 4, 1e4);
    const double link_bw = unloaded / 0.7; // about 70 % utilised before queueing
    const double loaded = stream_bytes_per_ns(two, 0, 1, 4, link_bw);
    CHECK(loaded < 0.95 * unloaded);
    CHECK(loaded > 0.5 * unloaded);
    CHECK(loaded < link_bw);
    CHECK(stream_bytes_per_ns(two, 1, 1, 4, link_bw) == Approx(stream_bytes_per_ns(two, 1, 1, 4, 1e4)));

    // Mid-run the link's wait is set, the same both ways, and within bounds.
    Simulation sim = make_stream_sim(two, 0, 1, 4, link_bw);
    sim.run_until(100'000'000);
    CHECK(sim.link_queue_wait(0, 1) > 0);
    CHECK(sim.link_queue_wait(1, 0) == sim.link_queue_wait(0, 1));
    CHECK(sim.memory_queue_wait(1) > 0); // node 1's memory serves the streams
    CHECK(sim.memory_queue_wait(0) == 0);
    CHECK(check_invariants(sim).empty());
}
