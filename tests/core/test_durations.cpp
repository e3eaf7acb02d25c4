// Durations are read exactly: decimal text to whole nanoseconds without a
// double in between (2.05s is 2 050 000 000 ns, not one short), and a
// scenario's duration_s reaches the engine rounded, not truncated.

#include "scenario/run.h"
#include "scenario/scenario.h"
#include "topology_test_support.h"
#include "util/duration_text.h"
#include "util/input_error.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>

#include <unistd.h>

using namespace schedscope;
using namespace schedscope::testing;

TEST_CASE("durations parse exactly into nanoseconds, in every unit", "[duration]")
{
    CHECK(parse_duration_ns("2.05s", "t") == 2'050'000'000);
    CHECK(parse_duration_ns("2.05", "t") == 2'050'000'000); // no unit: seconds
    CHECK(parse_duration_ns("0.1s", "t") == 100'000'000);
    CHECK(parse_duration_ns(".5s", "t") == 500'000'000);
    CHECK(parse_duration_ns("5.s", "t") == 5'000'000'000);
    CHECK(parse_duration_ns("1000ns", "t") == 1'000);
    CHECK(parse_duration_ns("1.5us", "t") == 1'500);
    CHECK(parse_duration_ns("0.000001ms", "t") == 1);
    CHECK(parse_duration_ns("500ms", "t") == 500'000'000);
    CHECK(parse_duration_ns("1.25m", "t") == 75'000'000'000);
    CHECK(parse_duration_ns("2min", "t") == 120'000'000'000);
    CHECK(parse_duration_ns("0.5h", "t") == 1'800'000'000'000);
    CHECK(parse_duration_ns("1.000000000000000000000000000s", "t") == 1'000'000'000); // zeros say nothing
    CHECK(parse_duration_ns("0007s", "t") == 7'000'000'000);
    CHECK(parse_duration_ns("0", "t") == 0);
    // Every millisecond step of a minute comes out exact (the double route
    // lost a nanosecond on many of them).
    for (int ms = 0; ms < 60'000; ms += 7) {
        const std::string text = std::to_string(ms / 1000) + "." + std::string(ms % 1000 < 100 ? 1 : 0, '0') +
                                 std::string(ms % 1000 < 10 ? 1 : 0, '0') + std::to_string(ms % 1000) + "s";
        REQUIRE(parse_duration_ns(text, "t") == std::int64_t{ms} * 1'000'000);
    }
    CHECK(parse_duration_ns("9223372036.854775807s", "t") == 9'223'372'036'854'775'807);
}

TEST_CASE("bad durations are refused naming the source", "[duration]")
{
    for (const char *bad : {"", "s", ".", "-5s", "+5s", "nan", "inf", "1e3s", "2.5.1s", " 2s", "2 s", "0x10s"}) {
        INFO("'" << bad << "'");
        CHECK_THROWS_WITH(parse_duration_ns(bad, "--duration"), Catch::Contains("--duration"));
    }
    CHECK_THROWS_WITH(parse_duration_ns("5d", "--duration"), Catch::Contains("unknown unit 'd'"));
    CHECK_THROWS_WITH(parse_duration_ns("1.5ns", "--duration"), Catch::Contains("finer than a nanosecond"));
    CHECK_THROWS_WITH(parse_duration_ns("0.0000000001s", "--duration"), Catch::Contains("finer than a nanosecond"));
    CHECK_THROWS_WITH(parse_duration_ns("9223372036.854775808s", "--duration"), Catch::Contains("too long"));
    CHECK_THROWS_WITH(parse_duration_ns("1" + std::string(40, '0') + "s", "--duration"), Catch::Contains("too long"));
    CHECK_THROWS_WITH(parse_duration_ns("1." + std::string(40, '3') + "h", "--duration"),
                      Catch::Contains("finer than a nanosecond"));
}

TEST_CASE("a scenario's duration reaches the engine exact", "[duration]")
{
    CHECK(seconds_as_ns(2.05) == 2'050'000'000);
    CHECK(seconds_as_ns(0.3) == 300'000'000);
    Scenario s;
    s.topology = "synthetic:pack:1 core:2 pu:1";
    s.workload = WorkloadSpec{"spin", {{"work_ms", "100000"}}};
    for (double d : {2.05, 0.29, 1.1, 86'399.999999999}) {
        INFO(d);
        s.duration_s = d;
        const Simulation sim = build_simulation(s, PolicySpec{"simple", {}}, 1, scenario_topology(s));
        CHECK(sim.config().duration_ns == static_cast<std::int64_t>(std::llround(d * 1e9)));
    }
    s.duration_s = 2.05;
    CHECK(build_simulation(s, PolicySpec{"simple", {}}, 1, scenario_topology(s)).config().duration_ns == 2'050'000'000);
}

TEST_CASE("run --duration 2.05s reports 2.05 s, not one nanosecond less", "[duration][cli]")
{
    const auto json_path = std::filesystem::temp_directory_path() /
                           ("schedscope-duration-" + std::to_string(::getpid()) + ".json");
    const auto r = run_command(shell_quote(SCHEDSCOPE_CLI_PATH) +
                               " run --topology sample:p4-ht-2way --policy simple --workload spin:work_ms=100000"
                               " --duration 2.05s --json " +
                               shell_quote(json_path.string()) + " 2>&1");
    INFO(r.out);
    REQUIRE(r.exit_code == 0);
    const auto doc = nlohmann::json::parse(read_file(json_path.string()));
    std::filesystem::remove(json_path);
    const auto &run = doc.at("results").at(0).at("runs").at(0);
    CHECK(run.at("elapsed_s").dump() == "2.05");
    CHECK(run.at("series").at("time_s").back().dump() == "2.05");
}
