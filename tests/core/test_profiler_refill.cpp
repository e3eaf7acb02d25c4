// The profiler's model mode refills a cache by the engine's rule: streamed
// lines over the lines in flight, bounded by the node's bandwidth with a
// write-back beside every line read; and it takes a sample's era figures
// as a simulation on it does.

#include "profiler/migration_profiler.h"
#include "topology/import.h"

#include <catch2/catch.hpp>

using namespace schedscope;

namespace {

// One node, four CPUs, each with a private 4 MiB cache: every line of a
// migration comes from outside the target's caches.
constexpr const char *kPrivateCaches = "[numa] pack:4 l2:1(size=4MiB) core:1 pu:1";

double off_diagonal_ms(const Topology &t, const ModelParams &params)
{
    ProfilerOptions o;
    o.mode = ProfileMode::Model;
    o.params = params;
    return MigrationProfiler(t, o).run().matrix_ms[0][1];
}

} // namespace

TEST_CASE("model: a migration streams its lines, as many in flight as the engine allows", "[profiler][model]")
{
    Topology t = import_synthetic(kPrivateCaches);
    ModelParams p;
    p.mem_bandwidth_bytes_per_ns = 1000; // no bandwidth bound here
    p.cache_fill_bytes_per_ns = 1000;
    p.mem_misses_in_flight = 2;
    const double two = off_diagonal_ms(t, p);
    p.mem_misses_in_flight = 8;
    const double eight = off_diagonal_ms(t, p);
    CHECK(eight == Approx(two / 4).epsilon(1e-9));
    // Latency-bound: the buffer's lines (5/3 of the cache) at one memory
    // latency over the lines in flight.
    const double lines = static_cast<double>(MigrationProfiler(t, ProfilerOptions{}).buffer_bytes()) /
                         p.cache_line_bytes;
    CHECK(eight == Approx(lines * p.mem_latency_local_ns / 8 / 1e6).epsilon(1e-6));
}

TEST_CASE("model: a migration's reads and write-backs share the node's bandwidth", "[profiler][model]")
{
    Topology t = import_synthetic(kPrivateCaches);
    ModelParams p;
    p.mem_misses_in_flight = 256; // no latency bound here
    p.cache_fill_bytes_per_ns = 1000;
    p.mem_bandwidth_bytes_per_ns = 2.0;
    const double bytes = static_cast<double>(MigrationProfiler(t, ProfilerOptions{}).buffer_bytes());
    // Every line read for ownership evicts a dirty one: twice the buffer.
    CHECK(off_diagonal_ms(t, p) == Approx(2 * bytes / 2.0 / 1e6).epsilon(1e-6));
}

TEST_CASE("model: a sample's era figures apply, and a caller's own values win", "[profiler][model]")
{
    const Topology t = load_topology("sample:itanium-4way");
    ModelParams era;
    era.apply_machine_figures(t);
    REQUIRE(era.mem_latency_local_ns != ModelParams{}.mem_latency_local_ns);
    // Default params: the profile is the one the era figures give.
    CHECK(off_diagonal_ms(t, ModelParams{}) == Approx(off_diagonal_ms(t, era)).epsilon(1e-12));
    // A latency set by the caller wins over the sample's; the Itanium's
    // refill is bound by latency, so its cost follows.
    ModelParams slower;
    slower.mem_latency_local_ns = 2 * era.mem_latency_local_ns;
    CHECK(off_diagonal_ms(t, slower) == Approx(2 * off_diagonal_ms(t, era)).epsilon(1e-9));
}
