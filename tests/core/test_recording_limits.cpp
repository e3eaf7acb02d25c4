// A long run's recording stays bounded (RecordingLimits): samples merge in
// pairs, decisions and migrations past their limit are counted, not kept,
// and checkpoints still restore across a merge.

#include "catalog/catalog.h"
#include "engine/invariants.h"
#include "engine/simulation.h"
#include "topology/import.h"

#include <catch2/catch.hpp>

#include <numeric>

using namespace schedscope;

namespace {

MetricsSample sample_at(SimTime t, double user, float busy, float local)
{
    MetricsSample s;
    s.time_ns = t;
    s.user_ns = user;
    s.pu_busy = {busy};
    s.proc_local_pct = {local};
    s.cache_heat = {static_cast<float>(t)};
    return s;
}

// A small hackbench on 4 PUs: thousands of wakeups, decisions and
// migrations in a few tens of milliseconds.
Simulation make_busy_sim(const RecordingLimits &limits)
{
    SimConfig cfg;
    cfg.seed = 11;
    cfg.sample_interval_ns = 1'000'000;
    cfg.limits = limits;
    Simulation sim(std::make_shared<const Topology>(import_synthetic("pack:2 l3:1 core:2 pu:1")),
                   make_policy("sched-domains", {}, "t"), cfg);
    auto [name, params] = parse_name_params("hackbench:groups=1,loops=20", "t");
    find_workload(name, "t").build(sim, params, "t");
    return sim;
}

std::int64_t sum(const std::array<std::int64_t, kDistanceClassCount> &a)
{
    return std::accumulate(a.begin(), a.end(), std::int64_t{0});
}

SimTime user_ns(const Simulation &sim)
{
    SimTime u = 0;
    for (const Runqueue &rq : sim.runqueues())
        u += rq.user_ns;
    return u;
}

} // namespace

TEST_CASE("merging samples keeps cumulative figures and weighs windows by length", "[engine][recording]")
{
    Recording rec;
    // Windows: (0,10] busy 1.0, (10,40] busy 0.0, (40,50] busy 0.5, (50,60] busy 1.0.
    rec.samples = {sample_at(0, 0, 1.f, -1.f),   sample_at(10, 10, 1.f, 50.f), sample_at(40, 10, 0.f, -1.f),
                   sample_at(50, 15, .5f, 20.f), sample_at(60, 25, 1.f, 40.f), sample_at(70, 26, .1f, 80.f)};
    rec.merge_samples();
    REQUIRE(rec.sample_merges == 1);
    REQUIRE(rec.samples.size() == 4);
    // The start stays; each merged sample is the later one of its pair.
    CHECK(rec.samples[0].time_ns == 0);
    CHECK(rec.samples[1].time_ns == 40);
    CHECK(rec.samples[2].time_ns == 60);
    CHECK(rec.samples[3].time_ns == 70); // the odd one at the end, untouched
    CHECK(rec.samples[1].user_ns == 10);
    CHECK(rec.samples[2].user_ns == 25);
    CHECK(rec.samples[1].cache_heat[0] == 40.f);
    // (0,40]: 10 ns at 1.0 and 30 ns at 0.0.
    CHECK(rec.samples[1].pu_busy[0] == Approx(0.25));
    // (40,60]: two 10 ns windows at 0.5 and 1.0.
    CHECK(rec.samples[2].pu_busy[0] == Approx(0.75));
    // No access in one window: the other window's share stands alone.
    CHECK(rec.samples[1].proc_local_pct[0] == Approx(50.0));
    CHECK(rec.samples[2].proc_local_pct[0] == Approx(30.0));
    CHECK(rec.samples[3].pu_busy[0] == Approx(0.1));
}

TEST_CASE("a long run keeps at most the limits and still counts everything", "[engine][recording]")
{
    const RecordingLimits small{40, 25, 8};
    Simulation sim = make_busy_sim(small);
    sim.run_to_end();
    REQUIRE(sim.finished());
    const Recording &rec = sim.recording();

    // Samples: bounded, in time order, from the start to the end of the run.
    CHECK(rec.sample_merges > 0);
    CHECK(rec.samples.size() <= small.max_samples);
    CHECK(rec.samples.size() >= small.max_samples / 2);
    CHECK(rec.samples.front().time_ns == 0);
    CHECK(rec.samples.back().time_ns == sim.end_time());
    for (std::size_t i = 1; i < rec.samples.size(); ++i)
        CHECK(rec.samples[i].time_ns > rec.samples[i - 1].time_ns);

    // Migrations and decisions: the first ones kept, the rest counted.
    REQUIRE(sim.migrations_total() > static_cast<std::int64_t>(small.max_migrations));
    CHECK(rec.migrations.size() == small.max_migrations);
    CHECK(static_cast<std::int64_t>(rec.migrations.size()) + rec.migrations_dropped == sim.migrations_total());
    CHECK(sum(rec.samples.back().migrations_by_class) == sim.migrations_total());
    CHECK(rec.decisions.size() == small.max_decisions);
    CHECK(rec.decisions_dropped > 0);
    // The most recent moves are still there for the views to animate.
    const MigrationRecord &last = sim.recent_migration(sim.migrations_total() - 1);
    CHECK(last.time_ns > rec.migrations.back().time_ns);
    CHECK(check_invariants(sim).empty());
}

