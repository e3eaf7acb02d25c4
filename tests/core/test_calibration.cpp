// Calibration: the published directions (docs/background.md), run
// from the scenario files in samples/scenarios/ over several seeds. They
// assert directions with margins, never the published numbers; nothing in
// the model knows which workload, machine or policy it is running.
// docs/CALIBRATION.md has our tables next to the published ones.

#include "engine/simulation.h"
#include "scenario/published.h"
#include "scenario/run.h"
#include "scenario/scenario.h"
#include "sweep/scenario_sweep.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <map>
#include <numeric>
#include <set>

using namespace schedscope;

namespace {

Scenario sample_scenario(const std::string &file)
{
    return load_scenario(std::string(SCHEDSCOPE_SOURCE_SAMPLES_DIR) + "/scenarios/" + file);
}

constexpr int kSeeds = 3; // seeds 1..3; every direction must hold on each

struct Outcome {
    double elapsed_s = 0, sys_s = 0, user_s = 0;
    std::int64_t page_migrations_total = 0;
    std::int64_t page_migrations_second_half = 0;
    double final_local_pct = 0;         // mean over processes, last quarter of the run
    double steady_local_pct = 0;        // the same over the last quarter of the last stretch with no idle PUs
    std::vector<double> max_node_share; // per process: largest share of its memory on one node
};

Outcome run_numa(const Scenario &s, const PolicySpec &p, std::uint64_t seed)
{
    Simulation sim = build_simulation(s, p, seed, scenario_topology(s));
    sim.run_to_end();
    REQUIRE(sim.finished());
    Outcome o;
    o.elapsed_s = static_cast<double>(sim.end_time()) / 1e9;
    double sys = 0, user = 0;
    for (const auto &rq : sim.runqueues()) {
        sys += static_cast<double>(rq.sys_ns);
        user += static_cast<double>(rq.user_ns);
    }
    o.sys_s = sys / 1e9;
    o.user_s = user / 1e9;
    const auto &samples = sim.recording().samples;
    REQUIRE(samples.size() >= 8);
    o.page_migrations_total = samples.back().page_migrations;
    o.page_migrations_second_half = samples.back().page_migrations - samples[samples.size() / 2].page_migrations;
    // Mean local share over the processes and the windows [begin, end).
    const auto mean_local = [&](std::size_t begin, std::size_t end) {
        double local = 0;
        int n = 0;
        for (std::size_t k = begin; k < end; ++k)
            for (float f : samples[k].proc_local_pct)
                if (f >= 0) {
                    local += f;
                    ++n;
                }
        return n > 0 ? local / n : 0.0;
    };
    o.final_local_pct = mean_local(samples.size() * 3 / 4, samples.size() - 1);
    // The run while every thread still runs: from the first window in which
    // at most 1 % of PU time was idle (the start, main()'s own writes and
    // the threads' creation, has idle PUs) to the next one in which more
    // was (threads finishing unevenly, and the balancer spreading the
    // others over the PUs they leave).
    const auto idle_share = [&](std::size_t k) {
        const double idle = samples[k].idle_ns - samples[k - 1].idle_ns;
        const double all = idle + samples[k].user_ns - samples[k - 1].user_ns + samples[k].sys_ns -
                           samples[k - 1].sys_ns;
        return all > 0 ? idle / all : 1.0;
    };
    // The last such stretch: the start may have more than one (a PU left
    // idle for a moment while the first write's faults hold some threads
    // back, numa01_THREAD_ALLOC seed 1: busy at 0.2-0.3 s, one PU idle from
    // 0.4 to 1.1 s, busy again until 58 s).
    std::size_t busy_end = samples.size();
    while (busy_end > 1 && idle_share(busy_end - 1) > 0.01)
        --busy_end;
    std::size_t busy_begin = busy_end;
    while (busy_begin > 1 && idle_share(busy_begin - 1) <= 0.01)
        --busy_begin;
    o.steady_local_pct = mean_local(busy_begin + (busy_end - busy_begin) * 3 / 4, busy_end);
    for (const auto &proc : sim.processes()) {
        if (proc.kernel)
            continue; // the OS's threads hold no memory
        const int total = std::accumulate(proc.chunks_on_node.begin(), proc.chunks_on_node.end(), 0);
        const int most = *std::max_element(proc.chunks_on_node.begin(), proc.chunks_on_node.end());
        o.max_node_share.push_back(total > 0 ? static_cast<double>(most) / total : 0);
    }
    return o;
}

// The 2012 baseline: Linux 3.6's own scheduler (the autonuma-benchmark runs
// compared 3.6 with and without the NUMA patches).
const PolicySpec kBaseline{"cfs", {}};

// AutoNUMA as the scenario file gives it: where the workload's memory is
// scaled down, the file scales knuma_scand's pass pause with it (the scenario
// descriptions say by how much and why).
PolicySpec autonuma_of(const Scenario &s)
{
    for (const PolicySpec &p : s.policies)
        if (p.name == "autonuma")
            return p;
    return PolicySpec{"autonuma", {}};
}

// The benchmark's _HARD_BIND / _INVERSE_BIND builds bind themselves (CPUs and
// memory policy) and then run under the kernel's balancer; the workloads'
// `bind` parameter does the same. (The `bind` policy now gives the same
// times; see docs/CALIBRATION.md.)
Outcome run_bound(Scenario s, const std::string &mode, std::uint64_t seed)
{
    s.workload.params["bind"] = mode;
    return run_numa(s, kBaseline, seed);
}

// The four runs the autonuma-benchmark compares: the balancer without NUMA
// affinity, AutoNUMA, and the benchmark's own hard and inverse binding.
struct Bracket {
    Outcome base, autonuma, hard, inverse;
};

Bracket run_bracket(const Scenario &s, std::uint64_t seed)
{
    return {run_numa(s, kBaseline, seed), run_numa(s, autonuma_of(s), seed), run_bound(s, "hard", seed),
            run_bound(s, "inverse", seed)};
}

} // namespace

