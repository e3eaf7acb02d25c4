// Engine speed on the three loads named in the engine issue. Each benchmark
// reports simulated seconds per wall second, events per second and the
// process's peak resident memory. BM_bare_heap, first and last, is the
// yardstick the storm's events per second are compared with.
//
//   build/bench/engine_bench --benchmark_min_time=1x   (one run of each)

#include "engine/event_queue.h"
#include "scenario/run.h"
#include "scenario/scenario.h"
#include "util/prng.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <vector>

#include <sys/resource.h>

using namespace schedscope;

namespace {

double peak_rss_mib()
{
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<double>(ru.ru_maxrss) / 1024.0; // ru_maxrss is in KiB on Linux
}

Scenario scenario(const std::string &topology, const std::string &workload, const ParamMap &params,
                  const std::string &policy, double duration_s)
{
    Scenario s;
    s.topology = topology;
    s.workload = WorkloadSpec{workload, params};
    s.policies = {PolicySpec{policy, {}}};
    s.duration_s = duration_s;
    s.source = "bench";
    return s;
}

void run(benchmark::State &state, const Scenario &s)
{
    auto topo = scenario_topology(s);
    double simulated = 0, events = 0;
    for (auto _ : state) {
        Simulation sim = build_simulation(s, s.policies.front(), 1, topo);
        sim.run_until(static_cast<SimTime>(s.duration_s * 1e9));
        simulated += static_cast<double>(sim.now()) / 1e9;
        events += static_cast<double>(sim.events_processed());
        benchmark::DoNotOptimize(sim.now());
    }
    state.counters["sim_s_per_s"] = benchmark::Counter(simulated, benchmark::Counter::kIsRate);
    state.counters["events_per_s"] = benchmark::Counter(events, benchmark::Counter::kIsRate);
    state.counters["peak_rss_MiB"] = peak_rss_mib();
}

// (a) 300 simulated seconds of numa01 on the 8-node 64-CPU sample: 300
// passes instead of the benchmark's 50, so the work outlasts the 300 s
// (50 passes end after about 52 s).
void BM_numa01_8node_64(benchmark::State &state)
{
    run(state, scenario("sample:numa-8node-64", "numa01", {{"loops", "300"}}, "sched-domains", 300));
}

// (a) again with `cfs`, Linux 3.6's balancer, the baseline of the 2012
// scenarios: its weighted loads and per-level statistics cost more per
// balancing pass than sched-domains' counts.
void BM_numa01_8node_64_cfs(benchmark::State &state)
{
    run(state, scenario("sample:numa-8node-64", "numa01", {{"loops", "300"}}, "cfs", 300));
}

// (b) the 1024-CPU sample, one CPU-bound thread per PU.
void BM_altix_1024(benchmark::State &state)
{
    run(state, scenario("sample:altix-1024", "spin", {{"work_ms", "100000"}}, "sched-domains", 5));
}

// (c) a wakeup storm: 2048 sembench threads on the 128-CPU sample.
void BM_sembench_2048_on_128(benchmark::State &state)
{
    run(state, scenario("sample:big-128", "sembench", {{"threads", "2048"}}, "sched-domains", 2));
}

// The yardstick for (c): a bare binary-heap event loop, a pop and a push and
// nothing else, measured in the same run so that every round reports the
// engine's events per CPU second as a share of it (the host's speed cancels
// out). The heap holds kBareHeapEvents events of the engine's own Event
// type, ordered by (time, sequence) as the engine orders them; each popped
// event is pushed back a uniform 1-10 000 ns later (the storm's bursts and
// wakeups are microseconds apart). The delays are drawn in advance so the
// loop times the heap, not the generator.
// About the storm's queue: 208 events on average (BENCHMARKS.md, 15th round).
constexpr std::size_t kBareHeapEvents = 256;
constexpr std::int64_t kBareHeapEventsRun = 1'000'000; // events per iteration, about the storm's 1.2 M

void BM_bare_heap(benchmark::State &state)
{
    const auto later = [](const Event &x, const Event &y) {
        return x.time_ns != y.time_ns ? x.time_ns > y.time_ns : x.seq > y.seq;
    };
    Prng rng(1);
    std::vector<std::int64_t> delay(4096);
    for (auto &d : delay)
        d = 1 + static_cast<std::int64_t>(rng.below(10'000));
    double events = 0;
    for (auto _ : state) {
        std::vector<Event> heap;
        heap.reserve(kBareHeapEvents + 1);
        std::uint64_t seq = 0;
        for (std::size_t i = 0; i < kBareHeapEvents; ++i) {
            heap.push_back(Event{delay[i % delay.size()], seq++, EventType::BurstEnd, static_cast<std::int32_t>(i), 0});
            std::push_heap(heap.begin(), heap.end(), later);
        }
        std::int64_t now = 0;
        for (std::int64_t n = 0; n < kBareHeapEventsRun; ++n) {
            std::pop_heap(heap.begin(), heap.end(), later);
            Event e = heap.back();
            heap.pop_back();
            now = e.time_ns;
            e.time_ns = now + delay[static_cast<std::size_t>(n) & (delay.size() - 1)];
            e.seq = seq++;
            heap.push_back(e);
            std::push_heap(heap.begin(), heap.end(), later);
        }
        events += static_cast<double>(kBareHeapEventsRun);
        benchmark::DoNotOptimize(now);
    }
    state.counters["sim_s_per_s"] = benchmark::Counter(0, benchmark::Counter::kIsRate);
    state.counters["events_per_s"] = benchmark::Counter(events, benchmark::Counter::kIsRate);
    state.counters["peak_rss_MiB"] = peak_rss_mib();
}

} // namespace

BENCHMARK(BM_bare_heap)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(BM_numa01_8node_64)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(BM_numa01_8node_64_cfs)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(BM_altix_1024)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(BM_sembench_2048_on_128)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(BM_bare_heap)->Unit(benchmark::kSecond)->Iterations(1);

BENCHMARK_MAIN();