TEST_CASE("the limits change what is kept, not how the run goes", "[engine][recording]")
{
    Simulation small = make_busy_sim(RecordingLimits{40, 25, 8});
    Simulation plenty = make_busy_sim(RecordingLimits{});
    small.run_to_end();
    plenty.run_to_end();
    REQUIRE(plenty.recording().sample_merges == 0);
    CHECK(small.end_time() == plenty.end_time());
    CHECK(small.migrations_total() == plenty.migrations_total());
    CHECK(small.total_ops() == plenty.total_ops());
    const MetricsSample &a = small.recording().samples.back(), &b = plenty.recording().samples.back();
    CHECK(a.user_ns == b.user_ns);
    CHECK(a.sys_ns == b.sys_ns);
    CHECK(a.idle_ns == b.idle_ns);
    CHECK(a.migrations_by_class == b.migrations_by_class);
    for (std::size_t i = 0; i < small.recording().migrations.size(); ++i) {
        CHECK(small.recording().migrations[i].time_ns == plenty.recording().migrations[i].time_ns);
        CHECK(small.recording().migrations[i].refill_stall_ns == plenty.recording().migrations[i].refill_stall_ns);
    }
}

TEST_CASE("a checkpoint restores across a merge of samples", "[engine][recording]")
{
    Simulation sim = make_busy_sim(RecordingLimits{1000, 1000, 8});
    sim.run_until(5'000'000);
    const auto cp = sim.checkpoint();
    const int merges_at_cp = sim.recording().sample_merges;
    const SimTime last_at_cp = sim.recording().samples.back().time_ns;
    const std::size_t migrations_at_cp = sim.recording().migrations.size();
    sim.run_to_end();
    REQUIRE(sim.recording().sample_merges > merges_at_cp);
    const SimTime end_later = sim.end_time();
    const std::int64_t migrations_later = sim.migrations_total();
    const SimTime user_later = user_ns(sim);

    sim.restore(cp);
    const Recording &rec = sim.recording();
    CHECK(sim.now() == 5'000'000);
    CHECK(rec.migrations.size() == migrations_at_cp);
    REQUIRE_FALSE(rec.samples.empty());
    CHECK(rec.samples.back().time_ns <= last_at_cp);

    sim.run_to_end();
    CHECK(rec.samples.size() <= 8);
    for (std::size_t i = 1; i < rec.samples.size(); ++i)
        CHECK(rec.samples[i].time_ns > rec.samples[i - 1].time_ns);
    // The replay gets where the first run did.
    CHECK(sim.end_time() == end_later);
    CHECK(rec.samples.back().time_ns == end_later);
    CHECK(sim.migrations_total() == migrations_later);
    CHECK(user_ns(sim) == user_later);
}

TEST_CASE("samples also stay within a byte budget", "[engine][recording]")
{
    Simulation sizing = make_busy_sim(RecordingLimits{});
    sizing.run_to_end();
    const std::size_t one = sample_bytes(sizing.recording().samples.back());
    REQUIRE(one > sizeof(MetricsSample));

    RecordingLimits budget;
    budget.max_sample_bytes = 6 * one;
    Simulation sim = make_busy_sim(budget);
    sim.run_to_end();
    CHECK(sizing.recording().samples.size() > 6);
    CHECK(sim.recording().samples.size() <= 6);
    CHECK(sim.recording().samples.back().time_ns == sim.end_time());
}

TEST_CASE("log_lazy keeps and counts what log keeps, and writes no reason once it drops", "[engine][recording]")
{
    // Room for two more decisions than the policy logs when it attaches.
    const std::size_t at_start = make_busy_sim(RecordingLimits{}).recording().decisions.size();
    RecordingLimits limits;
    limits.max_decisions = at_start + 2;
    Simulation lazy = make_busy_sim(limits);
    Simulation eager = make_busy_sim(limits);
    REQUIRE(lazy.recording().decisions.size() == at_start);
    int written = 0;
    for (int i = 0; i < 5; ++i) {
        lazy.log_lazy(DecisionKind::Other, i, 0, 1, [&] {
            ++written;
            return "reason " + std::to_string(i);
        });
        eager.log(DecisionKind::Other, i, 0, 1, "reason " + std::to_string(i));
    }
    CHECK(written == 2);
    CHECK(lazy.recording().decisions.size() == at_start + 2);
    CHECK(lazy.recording().decisions_dropped == 3);
    REQUIRE(eager.recording().decisions.size() == lazy.recording().decisions.size());
    CHECK(eager.recording().decisions_dropped == 3);
    for (std::size_t i = 0; i < lazy.recording().decisions.size(); ++i)
        CHECK(lazy.recording().decisions[i].reason == eager.recording().decisions[i].reason);
    CHECK(lazy.recording().decisions.back().reason == "reason 1");
}