TEST_CASE("cache_hot_time on OLTP: throughput rises from 2.5 ms and idle grows (the fall is not earned)",
          "[calibration]")
{
    // docs/background.md section 6 item 1: 2.5 ms = 100, peak ~112 near 10 ms, ~105 at 250-1000 ms,
    // idle 0 % -> ~7 %. With the balancer's 2.6.9 rules (can_migrate_task's
    // comparison, task_hot on last_ran, the idle CPU's one task, the
    // migration thread's push, try_to_wake_up's wake-balance) and its loads
    // (rebalance_tick's decayed cpu_load, source_load/target_load and
    // find_busiest_group's arithmetic), exec-only placement and the O(1)
    // runqueues (timeslices, active/expired arrays) the model
    // rises all the way to 1000 ms: the fall is not earned, and the test
    // asserts what is (docs/CALIBRATION.md section 1 names the missing
    // mechanisms).
    Scenario s = sample_scenario("cache-hot-time-oltp.json");
    s.duration_s = 20;
    const std::vector<std::string> values = {"2.5", "5", "10", "25", "1000"};
    const SweepResult r = sweep_scenario(s, PolicySpec{"sched-domains", {}}, "cache_hot_time_ms", values, kSeeds, 2);
    REQUIRE(r.points.size() == values.size());
    std::map<std::string, const SweepPoint *> at;
    for (const auto &pt : r.points)
        at[pt.value] = &pt;
    for (int k = 0; k < kSeeds; ++k) {
        INFO("seed " << (s.seed + k));
        const double base = at["2.5"]->runs[k].throughput;
        double peak = 0;
        for (const char *v : {"5", "10", "25"})
            peak = std::max(peak, at[v]->runs[k].throughput);
        CHECK(peak > 1.04 * base);
        CHECK(at["1000"]->runs[k].throughput > 1.04 * base);
        CHECK(at["1000"]->runs[k].idle_pct > at["2.5"]->runs[k].idle_pct + 1.0);
    }
    // On the mean: the rise is several per cent, and 1000 ms stays above the
    // 2.5 ms start (published: 105.4).
    double peak_rel = 0;
    for (const char *v : {"5", "10", "25"})
        peak_rel = std::max(peak_rel, at[v]->relative);
    CHECK(peak_rel > 105.0);
    CHECK(at["1000"]->relative > 100.0);
}

TEST_CASE("autonuma-benchmark on 4 nodes: what the model earns where memory bandwidth binds", "[calibration]")
{
    // The scenarios run on dell-r810-4node, the box the published table ran
    // on: 6 GB/s of memory per node, 9.6 GB/s links, 10 lines in flight, 12
    // PUs a node. A few streaming threads saturate a node, so every
    // workload here is bound by the bandwidth of the nodes holding its
    // memory (docs/CALIBRATION.md, section 2 and the ninth round).
    for (const char *file : {"autonuma-4node-numa02.json", "autonuma-4node-numa01-thread-alloc.json",
                             "autonuma-4node-numa01.json", "autonuma-4node-numa02-smt.json"}) {
        const Scenario s = sample_scenario(file);
        for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
            INFO(file << " seed " << seed);
            const auto [base, autonuma, hard, inverse] = run_bracket(s, seed);
            const std::string f = file;
            const bool numa01 = f.find("numa01") != std::string::npos;
            if (numa01) {
                // The baseline leaves every page where the first write put
                // it, on node 0 (the 2012 build): one node's bandwidth for
                // 48 threads. AutoNUMA spreads the memory over the four nodes. Published,
                // it nearly halves the time (1519.5 -> 757.4 s on numa01,
                // 1269.5 -> 398.6 s on THREAD_ALLOC). With memory-level
                // parallelism alone the model took 36-49 % off; with
                // AutoNUMA's per-page costs on top (every migrated page a TLB
                // shootdown to the process's other CPUs) it takes 22-34 %
                // off numa01 (seed 2: 0.78). AutoNUMA27's scanner (one pass,
                // then a pause scaled with the memory) and its exchanges
                // bring it back under 0.7, the bound asserted before.
                CHECK(autonuma.elapsed_s < 0.7 * base.elapsed_s);
                // Inverse binding under the repository's 2012 numa01.c puts
                // both processes' memory on the second half: the first
                // process's on node 2 (written from outside its mask), the
                // second's over nodes 2 and 3. Two nodes serve it where the
                // baseline's one does, so it beats the baseline (it tied it
                // while the scenarios used the 2021 build's first write over
                // two nodes). The published claim, inverse binding the
                // slowest, stays asserted in the known-failure case below.
                CHECK(inverse.elapsed_s < base.elapsed_s);
            } else {
                // The plain numa02 and numa02_SMT start with all of their
                // memory on one node (main() writes it before the threads
                // start, its bind() calls empty): the baseline's 48 or 24
                // threads share one node's bandwidth. AutoNUMA moves each
                // slice to its thread's node and uses all four. Published:
                // 181.1 -> 57.1 s and 164.2 -> 53.2 s (0.32); the model
                // earns about 0.26.
                CHECK(autonuma.elapsed_s < 0.4 * base.elapsed_s);
                // (Inverse binding against the baseline: the case below,
                // "inverse binding is the slowest placement".)
            }
            // Its system time per second of run is above the baseline's
            // (whose system time is now the OS noise alone).
            CHECK(autonuma.sys_s / autonuma.elapsed_s > base.sys_s / base.elapsed_s);
            // Hard binding beats the baseline: on numa01 both of the
            // baseline's memory nodes saturate, on numa02 its one node.
            CHECK(hard.elapsed_s < (numa01 ? 0.7 : 0.4) * base.elapsed_s);
            // Hard binding is the lower bound, THREAD_ALLOC included.
            CHECK(hard.elapsed_s <= autonuma.elapsed_s * 1.001);
            // Inverse binding loses to hard binding and to AutoNUMA by more
            // than 10 % on the numa01s. On the numa02s it ties hard binding
            // since the memory model counts write-allocate and the links per
            // direction (the nodes, not the 12.8 GB/s links, bound the run):
            // the published claim stays asserted for all four in the
            // known-failure case below, "inverse binding is the slowest
            // placement".
            if (numa01) {
                CHECK(inverse.elapsed_s > 1.1 * hard.elapsed_s);
                CHECK(inverse.elapsed_s > 1.1 * autonuma.elapsed_s);
            }
        }
    }
}

