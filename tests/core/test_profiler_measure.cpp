// Migration profiler, measure mode, on the machine running the tests. The
// machine is shared and noisy: assertions are about sanity and rough
// agreement, never about values, and a comparison of timings gets a few
// fresh attempts, so that one sample slowed by another process does not
// fail it while an error that shows in every attempt still does.

#include "profiler/migration_profiler.h"
#include "topology/import.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

using namespace schedscope;

namespace {

// Small enough to keep the tests quick, large enough to overflow L1 and
// L2 on anything current so the timings are not pure noise.
constexpr std::uint64_t kTestBufferBytes = 2ull << 20;
constexpr int kTestReps = 3;

ProfilerOptions measure_options(PairSelection pairs)
{
    ProfilerOptions o;
    o.mode = ProfileMode::Measure;
    o.pairs = pairs;
    o.buffer_bytes = kTestBufferBytes;
    o.reps = kTestReps;
    return o;
}

bool skipped(const MigrationProfile &p, int pu)
{
    return std::find(p.skipped_pus.begin(), p.skipped_pus.end(), pu) != p.skipped_pus.end();
}

} // namespace

TEST_CASE("measure: every entry of this machine's matrix is positive and finite", "[profiler][measure]")
{
    Topology t = import_detect();
    MigrationProfile p = MigrationProfiler(t, measure_options(PairSelection::All)).run();
    REQUIRE(p.complete);
    REQUIRE(static_cast<int>(p.matrix_ms.size()) == t.pu_count());
    int measured = 0;
    for (int s = 0; s < t.pu_count(); ++s)
        for (int d = 0; d < t.pu_count(); ++d) {
            if (skipped(p, s) || skipped(p, d)) {
                CHECK(std::isnan(p.matrix_ms[s][d]));
                continue;
            }
            INFO("pair " << s << " -> " << d);
            CHECK(std::isfinite(p.matrix_ms[s][d]));
            CHECK(p.matrix_ms[s][d] > 0);
            ++measured;
        }
    CHECK(measured > 0);
    if (measured > 1) {
        CHECK(std::isfinite(p.min_offdiag_ms));
        CHECK(p.cache_hot_time_ms_for_level(kOverallLevel).has_value());
    }
}

TEST_CASE("measure: classes agree with the full matrix on the classes they measured", "[profiler][measure]")
{
    // Other builds share these cores, hence a factor of four either way. It
    // catches a unit mistake, and a class costed from another class's pair
    // where the two classes differ more than fourfold (a class left without
    // its own pair fails the finiteness check below).
    constexpr double kTolerance = 4.0;
    // A pair's cost is the largest of its samples (docs/profiler.md), so one
    // sample slowed by another process can push a class past the factor of
    // four (seen: the shared-L3 class at 1.91 ms against 0.30 - 0.36 ms in
    // the full matrix, under a sanitizer run of the suite). Each attempt is
    // a fresh run of both profilers; a class passes when some attempt agrees
    // on it. A systematic error of the kinds above disagrees in every
    // attempt and still fails (a planted x1000 in classes mode did, all
    // three times).
    constexpr int kAttempts = 3;
    Topology t = import_detect();
    std::vector<bool> agreed;
    std::vector<std::string> seen; // per class, what each attempt measured
    for (int attempt = 1; attempt <= kAttempts; ++attempt) {
        MigrationProfile all = MigrationProfiler(t, measure_options(PairSelection::All)).run();
        MigrationProfile classes = MigrationProfiler(t, measure_options(PairSelection::Classes)).run();
        REQUIRE(all.classes.size() == classes.classes.size());
        agreed.resize(classes.classes.size(), false);
        seen.resize(classes.classes.size());
        for (size_t i = 0; i < classes.classes.size(); ++i) {
            const auto &c = classes.classes[i];
            const auto &a = all.classes[i];
            REQUIRE(c.cls == a.cls);
            if (!std::isfinite(c.min_ms) || !std::isfinite(a.min_ms)) {
                agreed[i] = true; // unmeasured in one of them: nothing to compare
                continue;
            }
            const bool agrees = c.min_ms >= a.min_ms / kTolerance && c.min_ms <= a.max_ms * kTolerance;
            std::ostringstream line;
            line << "attempt " << attempt << ": classes " << c.min_ms << " ms, all " << a.min_ms << " - " << a.max_ms
                 << " ms" << (agrees ? "" : " (disagrees)");
            if (seen[i].empty())
                seen[i] = std::string("class ") + distance_class_name(c.cls) + " (SLIT " +
                          std::to_string(c.numa_distance) + ")";
            seen[i] += "\n" + line.str();
            if (!agrees && !agreed[i])
                WARN("class " << distance_class_name(c.cls) << " disagrees, " << line.str()
                              << (attempt < kAttempts ? "; measuring again" : ""));
            agreed[i] = agreed[i] || agrees;
        }
        // Every pair of the filled matrix carries its class's measured cost.
        for (int s = 0; s < t.pu_count(); ++s)
            for (int d = 0; d < t.pu_count(); ++d)
                if (!skipped(classes, s) && !skipped(classes, d))
                    CHECK(std::isfinite(classes.matrix_ms[s][d]));
        if (std::all_of(agreed.begin(), agreed.end(), [](bool b) { return b; }))
            break;
    }
    for (size_t i = 0; i < agreed.size(); ++i) {
        INFO(seen[i]);
        CHECK(agreed[i]);
    }
}

TEST_CASE("measure: cancelling from the progress callback stops after the current pair", "[profiler][measure]")
{
    Topology t = import_detect();
    std::atomic<bool> cancel{false};
    MigrationProfile p = MigrationProfiler(t, measure_options(PairSelection::All)).run(&cancel, [&](int done, int) {
        if (done == 1)
            cancel = true;
    });
    CHECK_FALSE(p.complete);
    int known = 0;
    for (const auto &row : p.matrix_ms)
        for (double v : row)
            known += std::isfinite(v);
    CHECK(known == 1);
}

TEST_CASE("measure: buffers beyond the machine's memory are a clear error", "[profiler][measure]")
{
    Topology t = import_detect();
    ProfilerOptions o = measure_options(PairSelection::Classes);
    o.buffer_bytes = 1ull << 50; // a petabyte
    MigrationProfiler profiler(t, o);
    CHECK_THROWS_WITH(profiler.run(), Catch::Contains("memory"));
}
