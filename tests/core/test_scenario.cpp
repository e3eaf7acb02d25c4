// Scenario files: load errors name the field, round trips are exact, saves
// are atomic, and runs from a scenario are reproducible.

#include "scenario/run.h"
#include "scenario/scenario.h"
#include "util/input_error.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace schedscope;

namespace {

const char *kGood = R"({
  "schedscope_scenario": 1,
  "name": "two spinners",
  "description": "smoke",
  "topology": {"synthetic": "pack:2 [numa] core:2 pu:1", "distances": [[10, 21], [21, 10]]},
  "workload": {"name": "spin", "params": {"threads": "6", "work_ms": 30}},
  "policies": [{"name": "simple", "params": {}}, {"name": "simple", "params": {"wakeup": "queued"}}],
  "seed": 9,
  "repeat": 2,
  "sample_interval_ms": 10,
  "model": {"mem_latency_local_ns": 90}
})";

std::string field_of(const std::string &text)
{
    try {
        parse_scenario(text, "s.json");
    } catch (const InputError &e) {
        return e.field().empty() ? "line " + std::to_string(e.line()) : e.field();
    }
    return "no error";
}

std::string replace(std::string s, const std::string &from, const std::string &to)
{
    auto pos = s.find(from);
    REQUIRE(pos != std::string::npos);
    return s.replace(pos, from.size(), to);
}

std::filesystem::path temp_dir()
{
    auto d = std::filesystem::temp_directory_path() / ("schedscope-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return d;
}

} // namespace

TEST_CASE("a scenario parses with its fields and parameters", "[scenario]")
{
    Scenario s = parse_scenario(kGood, "s.json");
    CHECK(s.name == "two spinners");
    CHECK(s.workload.name == "spin");
    CHECK(s.workload.params.at("threads") == "6");
    CHECK(s.workload.params.at("work_ms") == "30"); // numbers keep their JSON spelling
    REQUIRE(s.policies.size() == 2);
    CHECK(s.policies[1].params.at("wakeup") == "queued");
    CHECK(s.seed == 9);
    CHECK(s.repeat == 2);
    CHECK(s.model.at("mem_latency_local_ns") == 90);
    auto topo = scenario_topology(s);
    CHECK(topo->pu_count() == 4);
    CHECK(topo->node_distance(0, 1) == 21);
}

TEST_CASE("scenarios round-trip exactly", "[scenario]")
{
    Scenario s = parse_scenario(kGood, "s.json");
    const std::string once = scenario_to_json(s).dump(2);
    Scenario again = parse_scenario(once, "s.json");
    CHECK(again == s);
    CHECK(scenario_to_json(again).dump(2) == once);
}

TEST_CASE("scenario errors name the field or the line", "[scenario]")
{
    CHECK(field_of("") == "line 1");
    CHECK(field_of(std::string(kGood).substr(0, 120)) != "no error"); // truncated
    CHECK(field_of("{\"schedscope_scenario\": 1,\n \"topology\": \"detect\",\n oops}") == "line 3");
    CHECK(field_of(replace(kGood, "\"seed\": 9", "\"seed\": -3")) == "seed");
    CHECK(field_of(replace(kGood, "\"repeat\": 2", "\"repeat\": 0")) == "repeat");
    // A model constant by its path, as a published experiment's (read_model_overrides).
    CHECK(field_of(replace(kGood, "\"mem_latency_local_ns\": 90", "\"mem_latency_local_ns\": -5")) ==
          "model.mem_latency_local_ns");
    CHECK(field_of(replace(kGood, "\"mem_latency_local_ns\"", "\"no_such_constant\"")) == "model.no_such_constant");
    CHECK(field_of(replace(kGood, "\"name\": \"spin\"", "\"name\": 7")) == "workload.name");
    CHECK(field_of(replace(kGood, "{\"name\": \"simple\", \"params\": {}}", "{\"nam\": \"simple\"}")) ==
          "policies[0].nam");
    CHECK(field_of(replace(kGood, "\"schedscope_scenario\": 1", "\"schedscope_scenario\": 2")) ==
          "schedscope_scenario");
    CHECK(field_of(replace(kGood, "\"policies\": [", "\"policies\": [] , \"x\": [")) != "no error");
    CHECK(field_of(replace(kGood, "\"seed\": 9", "\"sede\": 9")) == "sede");
}

TEST_CASE("the empty-policies message states the limit the count check enforces", "[scenario]")
{
    auto with_policies = [](int n) {
        std::string list;
        for (int i = 0; i < n; ++i)
            list += std::string(i ? ", " : "") + "{\"name\": \"simple\"}";
        return replace(kGood,
                       "{\"name\": \"simple\", \"params\": {}}, {\"name\": \"simple\", \"params\": "
                       "{\"wakeup\": \"queued\"}}",
                       list);
    };
    auto message_of = [](const std::string &text) -> std::string {
        try {
            parse_scenario(text, "s.json");
        } catch (const InputError &e) {
            return e.what();
        }
        return "no error";
    };
    // The largest list accepted is the number the empty-list message names.
    int largest = 0;
    for (int n = 1; n <= 64 && message_of(with_policies(n)) == "no error"; ++n)
        largest = n;
    REQUIRE(largest > 1);
    CHECK(message_of(with_policies(largest + 1)) != "no error");
    const std::string empty = message_of(with_policies(0));
    CHECK(empty.find("one to " + std::to_string(largest) + " policies") != std::string::npos);
}

TEST_CASE("a failed save leaves the existing file untouched", "[scenario]")
{
    const auto dir = temp_dir();
    const auto path = (dir / "keep.json").string();
    Scenario s = parse_scenario(kGood, "s.json");
    save_scenario(s, path);
    Scenario back = load_scenario(path);
    back.source.clear();
    s.source.clear();
    CHECK(back == s);
    // A path inside a missing directory cannot be written: an error, and no stray files.
    CHECK_THROWS_AS(save_scenario(s, (dir / "missing" / "x.json").string()), InputError);
    CHECK(load_scenario(path).name == "two spinners");
    std::filesystem::remove_all(dir);
}

TEST_CASE("runs from a scenario are reproducible and seeds matter", "[scenario]")
{
    Scenario s = parse_scenario(kGood, "s.json");
    auto topo = scenario_topology(s);
    auto a = run_policy(s, s.policies[0], 9, topo);
    auto b = run_policy(s, s.policies[0], 9, topo);
    CHECK(a.finished);
    CHECK(run_to_json(a, true).dump() == run_to_json(b, true).dump());
    CHECK(a.elapsed_s > 0.03 * 6 / 4);
    const double total = a.user_s + a.sys_s + a.idle_pct / 100.0 * 4 * a.elapsed_s;
    CHECK(total == Approx(4 * a.elapsed_s).epsilon(1e-6));
}

TEST_CASE("bind suffixes select the bind policy", "[scenario]")
{
    CHECK(split_bind_suffix("numa01_HARD_BIND") == std::pair<std::string, std::string>{"numa01", "hard"});
    CHECK(split_bind_suffix("numa02_SMT_INVERSE_BIND") == std::pair<std::string, std::string>{"numa02_SMT", "inverse"});
    CHECK(split_bind_suffix("numa02") == std::pair<std::string, std::string>{"numa02", ""});
    Scenario s = parse_scenario(kGood, "s.json");
    s.workload.name = "spin_INVERSE_BIND";
    auto p = effective_policies(s);
    REQUIRE(p.size() == 1);
    CHECK(p[0].name == "bind");
    CHECK(p[0].params.at("mode") == "inverse");
}