TEST_CASE("autonuma-benchmark on 4 nodes: inverse binding is the slowest placement", "[calibration][!shouldfail]")
{
    // Put back: every published autonuma-benchmark table (2 nodes, 8 nodes)
    // has the _INVERSE_BIND build as its slowest row. On 4 nodes the model
    // had been asserting the opposite for numa02 and numa02_SMT (inverse
    // binding under half the baseline): once a node's bandwidth saturates,
    // locality costs nothing in the model, so four remote nodes beat one
    // local one. Known failure until remote latency and a saturated remote
    // node cost what they do (docs/CALIBRATION.md, "Known failures").
    for (const char *file : {"autonuma-4node-numa02.json", "autonuma-4node-numa01-thread-alloc.json",
                             "autonuma-4node-numa01.json", "autonuma-4node-numa02-smt.json"}) {
        const Scenario s = sample_scenario(file);
        for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
            INFO(file << " seed " << seed);
            const auto [base, autonuma, hard, inverse] = run_bracket(s, seed);
            INFO("baseline " << base.elapsed_s << " s, AutoNUMA " << autonuma.elapsed_s << " s, hard " << hard.elapsed_s
                             << " s, inverse " << inverse.elapsed_s << " s");
            CHECK(inverse.elapsed_s > base.elapsed_s);
            CHECK(inverse.elapsed_s > autonuma.elapsed_s);
            CHECK(inverse.elapsed_s > hard.elapsed_s);
        }
    }
}

namespace {
// A 4-node autonuma scenario moved to the 2-node box of the March 2012
// table, built as published: numa01 with NO_BIND_FORCE_SAME_NODE (all of the
// first write on one node), THREAD_ALLOC without it.
Scenario two_node_scenario(const std::string &file)
{
    Scenario s = sample_scenario(file);
    s.topology = "sample:xeon-2node-24";
    if (file == "autonuma-4node-numa01.json")
        s.workload.params["first_write"] = "node";
    if (file == "autonuma-4node-numa01-thread-alloc.json")
        s.workload.params["first_write"] = "threads";
    return s;
}
} // namespace

TEST_CASE("autonuma-benchmark on 2 nodes: the published order, hard < AutoNUMA < baseline < inverse", "[calibration]")
{
    // The published table (2 nodes, 24-way, March 2012): numa01 305 / 207 /
    // 196 / 378 s (upstream / AutoNUMA / hard / inverse), THREAD_ALLOC 491 /
    // 328 / 321 / 623, numa02 64 / 45 / 42 / 81.
    for (const char *file :
         {"autonuma-4node-numa01.json", "autonuma-4node-numa01-thread-alloc.json", "autonuma-4node-numa02.json"}) {
        const Scenario s = two_node_scenario(file);
        const std::string f = file;
        for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
            INFO(file << " on xeon-2node-24, seed " << seed);
            const auto [base, autonuma, hard, inverse] = run_bracket(s, seed);
            // Published: AutoNUMA and hard binding about a third below the
            // baseline, hard binding a little ahead, inverse a quarter above.
            // What the model earns at full size; THREAD_ALLOC's cut and
            // inverse binding above the baseline are the known failure below.
            if (f != "autonuma-4node-numa01-thread-alloc.json")
                CHECK(autonuma.elapsed_s < 0.8 * base.elapsed_s);
            CHECK(hard.elapsed_s <= autonuma.elapsed_s * 1.001);
        }
    }
}

