// The memory model on its own (engine/memory_model.h): rates, warming and
// congestion against figures worked out by hand from ModelParams' defaults.

#include "engine/memory_model.h"
#include "topology/import.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <vector>

using namespace schedscope;

namespace {

std::shared_ptr<const Topology> synth(const std::string &s)
{
    return std::make_shared<const Topology>(import_synthetic(s));
}

// A task with all its memory on node `mem_node` of a `nodes`-node machine;
// a pointer chase unless told otherwise (each access waits the whole
// latency, which keeps the figures below simple).
Task task_on(TaskId id, int nodes, int mem_node, double intensity, double working_set, double dependent = 1.0)
{
    Task t;
    t.id = id;
    t.mem_intensity = intensity;
    t.dependent_fraction = dependent;
    t.working_set_bytes = working_set;
    t.node_weight.assign(static_cast<size_t>(nodes), 0.0);
    t.node_weight[static_cast<size_t>(mem_node)] = 1.0;
    t.used_nodes = {mem_node};
    t.unplaced_weight = 0;
    return t;
}

// A two-node machine, one PU each: PU 0 runs `task` at rate 0.5 with all of
// its time on memory, PU 1 idles. update() is the engine's congestion step
// over them.
struct BusyPu0 {
    explicit BusyPu0(Task task) : tasks{std::move(task)}
    {
        rqs[0].current = 0;
        rqs[0].rate = 0.5;
        rqs[0].mem_frac = 1.0;
    }
    void update(MemoryModel &mm) const { mm.update_congestion(rqs, tasks, pu_node); }

    std::vector<Task> tasks;
    std::vector<Runqueue> rqs = std::vector<Runqueue>(2);
    const std::vector<int> pu_node{0, 1};
};

} // namespace

TEST_CASE("memory model: a cold pointer chase runs at 1 / (1 + I x latency), remote by the SLIT rule", "[memory_model]")
{
    // Two nodes at SLIT 20, no caches in the topology: one default L2 per
    // PU, which holds nothing of the task yet.
    const auto topo = synth("pack:2 [numa] core:1 pu:1");
    const ModelParams m; // local DRAM 80 ns
    MemoryModel mm(topo, m);
    Task t = task_on(0, 2, 0, 0.01, 1 << 20);
    Runqueue rq;
    // Local: 1 / (1 + 0.01 x 80) = 1 / 1.8.
    CHECK(mm.memory_bound_rate(t, rq, 0, 0) == Approx(1.0 / 1.8));
    CHECK(rq.mem_frac == 1.0);
    CHECK(rq.local_share == 1.0);
    // From node 1, no remote latency given: SLIT 20 maps to
    // 1 + (20 / 10 - 1) x 0.5 = 1.5 times local, 120 ns: 1 / (1 + 1.2).
    CHECK(mm.latency_ratio(1, 0) == 1.5);
    CHECK(mm.memory_bound_rate(t, rq, 1, 1) == Approx(1.0 / 2.2));
    CHECK(rq.local_share == 0.0);
    // Half its memory on each node, from node 0: (80 + 120) / 2 = 100 ns.
    // Counted as the engine counts a placement (Task::placement_changes),
    // which a rate kept for the task compares.
    t.node_weight = {0.5, 0.5};
    t.used_nodes = {0, 1};
    ++t.placement_changes;
    CHECK(mm.memory_bound_rate(t, rq, 0, 0) == Approx(1.0 / 2.0));
    CHECK(rq.local_share == 0.5);
}

