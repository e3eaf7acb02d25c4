// The parameter tables (params/param_table.h): defaults, refusals naming the
// parameter, `when`, included tables, params() read back through parsing.

#include "catalog/catalog.h"
#include "engine/simulation.h"
#include "params/param_table.h"
#include "topology/import.h"
#include "util/input_error.h"

#include <catch2/catch.hpp>

#include <string>

using namespace schedscope;

namespace {

enum class Colour { Red, Green };

struct Inner {
    double rate_ms = 2.5;
};

struct Knobs {
    std::int64_t count = 4;
    double ratio = 0.5;
    std::string mode = "fast";
    bool flag = true;
    Colour colour = Colour::Red;
    std::string file;
    Inner inner;
};

const ParamTable<Knobs> &knobs_table()
{
    static const ParamTable<Knobs> t = [] {
        ParamTable<Knobs> t;
        t.integer("count", &Knobs::count, 1, 10, "", "how many");
        t.real("ratio", &Knobs::ratio, 0, 1, "", "a share");
        t.choice("mode", &Knobs::mode, {"fast", "slow"}, "speed");
        t.on_off("flag", &Knobs::flag, "a switch");
        t.choice<Colour>("colour", &Knobs::colour, {{"red", Colour::Red}, {"green", Colour::Green}}, "hue")
            .when([](const Knobs &k) { return k.mode == "slow"; }, "mode=slow");
        t.text("file", &Knobs::file, "a path");
        ParamTable<Inner> inner;
        inner.real("rate_ms", &Inner::rate_ms, 0, 100, "ms", "a time");
        t.include(&Knobs::inner, inner, {}, "", " (inner)", "the inner block");
        return t;
    }();
    return t;
}

// The field an InputError names, and its message; "(no error)" if parsing passes.
std::pair<std::string, std::string> refusal(const ParamMap &given)
{
    try {
        knobs_table().parse(given, "test thing", "test");
    } catch (const InputError &e) {
        return {e.field(), e.what()};
    }
    return {"(no error)", ""};
}

bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

} // namespace

TEST_CASE("a parameter table applies the declared defaults and lists them", "[params]")
{
    const Knobs k = knobs_table().parse({}, "test thing", "test");
    CHECK(k.count == 4);
    CHECK(k.ratio == 0.5);
    CHECK(k.mode == "fast");
    CHECK(k.flag);
    CHECK(k.colour == Colour::Red);
    CHECK(k.inner.rate_ms == 2.5);

    const auto infos = knobs_table().infos();
    REQUIRE(infos.size() == 7);
    CHECK(infos[0].name == "count");
    CHECK(infos[0].default_value == "4");
    CHECK(infos[0].range == "1 to 10");
    CHECK(infos[1].default_value == "0.5");
    CHECK(infos[3].default_value == "on");
    CHECK(infos[3].range == "on | off");
    CHECK(infos[5].default_value.empty()); // an empty file name is "not set"
    CHECK(infos[6].name == "rate_ms");
    CHECK(infos[6].description == "a time (inner)");
    CHECK(infos[6].unit == "ms");
    CHECK(infos[6].group == "the inner block");
}

TEST_CASE("a parameter table sets what is given", "[params]")
{
    const Knobs k = knobs_table().parse(
        {{"count", "7"}, {"ratio", "0.25"}, {"mode", "slow"}, {"flag", "off"}, {"colour", "green"}, {"rate_ms", "9"}},
        "test thing", "test");
    CHECK(k.count == 7);
    CHECK(k.ratio == 0.25);
    CHECK(k.mode == "slow");
    CHECK_FALSE(k.flag);
    CHECK(k.colour == Colour::Green);
    CHECK(k.inner.rate_ms == 9.0);
}

TEST_CASE("a parameter table refuses bad values, naming the parameter", "[params]")
{
    auto [field, msg] = refusal({{"count", "11"}});
    CHECK(field == "count");
    CHECK(contains(msg, "out of range"));
    CHECK(refusal({{"count", "three"}}).first == "count");
    CHECK(refusal({{"ratio", "-0.1"}}).first == "ratio");
    CHECK(refusal({{"rate_ms", "101"}}).first == "rate_ms");

    std::tie(field, msg) = refusal({{"mode", "medium"}});
    CHECK(field == "mode");
    CHECK(contains(msg, "fast, slow"));
    CHECK(refusal({{"flag", "yes"}}).first == "flag");

    // colour applies with mode=slow only.
    std::tie(field, msg) = refusal({{"colour", "green"}});
    CHECK(field == "colour");
    CHECK(contains(msg, "mode=slow"));
    CHECK(refusal({{"colour", "green"}, {"mode", "slow"}}).first == "(no error)");
}

TEST_CASE("a parameter table refuses unknown names, listing the known ones", "[params]")
{
    auto [field, msg] = refusal({{"cuont", "3"}});
    CHECK(field == "cuont");
    CHECK(contains(msg, "test thing"));
    CHECK(contains(msg, "count, ratio, mode, flag, colour, file, rate_ms"));
    // Policies and workloads refuse the same way.
    try {
        make_policy("cfs", {{"sched_latency", "1"}}, "test");
        FAIL("expected an InputError");
    } catch (const InputError &e) {
        CHECK(e.field() == "sched_latency");
        CHECK(contains(e.what(), "sched_latency_ns"));
    }
}

TEST_CASE("write() gives what parsing reads back to the same values", "[params]")
{
    const Knobs k = knobs_table().parse({{"count", "9"}, {"mode", "slow"}, {"colour", "green"}, {"file", "x.json"}},
                                        "test thing", "test");
    const ParamMap m = knobs_table().write(k);
    CHECK(m.at("count") == "9");
    CHECK(m.at("colour") == "green");
    CHECK(m.at("file") == "x.json");
    CHECK(knobs_table().write(knobs_table().parse(m, "test thing", "test")) == m);
    // Unset text and a parameter that does not apply are not written.
    const ParamMap d = knobs_table().write(Knobs{});
    CHECK(d.count("file") == 0);
    CHECK(d.count("colour") == 0);
}

TEST_CASE("a policy built with no parameters runs with the defaults list shows", "[params][policy]")
{
    for (const PolicyInfo &info : policy_catalog()) {
        INFO(info.name);
        const ParamMap effective = make_policy(info.name, {}, "test")->params();
        CHECK(effective.at("wakeup") == "locked");
        for (const ParamInfo &p : info.params)
            if (effective.count(p.name)) {
                INFO(p.name);
                CHECK(effective.at(p.name) == p.default_value);
            }
    }
}

TEST_CASE("every workload refuses unknown parameters, naming them", "[params][workload]")
{
    Simulation sim(std::make_shared<const Topology>(import_synthetic("pack:1 core:2 pu:1")),
                   make_policy("simple", {}, "test"), SimConfig{});
    for (const WorkloadInfo &w : workload_catalog()) {
        INFO(w.name);
        try {
            w.build(sim, {{"wakeup", "queued"}}, "test");
            FAIL("expected an InputError");
        } catch (const InputError &e) {
            CHECK(e.field() == "wakeup");
        }
    }
}