TEST_CASE("autonuma-benchmark on 2 nodes: THREAD_ALLOC's cut and inverse binding above the baseline",
          "[calibration][!shouldfail]")
{
    // Known failure since write-allocate and per-direction links came in
    // (docs/CALIBRATION.md, "Known failures" and "Scheduler side of the
    // misses"): THREAD_ALLOC's baseline runs at 50 % local whatever the
    // balancer does (each thread's slice was first written from both nodes),
    // yet as fast as hard binding: in the model a remote stream costs only
    // once the link saturates, and half of a node's 20 GB/s crossing the
    // 12.8 GB/s link does not, so AutoNUMA has nothing to cut; and a
    // saturated remote node serves inverse binding as fast as the
    // baseline's crowded local one.
    for (const char *file :
         {"autonuma-4node-numa01.json", "autonuma-4node-numa01-thread-alloc.json", "autonuma-4node-numa02.json"}) {
        const Scenario s = two_node_scenario(file);
        for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
            INFO(file << " on xeon-2node-24, seed " << seed);
            const auto [base, autonuma, hard, inverse] = run_bracket(s, seed);
            CHECK(autonuma.elapsed_s < 0.8 * base.elapsed_s);
            CHECK(inverse.elapsed_s > 1.1 * base.elapsed_s);
        }
    }
}

TEST_CASE("AutoNUMA's system time on 4-node numa02: above the baseline's, 0.3-5 % when every page faults",
          "[calibration]")
{
    // Published (Mel Gorman, 3.6.0 against autonuma-v33, autumn 2012):
    // 23.9 s system against 2150 s user, about 1.1 %. The model charges
    // knuma_scand's walk of every pte, the hinting faults (one trap per page,
    // per 2 MiB pmd or per huge page), one TLB-shootdown IPI per migrated
    // page to every other CPU running the process, and copies at memory
    // speed (engine/policy_actions.h); nothing is fitted to this run. The
    // memory starts on main()'s node, so the slices of the threads running
    // elsewhere migrate once: with the defaults (pmd on, THP always) about
    // 1.4 % of CPU time; with every page trapping (pmd off, no THP) it is
    // held to the published band as well.
    const Scenario s = sample_scenario("autonuma-4node-numa02.json");
    const PolicySpec per_page{"autonuma", {{"pmd", "off"}, {"transparent_hugepage", "never"}}};
    auto share = [](const Outcome &o) { return o.sys_s / (o.sys_s + o.user_s); };
    for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
        INFO("seed " << seed);
        const Outcome base = run_numa(s, kBaseline, seed);
        const Outcome autonuma = run_numa(s, autonuma_of(s), seed);
        const Outcome pages = run_numa(s, per_page, seed);
        INFO("system share: baseline " << share(base) << ", autonuma " << share(autonuma) << ", every page faulting "
                                       << share(pages));
        // The baseline's system time is the OS noise (tick, interrupts,
        // kernel threads: 0.15 % of CPU time). AutoNUMA27 migrates a page
        // on its first hinting fault, each with a TLB shootdown, so with
        // the defaults too it adds the published order: 0.3-5 % of CPU time.
        CHECK(share(autonuma) - share(base) > 0.003);
        CHECK(share(autonuma) < 0.05);
        CHECK(share(pages) > 0.003);
        CHECK(share(pages) < 0.05);
    }
}

TEST_CASE("AutoNUMA stops migrating pages once numa02 and numa01_THREAD_ALLOC have converged", "[calibration]")
{
    for (const char *file : {"autonuma-4node-numa02.json", "autonuma-4node-numa01-thread-alloc.json"}) {
        const Scenario s = sample_scenario(file);
        for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
            INFO(file << " seed " << seed);
            const Outcome o = run_numa(s, autonuma_of(s), seed);
            // Converged: over the last quarter of the run while every thread
            // still runs. The run's own last quarter also holds its tail on
            // a machine with a thread on every PU (the R810's 48): threads
            // end unevenly and the balancer spreads the rest over the PUs
            // they leave, on other nodes (numa02, seed 3: 100 % local until
            // 60 s, 52 % in the last window at 66.5 s).
            INFO("last quarter " << o.final_local_pct << " % local, before the tail " << o.steady_local_pct << " %");
            CHECK(o.steady_local_pct > 95.0);
            // Fewer than 2 % of the migrations happen in the second half.
            CHECK(o.page_migrations_second_half * 50 <= std::max<std::int64_t>(o.page_migrations_total, 1));
        }
    }
}