TEST_CASE("memory model: warming fills a cache at the miss rate, then hits shorten the latency", "[memory_model]")
{
    const auto topo = synth("pack:1 l2:1(size=4MB) core:1 pu:1");
    const ModelParams m; // 64-byte lines, fill at most 5 bytes/ns, L2 4 ns
    MemoryModel mm(topo, m);
    const double ws = 1 << 20;
    Task t = task_on(0, 1, 0, 0.01, ws);
    // 1 ms of work at 0.01 accesses/ns: 10 000 misses, 640 000 bytes
    // brought in (under the 5 000 000 the fill rate allows in 1 ms).
    mm.warm(t, 0, 1e6, 1e6);
    CHECK(mm.warmth_on(0, 0, 2) == Approx(640'000.0));
    // The next ms misses only in what the cache does not hold:
    // 10 000 x (1 - 640 000 / 1 MiB) x 64 bytes.
    const double hit = 640'000.0 / ws;
    mm.warm(t, 0, 1e6, 1e6);
    CHECK(mm.warmth_on(0, 0, 2) == Approx(640'000.0 + 640'000.0 * (1 - hit)));
    // Capped by the fill rate: 1 us of run time brings at most 5 000 bytes.
    Task u = task_on(1, 1, 0, 0.01, ws);
    mm.warm(u, 0, 1e3, 1e7);
    CHECK(mm.warmth_on(1, 0, 2) == Approx(5'000.0));
    // With share h of its working set held, an access waits h x 4 ns in L2
    // and (1 - h) x 80 ns in memory.
    const double h = mm.warmth_on(0, 0, 2) / ws;
    Runqueue rq;
    const double lat = h * m.l2_latency_ns + (1 - h) * m.mem_latency_local_ns;
    CHECK(mm.memory_bound_rate(t, rq, 0, 0) == Approx(1.0 / (1.0 + 0.01 * lat)));
    CHECK(rq.mem_frac == Approx(1 - h));
    // An exited task's shares go.
    mm.forget_task(0);
    CHECK(mm.warmth_on(0, 0, 2) == 0.0);
}

TEST_CASE("memory model: a full cache evicts the other tasks' shares in proportion", "[memory_model]")
{
    // 1 MB of L2 (the synthetic "MB" is 10^6 bytes), two tasks of 0.6 MB.
    const auto topo = synth("pack:1 l2:1(size=1MB) core:1 pu:1");
    MemoryModel mm(topo, ModelParams{});
    const double cap = mm.caches().front().capacity_bytes;
    REQUIRE(cap == 1e6);
    Task a = task_on(0, 1, 0, 1.0, 0.6e6), b = task_on(1, 1, 0, 1.0, 0.6e6);
    mm.warm(a, 0, 1e6, 1e6); // 1e6 misses: fills to its working set, 0.6 MB
    REQUIRE(mm.warmth_on(0, 0, 2) == Approx(0.6e6));
    mm.warm(b, 0, 1e6, 1e6); // b takes 0.6 MB too: 1.2 MB used of 1 MB
    // Eviction goes to 1/32 below capacity: the other share keeps
    // 1 - (1.2 MB - 31/32 MB) / 0.6 MB of itself.
    const double goal = cap * 31.0 / 32.0;
    const double keep = 1.0 - (1.2e6 - goal) / 0.6e6; // 0.6146
    CHECK(mm.warmth_on(1, 0, 2) == Approx(0.6e6));
    CHECK(mm.warmth_on(0, 0, 2) == Approx(0.6e6 * keep));
    CHECK(mm.caches().front().used_bytes == Approx(goal));
}

TEST_CASE("memory model: a shared cache settles its tasks' inflows together, in any order", "[memory_model]")
{
    // One 1 MB L2 above two single-PU cores: shared. Two streaming tasks,
    // working sets far past it; 1 ms of run each brings in the 5 MB the
    // fill rate allows (the misses would bring more).
    const auto topo = synth("pack:1 l2:1(size=1MB) core:2 pu:1");
    const std::vector<Task> tasks{task_on(0, 1, 0, 1.0, 1e9), task_on(1, 1, 0, 1.0, 1e9)};
    const auto run = [&](bool a_first) {
        MemoryModel mm(topo, ModelParams{});
        REQUIRE(mm.caches().front().shared);
        std::vector<Task> ts = tasks;
        if (a_first) {
            mm.warm(ts[0], 0, 1e6, 1e6);
            mm.warm(ts[1], 1, 0.5e6, 0.5e6);
        } else {
            mm.warm(ts[1], 1, 0.5e6, 0.5e6);
            mm.warm(ts[0], 0, 1e6, 1e6);
        }
        // Nothing is in the cache until the settle.
        CHECK(mm.warmth_on(0, 0, 2) == 0.0);
        CHECK(mm.caches().front().used_bytes == 0.0);
        mm.settle_shared_caches(ts);
        return std::pair{mm.warmth_on(0, 0, 2), mm.warmth_on(1, 1, 2)};
    };
    const auto ab = run(true), ba = run(false);
    CHECK(ab == ba);
    // 7.5 MB came in: the first 1 MB fills the empty cache in the ratio
    // of the inflows (5 : 2.5), and the other 6.5 MB replace lines at
    // random, moving each share towards that same ratio: two thirds and one
    // third of the capacity, which they fill together.
    const double cap = 1e6;
    CHECK(ab.first == Approx(cap * 2.0 / 3.0).epsilon(1e-12));
    CHECK(ab.second == Approx(cap / 3.0).epsilon(1e-12));
    CHECK(ab.first + ab.second == Approx(cap));
}

TEST_CASE("memory model: a shared cache at its inflows' point stays as it is", "[memory_model]")
{
    const auto topo = synth("pack:1 l2:1(size=1MB) core:2 pu:1");
    MemoryModel mm(topo, ModelParams{});
    std::vector<Task> ts{task_on(0, 1, 0, 1.0, 1e9), task_on(1, 1, 0, 1.0, 1e9)};
    const auto tick = [&] {
        mm.warm(ts[0], 0, 1e6, 1e6);
        mm.warm(ts[1], 1, 1e6, 1e6);
        mm.settle_shared_caches(ts);
    };
    tick();
    tick();
    // Equal inflows: half each, and a further settle moves neither share
    // by a line, so it leaves them bit for bit and marks nothing changed.
    const double a = mm.warmth_on(0, 0, 2), b = mm.warmth_on(1, 1, 2);
    CHECK(a == Approx(0.5e6));
    CHECK(b == Approx(0.5e6));
    Runqueue rq;
    const double rate = mm.memory_bound_rate(ts[0], rq, 0, 0);
    tick();
    CHECK(mm.warmth_on(0, 0, 2) == a);
    CHECK(mm.warmth_on(1, 1, 2) == b);
    // The rate kept for PU 0 still stands (no cache above it changed).
    CHECK(mm.kept_rate_for(ts[0], 0) != nullptr);
    CHECK(mm.memory_bound_rate(ts[0], rq, 0, 0) == rate);
    // One task stops: the other takes the cache over at the next settle.
    mm.warm(ts[0], 0, 1e6, 1e6);
    mm.settle_shared_caches(ts);
    CHECK(mm.warmth_on(0, 0, 2) > 0.99e6);
    CHECK(mm.kept_rate_for(ts[0], 0) == nullptr);
}

TEST_CASE("memory model: congestion moves by the square root of demand over bandwidth", "[memory_model]")
{
    const auto topo = synth("pack:2 [numa] core:1 pu:1");
    ModelParams m;
    m.mem_bandwidth_bytes_per_ns = 1.0;
    m.queueing_max_utilisation = 0; // the multiplier alone
    MemoryModel mm(topo, m);
    // One task on PU 0 over node 0's memory at rate 0.5, every access a
    // miss: 0.5 x 0.125 x 64 = 4 bytes per ns against 1 byte per ns.
    BusyPu0 run{task_on(0, 2, 0, 0.125, 1 << 20)};
    run.update(mm);
    CHECK(mm.memory_congestion(0) == Approx(2.0)); // sqrt(4 / 1)
    CHECK(mm.memory_congestion(1) == 1.0);
    run.update(mm); // the same demand again: 2 x sqrt(4)
    CHECK(mm.memory_congestion(0) == Approx(4.0));
    // The rate then sees 80 ns x 4.
    Runqueue rq;
    CHECK(mm.memory_bound_rate(run.tasks[0], rq, 0, 0) == Approx(1.0 / (1.0 + 0.125 * 320.0)));
    // Demand under the bandwidth lets it fall back, never below 1.
    run.rqs[0].rate = 0.0625; // 0.5 bytes per ns: x sqrt(0.5) each update
    run.update(mm);
    CHECK(mm.memory_congestion(0) == Approx(4.0 * std::sqrt(0.5)));
    for (int i = 0; i < 10; ++i)
        run.update(mm);
    CHECK(mm.memory_congestion(0) == 1.0);
}

TEST_CASE("memory model: below saturation the controller queues, M/D/1, half way each update", "[memory_model]")
{
    const auto topo = synth("pack:2 [numa] core:1 pu:1");
    ModelParams m;
    m.mem_bandwidth_bytes_per_ns = 10.0;
    m.queueing_max_utilisation = 0.9;
    MemoryModel mm(topo, m);
    // 0.5 x 0.125 x 64 = 4 bytes per ns of 10: u = 0.4, a wait of
    // u / (2 (1 - u)) = 1/3 transfers of 6.4 ns, over 80 ns of latency.
    BusyPu0 run{task_on(0, 2, 0, 0.125, 1 << 20)};
    const double target = 6.4 * (0.4 / (2 * 0.6)) / 80.0;
    run.update(mm);
    CHECK(mm.memory_congestion(0) == 1.0);
    CHECK(mm.memory_queue_wait(0) == Approx(target / 2));
    run.update(mm);
    CHECK(mm.memory_queue_wait(0) == Approx(target * 3 / 4));
    CHECK(mm.memory_queue_wait(1) == 0.0);
    // The rate waits the latency plus the queue, in local latencies.
    Runqueue rq;
    CHECK(mm.memory_bound_rate(run.tasks[0], rq, 0, 0) == Approx(1.0 / (1.0 + 0.125 * 80.0 * (1 + target * 3 / 4))));
}

TEST_CASE("memory model: remote traffic loads the link, a saturated link is a multiplier", "[memory_model]")
{
    const auto topo = synth("pack:2 [numa] core:1 pu:1");
    ModelParams m;
    m.link_bandwidth_bytes_per_ns = 2.0;
    m.queueing_max_utilisation = 0;
    m.link_packet_header_bytes = 0; // bare lines (headers and requests: the case below)
    m.link_message_bytes = 0;
    MemoryModel mm(topo, m);
    // PU 0 over node 1's memory: 8 bytes per ns across one link of 2.
    BusyPu0 run{task_on(0, 2, 1, 0.25, 1 << 20)};
    CHECK(mm.link_hops(0, 1) == 1.0);
    run.update(mm);
    CHECK(mm.link_congestion(0, 1) == Approx(2.0)); // sqrt(8 / 2)
    CHECK(mm.link_congestion(1, 0) == mm.link_congestion(0, 1));
    CHECK(mm.memory_congestion(1) == 1.0); // 8 of node 1's 10 bytes per ns
    // Latency: 80 x 1.5 (SLIT 20 by the rule), plus the link's wait of
    // (2 - 1) local latencies.
    Runqueue rq;
    CHECK(mm.memory_bound_rate(run.tasks[0], rq, 0, 0) == Approx(1.0 / (1.0 + 0.25 * (120.0 + 80.0))));
}

TEST_CASE("memory model: a saturated node's wait adds to every access, local or remote alike", "[memory_model]")
{
    // Little's law: a miss holds its fill buffer for the whole of its
    // latency, and the wait in a saturated controller's queue is the same
    // for every access it serves, so it adds to the remote reader's longer
    // path instead of being scaled by it.
    const auto topo = synth("pack:2 [numa] core:1 pu:1");
    ModelParams m;
    m.mem_bandwidth_bytes_per_ns = 1.0;
    m.queueing_max_utilisation = 0;
    MemoryModel mm(topo, m);
    BusyPu0 run{task_on(0, 2, 0, 0.125, 1 << 20)};
    run.update(mm);
    run.update(mm);
    REQUIRE(mm.memory_congestion(0) == Approx(4.0)); // a wait of 3 local latencies, 240 ns
    CHECK(mm.access_factor(0, 0) == Approx(4.0));
    CHECK(mm.access_factor(1, 0) == Approx(1.5 + 3.0)); // 120 + 240 ns, not 120 x 4
    Runqueue rq;
    CHECK(mm.memory_bound_rate(run.tasks[0], rq, 0, 0) == Approx(1.0 / (1.0 + 0.125 * 320.0)));
    CHECK(mm.memory_bound_rate(run.tasks[0], rq, 1, 1) == Approx(1.0 / (1.0 + 0.125 * 360.0)));
}

TEST_CASE("memory model: a store loop's write-backs load the node and the link's other direction", "[memory_model]")
{
    const auto topo = synth("pack:2 [numa] core:1 pu:1");
    ModelParams m;
    m.mem_bandwidth_bytes_per_ns = 4.0;
    m.link_bandwidth_bytes_per_ns = 10.0;
    m.queueing_max_utilisation = 0;
    m.link_packet_header_bytes = 0; // bare lines (headers and requests: the case below)
    m.link_message_bytes = 0;
    MemoryModel mm(topo, m);
    // Reads only: 0.5 x 0.125 x 64 = 4 bytes per ns, node 0 at its bandwidth.
    BusyPu0 run{task_on(0, 2, 0, 0.125, 1 << 20)};
    run.update(mm);
    CHECK(mm.memory_congestion(0) == 1.0);
    // The same lines written by ordinary stores: each also written back,
    // 8 bytes per ns of a node that delivers 4.
    run.tasks[0].writeback_share = 1.0;
    run.update(mm);
    CHECK(mm.memory_congestion(0) == Approx(std::sqrt(2.0)));

    // Links are per direction. Two readers across one link, each 8 bytes
    // per ns the other way: 8 of 10 in each direction, no congestion
    // (counted together they would be 16).
    ModelParams wide = m;
    wide.mem_bandwidth_bytes_per_ns = 1000.0;
    MemoryModel across(topo, wide);
    std::vector<Task> two{task_on(0, 2, 1, 0.25, 1 << 20), task_on(1, 2, 0, 0.25, 1 << 20)};
    std::vector<Runqueue> both(2);
    for (int cpu = 0; cpu < 2; ++cpu) {
        both[static_cast<size_t>(cpu)].current = cpu;
        both[static_cast<size_t>(cpu)].rate = 0.5;
        both[static_cast<size_t>(cpu)].mem_frac = 1.0;
    }
    across.update_congestion(both, two, run.pu_node);
    CHECK(across.link_congestion(0, 1) == 1.0);
    // The first one stores: its 8 bytes per ns written back join the
    // second one's reads from node 0 to node 1, 16 of 10.
    two[0].writeback_share = 1.0;
    across.update_congestion(both, two, run.pu_node);
    CHECK(across.link_congestion(0, 1) == Approx(std::sqrt(1.6)));
}

TEST_CASE("memory model: a line crosses a link behind its packet header, its request the other way", "[memory_model]")
{
    // Two readers across one link, each 8 bytes of lines per ns from the
    // other's node. With QPI's figures (a 64-byte line is 8 data flits
    // behind a header flit of 8 bytes; the read request one flit the other
    // way) a direction carries 8 x 72 / 64 = 9 bytes per ns of one reader's
    // lines and 8 x 8 / 64 = 1 of the other's requests: 10 of a 5 GB/s link.
    const auto topo = synth("pack:2 [numa] core:1 pu:1");
    ModelParams m;
    m.mem_bandwidth_bytes_per_ns = 1000.0;
    m.link_bandwidth_bytes_per_ns = 5.0;
    m.queueing_max_utilisation = 0;
    m.link_packet_header_bytes = 8;
    m.link_message_bytes = 8;
    const MemoryModel::LinkWire wire = MemoryModel::link_wire_bytes_per_line(m);
    CHECK(wire.data == Approx(72.0 / 64.0));
    CHECK(wire.message == Approx(8.0 / 64.0));
    std::vector<Task> two{task_on(0, 2, 1, 0.25, 1 << 20), task_on(1, 2, 0, 0.25, 1 << 20)};
    std::vector<Runqueue> both(2);
    for (int cpu = 0; cpu < 2; ++cpu) {
        both[static_cast<size_t>(cpu)].current = cpu;
        both[static_cast<size_t>(cpu)].rate = 0.5;
        both[static_cast<size_t>(cpu)].mem_frac = 1.0;
    }
    const std::vector<int> pu_node{0, 1};
    MemoryModel framed(topo, m);
    framed.update_congestion(both, two, pu_node);
    CHECK(framed.link_congestion(0, 1) == Approx(std::sqrt(10.0 / 5.0)));
    // Bare lines: 8 of 5.
    ModelParams bare = m;
    bare.link_packet_header_bytes = 0;
    bare.link_message_bytes = 0;
    MemoryModel lines_only(topo, bare);
    lines_only.update_congestion(both, two, pu_node);
    CHECK(lines_only.link_congestion(0, 1) == Approx(std::sqrt(8.0 / 5.0)));
    // A store loop's write-backs go as data packets towards the memory, and
    // their completions come back: with both readers storing, a direction
    // carries 9 (lines read) + 1 (requests) + 9 (lines written back) + 1
    // (completions) = 20 bytes per ns.
    two[0].writeback_share = 1.0;
    two[1].writeback_share = 1.0;
    MemoryModel stores(topo, m);
    stores.update_congestion(both, two, pu_node);
    CHECK(stores.link_congestion(0, 1) == Approx(std::sqrt(20.0 / 5.0)));
}

TEST_CASE("memory model: a copy carries on exactly as the original", "[memory_model]")
{
    const auto topo = synth("pack:2 [numa] core:1 pu:1");
    ModelParams m;
    m.link_bandwidth_bytes_per_ns = 2.0;
    MemoryModel mm(topo, m);
    BusyPu0 run{task_on(0, 2, 1, 0.25, 1 << 20)};
    run.update(mm);
    MemoryModel copy = mm;
    for (int i = 0; i < 3; ++i) {
        run.update(mm);
        run.update(copy);
    }
    CHECK(copy.link_congestion(0, 1) == mm.link_congestion(0, 1));
    CHECK(copy.link_queue_wait(0, 1) == mm.link_queue_wait(0, 1));
    CHECK(copy.link_queue_wait(0, 1) > 0);
}

// --- memory-level parallelism (a stream keeps mem_misses_in_flight lines
// coming, hardware prefetch included; a pointer chase one) ---

TEST_CASE("memory model: a stream waits latency / in-flight per access, a chase the whole latency",
          "[memory_model][mlp]")
{
    const auto topo = synth("pack:2 [numa] core:1 pu:1");
    const ModelParams m; // 10 in flight, 80 ns
    REQUIRE(m.mem_misses_in_flight == 10.0);
    MemoryModel mm(topo, m);
    Runqueue rq;
    // I = 0.2 per ns, no cache holding it: a stream (f = 0) stalls
    // 0.2 x 80 / 10 = 1.6 ns per work-ns, a chase (f = 1) 16, a mix with
    // f = 0.5 0.2 x 80 x (0.5 + 0.05) = 8.8.
    Task stream = task_on(0, 2, 0, 0.2, 1 << 20, 0.0);
    Task chase = task_on(1, 2, 0, 0.2, 1 << 20, 1.0);
    Task mix = task_on(2, 2, 0, 0.2, 1 << 20, 0.5);
    CHECK(mm.memory_bound_rate(stream, rq, 0, 0) == Approx(1.0 / 2.6));
    CHECK(mm.memory_bound_rate(chase, rq, 0, 0) == Approx(1.0 / 17.0));
    CHECK(mm.memory_bound_rate(mix, rq, 0, 0) == Approx(1.0 / 9.8));
    // Bytes per ns: rate x I x 64 = 4.92 for the stream, 0.753 for the chase.
    CHECK(mm.memory_bound_rate(stream, rq, 0, 0) * 0.2 * 64 == Approx(4.923).epsilon(0.001));
    CHECK(mm.memory_bound_rate(chase, rq, 0, 0) * 0.2 * 64 == Approx(0.7529).epsilon(0.001));
}

TEST_CASE("memory model: prefetch bounds one stream at in-flight x line / latency", "[memory_model][mlp]")
{
    // However little work it does per line, one thread's stream moves at
    // most 10 lines x 64 bytes per 80 ns = 8 bytes per ns (8 GB/s); a
    // chase at most one line per latency, 0.8. At I = 100 lines per ns of
    // work both are within 0.2 % of their bound: 6400 / (1 + 800) and
    // 6400 / (1 + 8000).
    const auto topo = synth("pack:2 [numa] core:1 pu:1");
    MemoryModel mm(topo, ModelParams{});
    Runqueue rq;
    Task stream = task_on(0, 2, 0, 100.0, 1 << 20, 0.0);
    Task chase = task_on(1, 2, 0, 100.0, 1 << 20, 1.0);
    CHECK(mm.memory_bound_rate(stream, rq, 0, 0) * 100.0 * 64 == Approx(6400.0 / 801.0));
    CHECK(mm.memory_bound_rate(stream, rq, 0, 0) * 100.0 * 64 < 8.0);
    CHECK(mm.memory_bound_rate(chase, rq, 0, 0) * 100.0 * 64 == Approx(6400.0 / 8001.0));
    // Fewer lines in flight (an in-order core): 3 lines per 150 ns of
    // 128-byte lines, 2.56 bytes per ns at most.
    ModelParams inorder;
    inorder.mem_misses_in_flight = 3;
    inorder.mem_latency_local_ns = 150;
    inorder.cache_line_bytes = 128;
    MemoryModel it(topo, inorder);
    CHECK(it.memory_bound_rate(stream, rq, 0, 0) * 100.0 * 128 == Approx(12800.0 / (1.0 + 100.0 * 150.0 / 3.0)));
}

TEST_CASE("memory model: streams saturate a node where their demand passes its bandwidth", "[memory_model][mlp]")
{
    // Three streams of 4.92 bytes per ns on one 12 byte-per-ns node ask
    // 14.77: past saturation, the node's multiplier rises by sqrt(14.77 /
    // 12) on the first update; two streams (9.85) leave it at 1.
    const auto topo = synth("pack:2 [numa] core:4 pu:1");
    ModelParams m;
    m.mem_bandwidth_bytes_per_ns = 12.0;
    m.queueing_max_utilisation = 0;
    const std::vector<int> pu_node{0, 0, 0, 0, 1, 1, 1, 1};
    const double one = 0.2 * 64 / 2.6;
    auto congestion_with = [&](int streams) {
        MemoryModel mm(topo, m);
        std::vector<Task> tasks;
        std::vector<Runqueue> rqs(8);
        for (int i = 0; i < streams; ++i) {
            tasks.push_back(task_on(i, 2, 0, 0.2, 1 << 20, 0.0));
            rqs[static_cast<size_t>(i)].current = i;
            rqs[static_cast<size_t>(i)].rate = 1.0 / 2.6;
            rqs[static_cast<size_t>(i)].mem_frac = 1.0;
        }
        mm.update_congestion(rqs, tasks, pu_node);
        return mm.memory_congestion(0);
    };
    CHECK(congestion_with(2) == 1.0);
    CHECK(congestion_with(3) == Approx(std::sqrt(3 * one / 12.0)));
}

TEST_CASE("memory model: a known remote latency replaces the SLIT rule, the clock scales compute", "[memory_model]")
{
    const auto topo = synth("pack:2 [numa] core:1 pu:1");
    ModelParams m;
    m.mem_latency_local_ns = 135; // dell-r910-4node's figures
    m.mem_latency_remote_ns = 195;
    m.cpu_clock_ghz = 1.25; // half the workloads' reference clock: 2 ns per work-ns
    MemoryModel mm(topo, m);
    CHECK(mm.latency_ratio(0, 1) == Approx(195.0 / 135.0));
    CHECK(mm.compute_ns_per_work() == 2.0);
    Runqueue rq;
    Task chase = task_on(0, 2, 1, 0.01, 1 << 20, 1.0);
    CHECK(mm.memory_bound_rate(chase, rq, 0, 0) == Approx(1.0 / (2.0 + 0.01 * 195.0)));
}

TEST_CASE("memory model: a task without memory segments has no per-node shares and prices as all local",
          "[memory_model]")
{
    // A kernel thread: no segments, so no per-node vector at all. From
    // node 1 it must price exactly as a task with an all-zero vector does,
    // with every access local, and must not read past its empty vector.
    const auto topo = synth("pack:2 [numa] core:1 pu:1");
    const ModelParams m;
    MemoryModel mm(topo, m);
    Task bare = task_on(0, 2, 0, 0.01, 1 << 20);
    bare.node_weight.clear();
    bare.used_nodes.clear();
    Task zeros = bare;
    zeros.id = 1;
    zeros.node_weight.assign(2, 0.0);
    CHECK(bare.weight_on(1) == 0.0);
    Runqueue rq_bare, rq_zeros;
    const double rate = mm.memory_bound_rate(bare, rq_bare, 1, 1);
    CHECK(rate == mm.memory_bound_rate(zeros, rq_zeros, 1, 1));
    CHECK(rate == Approx(1.0 / 1.8)); // local DRAM, 80 ns: 1 / (1 + 0.01 x 80)
    CHECK(rq_bare.local_share == 1.0);
}

TEST_CASE("memory model: a rate kept per PU is derived again as soon as what it reads changes", "[memory_model]")
{
    // Each step changes one thing memory_bound_rate reads; the model, which
    // keeps each PU's last rate, must then give what a model that never
    // priced the task before gives after the same history.
    const auto topo = synth("pack:2 [numa] l2:1(size=1MB) core:1 pu:1");
    ModelParams m;
    m.mem_bandwidth_bytes_per_ns = 1.0;
    MemoryModel mm(topo, m);
    std::vector<Task> tasks{task_on(0, 2, 0, 0.125, 0.6e6), task_on(1, 2, 0, 1.0, 0.6e6)};
    std::vector<Runqueue> rqs(2);
    const std::vector<int> pu_node{0, 1};
    std::vector<std::function<void(MemoryModel &)>> history;
    const auto fresh = [&] {
        MemoryModel other(topo, m);
        for (const auto &step : history)
            step(other);
        Runqueue rq;
        return other.memory_bound_rate(tasks[0], rq, 0, 0);
    };
    Runqueue rq;
    const auto rate = [&] { return mm.memory_bound_rate(tasks[0], rq, 0, 0); };
    const auto apply = [&](std::function<void(MemoryModel &)> step) {
        step(mm);
        history.push_back(std::move(step));
    };
    const double cold = rate();
    CHECK(cold == fresh());
    CHECK(rate() == cold); // kept: nothing changed
    CHECK(mm.kept_rate_holds(tasks[0], 0, 0));
    // Its cache warms: faster.
    apply([&](MemoryModel &x) { x.warm(tasks[0], 0, 1e5, 1e5); });
    const double warm = rate();
    CHECK(warm > cold);
    CHECK(warm == fresh());
    // Another task on the same cache evicts part of its share: slower.
    apply([&](MemoryModel &x) { x.warm(tasks[1], 0, 1e6, 1e6); });
    const double evicted = rate();
    CHECK(evicted < warm);
    CHECK(evicted == fresh());
    // Half its memory goes to node 1 (placed by hand, as the engine's
    // first touch and page migration do): spread over two nodes.
    tasks[0].node_weight = {0.5, 0.5};
    tasks[0].used_nodes = {0, 1};
    ++tasks[0].placement_changes;
    CHECK(rate() == fresh());
    // Back on node 0 alone but with half of it untouched yet.
    tasks[0].node_weight = {0.5, 0.0};
    tasks[0].used_nodes = {0};
    tasks[0].unplaced_weight = 0.5;
    ++tasks[0].placement_changes;
    CHECK(rate() == fresh());
    // Node 0's memory saturates: slower again.
    const double before = rate();
    rqs[0].current = 1;
    rqs[0].rate = 1.0;
    rqs[0].mem_frac = 1.0;
    apply([&](MemoryModel &x) { x.update_congestion(rqs, tasks, pu_node); });
    REQUIRE(mm.memory_congestion(0) > 1.0);
    CHECK(rate() < before);
    CHECK(rate() == fresh());
    CHECK(mm.kept_rate_holds(tasks[0], 0, 0));
    // The task exits: its shares go, and the rate is the cold one's again
    // for what the cache no longer holds.
    apply([&](MemoryModel &x) { x.forget_task(0); });
    CHECK(rate() == fresh());
}
