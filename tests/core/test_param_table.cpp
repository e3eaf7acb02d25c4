// The parameter tables (params/param_table.h): defaults, refusals naming the
// parameter, `when`, included tables, params() read back through parsing;
// and the example policy registered by one line, round-robin.

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
    CHECK_THROWS_AS(make_policy("round-robin", {{"strid", "2"}}, "test"), InputError);
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
        // Linux 3.6 runs with TTWU_QUEUE on; the older kernels lock.
        const bool on_36 = info.name == "cfs" || info.name == "autonuma" || info.name == "sched-numa";
        CHECK(effective.at("wakeup") == (on_36 ? "queued" : "locked"));
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

namespace {

Simulation round_robin_sim(const std::string &params)
{
    auto [name, p] = parse_name_params("round-robin:" + params, "test");
    SimConfig cfg;
    cfg.model.os_noise = 0; // the scripted tasks alone, without the OS's threads
    return Simulation(std::make_shared<const Topology>(import_synthetic("pack:1 core:4 pu:1")),
                      make_policy(name, p, "test"), cfg);
}

TaskId add_task(Simulation &sim, std::vector<Op> ops, CpuSet allowed = {})
{
    const ProcId p = sim.add_process("p" + std::to_string(sim.processes().size()), 4 << 20);
    Simulation::TaskSpec s;
    s.program.ops = std::move(ops);
    s.cpus_allowed = allowed;
    return sim.add_task(p, std::move(s));
}

const Op kCompute10Ms{Op::Kind::Compute, 10'000'000, 0, -1};

} // namespace

TEST_CASE("round-robin places each new task on the next CPU in turn, stride CPUs on", "[policy]")
{
    SECTION("stride 1")
    {
        Simulation sim = round_robin_sim("");
        for (int i = 0; i < 6; ++i)
            add_task(sim, {kCompute10Ms});
        sim.run_until(100'000);
        const std::vector<int> expected{0, 1, 2, 3, 0, 1};
        for (int t = 0; t < 6; ++t)
            CHECK(sim.task(t).cpu == expected[t]);
    }
    SECTION("stride 3 on 4 CPUs visits them all")
    {
        Simulation sim = round_robin_sim("stride=3");
        for (int i = 0; i < 5; ++i)
            add_task(sim, {kCompute10Ms});
        sim.run_until(100'000);
        const std::vector<int> expected{0, 3, 2, 1, 0};
        for (int t = 0; t < 5; ++t)
            CHECK(sim.task(t).cpu == expected[t]);
    }
    SECTION("a CPU the task may not use is skipped")
    {
        Simulation sim = round_robin_sim("");
        CpuSet only_2;
        only_2.set(2);
        add_task(sim, {kCompute10Ms}, only_2);
        add_task(sim, {kCompute10Ms});
        sim.run_until(100'000);
        CHECK(sim.task(0).cpu == 2);
        CHECK(sim.task(1).cpu == 3); // the turn went on from CPU 2
    }
}

TEST_CASE("round-robin wakes a task on the next CPU in turn, not where it slept", "[policy]")
{
    Simulation sim = round_robin_sim("");
    const TaskId t = add_task(sim, {Op{Op::Kind::Compute, 1'000'000, 0, -1}, Op{Op::Kind::Sleep, 1'000'000, 0, -1},
                                    Op{Op::Kind::Compute, 5'000'000, 0, -1}});
    sim.run_until(500'000);
    CHECK(sim.task(t).cpu == 0);
    sim.run_until(3'000'000); // woken at about 2 ms
    CHECK(sim.task(t).cpu == 1);
    CHECK(sim.policy().params().at("stride") == "1");
}