TEST_CASE("numa01 converges under AutoNUMA on 2 nodes but not on 8", "[calibration]")
{
    const Scenario two = sample_scenario("autonuma-2node-numa01.json");
    const Scenario eight = sample_scenario("autonuma-8node-numa01.json");
    for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
        INFO("seed " << seed);
        const Outcome o2 = run_numa(two, autonuma_of(two), seed);
        CHECK(o2.final_local_pct > 90.0);
        for (double share : o2.max_node_share)
            CHECK(share > 0.9);
        // Published: numa01 converges fully on 2 nodes and the migrations
        // stop: at most 2 % of them in the second half.
        CHECK(o2.page_migrations_second_half * 50 <= std::max<std::int64_t>(o2.page_migrations_total, 1));
        // On 8 nodes each process's 32 threads need four nodes of CPUs, so
        // at most about a quarter of its accesses can be local whatever the
        // policy does (the geometry's bound, not a result: asserting "below
        // 60 %" could not fail). What AutoNUMA earns: more locality than
        // the baseline, up to that bound and not past it, without the
        // convergence of the 2-node run, and pages still moving at the end.
        const Outcome b8 = run_numa(eight, kBaseline, seed);
        const Outcome o8 = run_numa(eight, autonuma_of(eight), seed);
        INFO("8 nodes: baseline " << b8.final_local_pct << " % local, AutoNUMA " << o8.final_local_pct << " %");
        CHECK(o8.final_local_pct > b8.final_local_pct + 3.0);
        CHECK(o8.final_local_pct < 30.0);
        // Not converged by the 2-node half's measure (90 % of a process's
        // memory on one node); the model ends with 51-59 % on one node.
        for (double share : o8.max_node_share)
            CHECK(share < 0.9);
        CHECK(o8.page_migrations_second_half > 0);
    }
}

TEST_CASE("sembench -t 2048 -w 1900 on 128 CPUs: queued wakeups beat locked ones", "[calibration]")
{
    // Published: 395,896 -> 481,016 worker burns/s (+21.5 %) with queued
    // remote wakeups, at this setting, as sembench.c runs it (pinned
    // workers, a waker that never waits). A fifth of the sample's second:
    // +46 % (+47 % over 2 s), larger than published: docs/CALIBRATION.md
    // names the line costs that decide the margin. The upper bound was 1.5
    // while the waker paid nothing for the waiters' wait entries (+69 % over
    // 2 s then), and 1.35 while a post woke its whole batch at one instant,
    // an artifact of the engine whose lock bookings then landed ahead of
    // the wakeups (+12 % then). It is 1.5 again: the one it had before the
    // artifact's fit, not a bound moved out to fit today's model (1.46).
    Scenario s = sample_scenario("sembench-big-128.json");
    REQUIRE(s.policies.size() == 2);
    REQUIRE(s.policies[0].params.at("wakeup") == "locked");
    REQUIRE(s.policies[1].params.at("wakeup") == "queued");
    s.duration_s = 0.2;
    const auto topo = scenario_topology(s);
    for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
        const RunResult locked = run_policy(s, s.policies[0], seed, topo);
        const RunResult queued = run_policy(s, s.policies[1], seed, topo);
        INFO("seed " << seed << ": locked " << locked.throughput << ", queued " << queued.throughput);
        CHECK(queued.throughput > 1.1 * locked.throughput);
        CHECK(queued.throughput < 1.5 * locked.throughput);
    }
}

// ---------------------------------------------------------------------------
// The published experiments of samples/published/, one group of cases each:
// every published claim of the file (its "direction") on each of seeds 1-3,
// and its magnitude score (rows within ±30 % of the published figure, or
// inside the published range) on the mean over the three. A case runs only
// the rows its claims name. Where the model does not earn a claim the case
// is marked [!shouldfail] and docs/CALIBRATION.md lists it as a known
// failure with the mechanism it lacks; when a change to the model earns it,
// Catch2 reports the case as failing and the mark comes off.

