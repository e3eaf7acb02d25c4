// Sweeps: values run in parallel land in their own slots, normalisation to
// the first value, seeds per repeat, table and JSON agree.

#include "sweep/sweep.h"
#include "util/input_error.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>

using namespace schedscope;

namespace {

// A stand-in runner: throughput grows with the value, idle with the seed.
SweepRun fake_run(const ParamMap &p, std::uint64_t seed)
{
    SweepRun r;
    const double v = std::stod(p.at("knob"));
    r.throughput = 1000.0 * (1.0 + v / 100.0);
    r.elapsed_s = 10.0 / (1.0 + v / 100.0);
    r.idle_pct = static_cast<double>(seed);
    r.user_s = v;
    return r;
}

} // namespace

TEST_CASE("sweep normalises to the first value and keeps the base parameters", "[sweep]")
{
    SweepSpec spec;
    spec.policy = "p";
    spec.base_params = {{"other", "x"}};
    spec.param = "knob";
    spec.values = {"0", "10", "50"};
    spec.repeat = 3;
    spec.base_seed = 5;
    spec.fixed_work = false;
    int calls_seen = 0;
    auto runner = [](const ParamMap &p, std::uint64_t seed) {
        REQUIRE(p.at("other") == "x");
        return fake_run(p, seed);
    };
    auto r = run_sweep(spec, runner, 2, [&](int done, int total) {
        CHECK(done == calls_seen + 1);
        CHECK(total == 9);
        calls_seen = done;
    });
    CHECK(calls_seen == 9);
    REQUIRE(r.points.size() == 3);
    CHECK(r.points[0].relative == Approx(100.0));
    CHECK(r.points[1].relative == Approx(110.0));
    CHECK(r.points[2].relative == Approx(150.0));
    // Seeds 5, 6, 7 for every value.
    for (const auto &pt : r.points) {
        REQUIRE(pt.runs.size() == 3);
        CHECK(pt.runs[0].idle_pct == 5);
        CHECK(pt.runs[2].idle_pct == 7);
        CHECK(pt.mean.idle_pct == Approx(6));
    }
    const auto j = sweep_json(r);
    CHECK(j["points"][2]["relative"].get<double>() == Approx(150.0));
    CHECK(j["points"][1]["value"] == "10");
    const std::string table = sweep_table(r);
    CHECK(table.find("150.0") != std::string::npos);
    CHECK(table.find("100.0") != std::string::npos);
}

TEST_CASE("fixed-work sweeps compare 1 / elapsed", "[sweep]")
{
    SweepSpec spec;
    spec.param = "knob";
    spec.values = {"0", "100"};
    spec.fixed_work = true;
    auto r = run_sweep(spec, fake_run, 1);
    CHECK(r.points[1].relative == Approx(200.0));
}

TEST_CASE("sweep results do not depend on the thread count", "[sweep]")
{
    SweepSpec spec;
    spec.param = "knob";
    spec.values = {"1", "2", "3", "4", "5"};
    spec.repeat = 2;
    auto a = run_sweep(spec, fake_run, 1);
    auto b = run_sweep(spec, fake_run, 4);
    CHECK(sweep_json(a) == sweep_json(b));
}

TEST_CASE("sweep reports a failing run and rejects empty values", "[sweep]")
{
    SweepSpec spec;
    spec.param = "knob";
    spec.values = {"1", "bad"};
    CHECK_THROWS(run_sweep(spec, fake_run, 2));
    CHECK(split_values("1,2.5,10", "t") == std::vector<std::string>{"1", "2.5", "10"});
    CHECK_THROWS_AS(split_values("1,,2", "t"), InputError);
}