namespace {

const std::string kPublishedDir = std::string(SCHEDSCOPE_SOURCE_SAMPLES_DIR) + "/published";

// How big a case runs an experiment: full size (the published passes,
// memory and durations) where that fits the CI budget, else the file's
// documented --quick block (its numbers are not the published sizes, so a
// quick case asserts the direction only).
enum class Size { Full, Quick, Nightly };

// Size::Nightly is the size switch (docs/reliability.md, "CI time"): full
// size when SCHEDSCOPE_CALIBRATION is unset or "full" (plain ctest, ctest
// --preset nightly), the file's --quick block (seeds raised to three) when
// it is "quick", as scripts/test.sh runs the suite. A case is Nightly only
// where the quick run gives the verdict of the full one (measured: passing,
// or failing as a known failure); at quick size a magnitude verdict says
// little (the rows are not the published sizes), the nightly form is the
// one that judges the model.
bool quick_in_this_run(Size size)
{
    if (size != Size::Nightly)
        return size == Size::Quick;
    const char *env = std::getenv("SCHEDSCOPE_CALIBRATION");
    const std::string given = env ? env : "full";
    REQUIRE((given == "full" || given == "quick"));
    return given == "quick";
}

PublishedExperiment published_experiment(const std::string &name)
{
    PublishedExperiment e = load_published(kPublishedDir + "/" + name + ".json");
    e.seeds = kSeeds;
    e.quick_seeds = kSeeds;
    return e;
}

// The experiment with only the claims `keep` selects and the rows they name
// (and the rows those are relative to).
PublishedExperiment with_claims(PublishedExperiment e, const std::function<bool(const PublishedClaim &)> &keep)
{
    std::vector<PublishedClaim> claims;
    std::set<std::string> labels;
    for (const auto &c : e.claims)
        if (keep(c)) {
            claims.push_back(c);
            labels.insert(c.rows.begin(), c.rows.end());
            labels.insert(c.than.begin(), c.than.end());
        }
    REQUIRE_FALSE(claims.empty());
    for (const auto &row : e.rows)
        if (labels.count(row.label) && !row.relative_to.empty())
            labels.insert(row.relative_to);
    std::vector<PublishedRow> rows;
    for (const auto &row : e.rows)
        if (labels.count(row.label))
            rows.push_back(row);
    e.rows = rows;
    e.claims = claims;
    return e;
}

// Runs within one process are shared: a case whose sections need the same
// rows of the same experiment runs them once.
const PublishedResult &run_cached(const PublishedExperiment &e, bool quick)
{
    static std::map<std::string, PublishedResult> cache;
    std::string key = e.name + (quick ? "|quick" : "|full");
    for (const auto &row : e.rows)
        key += "|" + row.label;
    auto it = cache.find(key);
    if (it == cache.end())
        it = cache.emplace(key, run_published({e}, quick, 1).at(0)).first;
    return it->second;
}

bool names_row(const PublishedClaim &c, const std::string &part)
{
    for (const auto &l : c.rows)
        if (l.find(part) != std::string::npos)
            return true;
    return false;
}

// Which rows a case runs: those its claims name (and what they are relative
// to), or the whole table. Sections of one TEST_CASE run in one process, so
// sections that all run the whole table share one run of it (run_cached):
// ctest starts every TEST_CASE as a process of its own, and two cases at
// full size would run the same table twice (docs/reliability.md, "CI time").
enum class Rows { Claimed, Whole };

// Each selected claim on each seed's figures.
void check_direction(const std::string &name, Size size, const std::function<bool(const PublishedClaim &)> &keep,
                     Rows run = Rows::Claimed)
{
    const PublishedExperiment whole = published_experiment(name);
    const PublishedExperiment e = with_claims(whole, keep);
    const PublishedResult &r = run_cached(run == Rows::Whole ? whole : e, quick_in_this_run(size));
    const bool profile = e.kind == PublishedKind::Profile; // deterministic: one "seed", ours
    for (int k = 0; k < (profile ? 1 : kSeeds); ++k) {
        std::map<std::string, double> values;
        for (const auto &row : r.rows) {
            REQUIRE((profile || row.per_seed.size() == static_cast<size_t>(kSeeds)));
            values[row.label] = profile ? row.ours : row.per_seed[static_cast<size_t>(k)];
        }
        for (const auto &c : e.claims) {
            std::string figures;
            for (const auto &[label, v] : values)
                figures += "\n  " + label + ": " + std::to_string(v);
            INFO(name << ", seed " << (k + 1) << ": " << describe_claim(c) << figures);
            CHECK(claim_holds(c, values));
        }
    }
}

// At least two thirds of the compared rows within ±30 % (or inside the
// published range), on the mean over seeds 1-3, at full size: the issue's
// bar for the whole table, asked of each experiment.
void check_magnitude(const std::string &name, Size size = Size::Full)
{
    const PublishedResult &r = run_cached(published_experiment(name), quick_in_this_run(size));
    std::string rows;
    for (const auto &row : r.rows)
        if (row.compared)
            rows += "\n  " + row.label + ": ours " + format_published_value(row.ours) + ", published " +
                    format_published_value(row.published) + (row.within ? "" : "  (not within)");
    INFO(name << ": " << r.within_30pct << " of " << r.compared << " rows within" << rows);
    REQUIRE(r.compared > 0);
    CHECK(3 * r.within_30pct >= 2 * r.compared);
}

auto all_claims = [](const PublishedClaim &) { return true; };

// Claims whose `row` names a row containing `part` (and, if given, whose
// comparison is of that kind).
std::function<bool(const PublishedClaim &)> claims_of(const std::string &part)
{
    return [part](const PublishedClaim &c) { return names_row(c, part); };
}

std::function<bool(const PublishedClaim &)> claims_of(const std::string &part, PublishedClaim::Kind kind)
{
    return [part, kind](const PublishedClaim &c) { return c.kind == kind && names_row(c, part); };
}

} // namespace

// --- autonuma-2node (full size: 3 GiB numa01, the benchmark's loops) ---

// At full size in CI too, as sections of one case so that the whole table
// runs once.
TEST_CASE("published table autonuma-2node: AutoNUMA below upstream on all three, and two thirds of the rows within "
          "±30 %",
          "[calibration][published]")
{
    SECTION("AutoNUMA below upstream on all three")
    {
        // Since a line pays its link header and request, the full run
        // holds (THREAD_ALLOC's baseline pays for its remote half), while
        // the quick block's three 64 MB loops end before AutoNUMA has
        // moved a page.
        check_direction("autonuma-2node", Size::Full, claims_of("AutoNUMA"), Rows::Whole);
    }
    SECTION("two thirds of the rows within ±30 %") { check_magnitude("autonuma-2node"); }
}

TEST_CASE("published table autonuma-2node: hard binding below AutoNUMA", "[calibration][published]")
{
    check_direction("autonuma-2node", Size::Nightly, claims_of("hard bind"));
}

TEST_CASE("published table autonuma-2node: inverse binding above upstream", "[calibration][published]")
{
    check_direction("autonuma-2node", Size::Nightly, claims_of("inverse bind"));
}

// --- autonuma-4node (full size) ---

// Both claims at full size (their quick runs give another verdict), as
// sections of one case so that the table runs once in CI.
TEST_CASE("published table autonuma-4node: AutoNUMA cuts the elapsed time of all four, at more system time",
          "[calibration][published]")
{
    SECTION("AutoNUMA cuts the elapsed time of all four")
    {
        // The quick size fails it: knuma_scand's pass and pause do not fit
        // in three loops.
        check_direction("autonuma-4node", Size::Full, claims_of("elapsed"), Rows::Whole);
    }
    SECTION("AutoNUMA costs more system time")
    {
        // A known failure from the tenth round to the eleventh: both
        // kernels pay numa01's first write's faults (about 45-56 s,
        // varying by seed), and AutoNUMA's own costs added only a few
        // seconds to them. Since its page migrations wait for TLB
        // shootdowns queued behind other threads' and copy at the loaded
        // rate (twelfth round) they add 110-240 s on numa01 and
        // THREAD_ALLOC and 10-14 s on numa02 and numa02_SMT, on every
        // seed. The quick size still fails it: its short runs end before
        // AutoNUMA has moved much (numa01 2.0 s under AutoNUMA against 2.0).
        check_direction("autonuma-4node", Size::Full, claims_of("system"), Rows::Whole);
    }
}

TEST_CASE("published table autonuma-4node: two thirds of the rows within ±30 %",
          "[calibration][published][!shouldfail]")
{
    check_magnitude("autonuma-4node", Size::Nightly);
}

// --- cache-hot-time-oltp (10 simulated s per run, as reproduce runs it) ---

TEST_CASE("published table cache-hot-time-oltp: throughput peaks near 10 ms and falls back",
          "[calibration][published][!shouldfail]")
{
    // Put back: the fall after the peak (the case above asserts only the rise).
    check_direction("cache-hot-time-oltp", Size::Nightly, claims_of("10 ms"));
}

TEST_CASE("published table cache-hot-time-oltp: 1000 ms still above 2.5 ms", "[calibration][published]")
{
    check_direction("cache-hot-time-oltp", Size::Nightly,
                    [](const PublishedClaim &c) { return c.rows == std::vector<std::string>{"1000 ms"}; });
}

TEST_CASE("published table cache-hot-time-oltp: idle time grows with cache_hot_time", "[calibration][published]")
{
    check_direction("cache-hot-time-oltp", Size::Nightly, claims_of("idle"));
}

TEST_CASE("published table cache-hot-time-oltp: two thirds of the rows within ±30 %", "[calibration][published]")
{
    check_magnitude("cache-hot-time-oltp", Size::Nightly);
}

// --- migration-matrix-itanium (no direction: a flat matrix, judged on its rows) ---

TEST_CASE("published table migration-matrix-itanium: the rows within 8.5-9.1 ms or ±30 %", "[calibration][published]")
{
    // Profiled over the 2.1 x cache buffer the replacement auto-tuning
    // patch timed (the 5/3 buffer gave 6.1 ms, one row out).
    const PublishedExperiment e = published_experiment("migration-matrix-itanium");
    CHECK(e.claims.empty());
    CHECK(std::abs(e.profile_factor - 2.1) < 1e-9);
    check_magnitude("migration-matrix-itanium");
}

// --- migration-matrix-p3 ---

TEST_CASE("published table migration-matrix-p3: across quads costs more than within by half",
          "[calibration][published]")
{
    check_direction("migration-matrix-p3", Size::Full, all_claims);
}

TEST_CASE("published table migration-matrix-p3: two thirds of the rows within ±30 %", "[calibration][published]")
{
    check_magnitude("migration-matrix-p3");
}

// --- sembench-128 (-t 2048 -w 1900, 30 s as run) ---

TEST_CASE("published table sembench-128: queued remote wakeups above locked ones", "[calibration][published]")
{
    check_direction("sembench-128", Size::Nightly, all_claims);
}

TEST_CASE("published table sembench-128: two thirds of the rows within ±30 %", "[calibration][published]")
{
    check_magnitude("sembench-128", Size::Nightly);
}

// --- tx7-2003 ---

// The table has no smaller form, so every case runs it at full size; the
// cases that pass are sections of one, which runs the whole table once.
TEST_CASE("published table tx7-2003: hackbench, numa_test 32 and two thirds of the rows", "[calibration][published]")
{
    SECTION("the posted rework loses hackbench 10 and 25 to orig")
    {
        check_direction("tx7-2003", Size::Full, claims_of("hackbench", PublishedClaim::Kind::Above), Rows::Whole);
    }
    SECTION("the fixed idle mask wins hackbench 25 back")
    {
        check_direction("tx7-2003", Size::Full, claims_of("hackbench 25, A2 fixed", PublishedClaim::Kind::Below),
                        Rows::Whole);
    }
    SECTION("the rework is slower than orig on numa_test 32")
    {
        check_direction("tx7-2003", Size::Full, claims_of("numa_test 32"), Rows::Whole);
    }
    SECTION("two thirds of the rows within ±30 %") { check_magnitude("tx7-2003"); }
}

// Holds on the mean (orig 15.3 s, the rework 14.8 and 14.9) but not on
// every seed since the fourteenth round's sleep-average priorities: on
// seed 3 orig's compile ends at 16.1 s against the rework's 15.1 (6 %):
// the trimmed compile's last jobs (docs/CALIBRATION.md).
TEST_CASE("published table tx7-2003: kernbench within 5 % on all three kernels",
          "[calibration][published][!shouldfail]")
{
    check_direction("tx7-2003", Size::Full, claims_of("kernbench"));
}

// Since 2.5.59's sleep-average priorities came into the model (fourteenth
// round), hackbench 10 under the fixed rework ties the posted one: 1.08,
// 1.28 and 1.20 s against 1.18, 1.19 and 1.16 (docs/CALIBRATION.md).
TEST_CASE("published table tx7-2003: the fixed idle mask wins hackbench 10 back",
          "[calibration][published][!shouldfail]")
{
    check_direction("tx7-2003", Size::Full, claims_of("hackbench 10, A2 fixed", PublishedClaim::Kind::Below));
}

// Holds on the mean over the seeds (reproduce's rule) but not on every
// seed: on seeds 1 and 2 the rework's run is 1 % faster than orig's (41.0
// and 40.9 s against 41.4), on seed 3 it is slower (50.3; the sleep-average
// priorities of the fourteenth round; docs/CALIBRATION.md).
TEST_CASE("published table tx7-2003: the rework is slower than orig on numa_test 16",
          "[calibration][published][!shouldfail]")
{
    check_direction("tx7-2003", Size::Full, claims_of("numa_test 16"));
}

// --- specjbb-r910 (270 simulated s, as the scenario runs it: AutoNUMA's
// scanner needs tens of seconds to converge) ---

TEST_CASE("published table specjbb-r910: manual pinning above AutoNUMA", "[calibration][published]")
{
    check_direction("specjbb-r910", Size::Nightly, claims_of("manual pinning"));
}

TEST_CASE("published table specjbb-r910: AutoNUMA above the baseline", "[calibration][published]")
{
    check_direction("specjbb-r910", Size::Full, claims_of("AutoNUMA"));
}

TEST_CASE("published table specjbb-r910: sched/numa below the baseline", "[calibration][published][!shouldfail]")
{
    check_direction("specjbb-r910", Size::Nightly, claims_of("3.6 baseline"));
}

TEST_CASE("published table specjbb-r910: two thirds of the rows within ±30 %", "[calibration][published][!shouldfail]")
{
    check_magnitude("specjbb-r910", Size::Nightly);
}

// --- stream-r910 (stream.c's arrays and passes; rows relative to pinning) ---

TEST_CASE("published table stream-r910: the baseline 10-20 % behind pinning from 4 to 16 instances",
          "[calibration][published][!shouldfail]")
{
    check_direction("stream-r910", Size::Nightly, claims_of("3.6 baseline"));
}

// Since the instances run 5 minutes as in 2012 (docs/CALIBRATION.md, eighth
// round), AutoNUMA keeps every instance on its node, and the quick size
// (one short pass, no runaway) gives the full runs' verdict, so CI runs it
// quick.
TEST_CASE("published table stream-r910: AutoNUMA within 5 % of pinning", "[calibration][published]")
{
    check_direction("stream-r910", Size::Nightly, claims_of("AutoNUMA", PublishedClaim::Kind::Flat));
}

// Known failures at full size since sched/numa's October 2012 balancer
// (docs/CALIBRATION.md, fifteenth round): its stopper path sends a lone
// off-node thread to the pulling CPU's node, and at 8 instances threads
// bounce between nodes (114 against pinning's 100). The quick size ends
// before any of it happens and passes, so both run at full size in CI.
// (Before that round the sched/numa case passed on the mean but not on
// every seed: 16 instances, seed 3, 106.7.)
TEST_CASE("published table stream-r910: sched/numa within 5 % of pinning", "[calibration][published][!shouldfail]")
{
    check_direction("stream-r910", Size::Full, claims_of("sched/numa", PublishedClaim::Kind::Flat));
}

TEST_CASE("published table stream-r910: two thirds of the rows inside the published bands",
          "[calibration][published][!shouldfail]")
{
    check_magnitude("stream-r910", Size::Full);
}

// --- autonuma-8node (full size: 3 GiB numa01, the benchmark's loops; the
// most expensive table, several minutes of CPU, so the inverse-binding
// claims and the magnitude share one run of the whole table) ---

TEST_CASE("published table autonuma-8node: AutoNUMA does not win numa01", "[calibration][published][!shouldfail]")
{
    check_direction("autonuma-8node", Size::Nightly,
                    [](const PublishedClaim &c) { return c.rows == std::vector<std::string>{"numa01, autonuma27"}; });
}

TEST_CASE("published table autonuma-8node: AutoNUMA wins THREAD_ALLOC, numa02 and numa02_SMT",
          "[calibration][published]")
{
    check_direction("autonuma-8node", Size::Full, [](const PublishedClaim &c) {
        return c.kind == PublishedClaim::Kind::Below && names_row(c, ", autonuma27");
    });
}

TEST_CASE("published table autonuma-8node: hard binding fastest under 3.6.0", "[calibration][published]")
{
    check_direction("autonuma-8node", Size::Nightly, claims_of("HARD_BIND, 3.6.0", PublishedClaim::Kind::Below));
}

TEST_CASE("published table autonuma-8node: inverse binding slowest, and two thirds of the rows within ±30 %",
          "[calibration][published][!shouldfail]")
{
    SECTION("inverse binding slowest per workload and kernel")
    {
        check_direction("autonuma-8node", Size::Nightly, claims_of("INVERSE_BIND"));
    }
    SECTION("rows within ±30 %") { check_magnitude("autonuma-8node", Size::Nightly); }
}
