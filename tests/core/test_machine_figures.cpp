// Era-true machines: each sample's `model:` figures, the remote-latency rule
// (a known remote latency, SLIT only as the fallback), and the order in which
// defaults, sample figures and scenario overrides apply.

#include "engine/model_params.h"
#include "engine/simulation.h"
#include "scenario/run.h"
#include "scenario/scenario.h"
#include "topology/import.h"
#include "util/input_error.h"

#include <catch2/catch.hpp>

#include <set>
#include <string>

using namespace schedscope;

namespace {

const char *kHeader = "# schedscope-topology v1\nsynthetic: pack:2 [numa] core:1 pu:1\n";

// The error a sample with this line gives when read, or when its figures
// are applied to the model (names and ranges are the engine's to check).
std::string sample_error(const std::string &model_line)
{
    try {
        const Topology t = import_sample_text(std::string(kHeader) + model_line + "\n", "m.topo");
        ModelParams m;
        m.apply_machine_figures(t);
    } catch (const InputError &e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST_CASE("every sample carries its era's figures, each with a source", "[samples][machines]")
{
    for (const char *name :
         {"nec-tx7", "celeron-2way", "p4-ht-2way", "p3-xeon-8way", "itanium-4way", "power5-2node", "westmere-2s",
          "xeon-2node-24", "dell-r910-4node", "numa-8node-64", "dl980-8node", "big-128", "altix-1024"}) {
        INFO(name);
        const Topology t = load_topology(std::string("sample:") + name);
        std::set<std::string> names;
        for (const MachineFigure &f : t.figures()) {
            CHECK(f.source.size() > 10);
            names.insert(f.name);
        }
        CHECK(names.count("cpu_clock_ghz") == 1);
        CHECK(names.count("mem_latency_local_ns") == 1);
        CHECK(names.count("mem_misses_in_flight") == 1);
    }
    const Topology r910 = load_topology("sample:dell-r910-4node");
    bool remote = false;
    for (const MachineFigure &f : r910.figures())
        if (f.name == "mem_latency_remote_ns") {
            remote = true;
            CHECK(f.value == 195);
        }
    CHECK(remote);
}

TEST_CASE("a model line needs a known constant, a value in range and a source", "[samples][machines]")
{
    CHECK(sample_error("model: mem_latency_local_ns 100 a datasheet").empty());
    CHECK_THAT(sample_error("model: no_such_constant 1 a datasheet"),
               Catch::Contains("m.topo:3") && Catch::Contains("no_such_constant"));
    CHECK_THAT(sample_error("model: mem_latency_local_ns 100"), Catch::Contains("source"));
    CHECK_THAT(sample_error("model: mem_latency_local_ns -4 a datasheet"), Catch::Contains("out of range"));
    CHECK_THAT(sample_error("model: mem_latency_local_ns fast a datasheet"), Catch::Contains("not a number"));
    CHECK_THAT(sample_error("model: l2_latency_ns 2 a\nmodel: l2_latency_ns 3 b"), Catch::Contains("second"));
    // The value is read after the name, even when the name contains it.
    const Topology t = import_sample_text(std::string(kHeader) + "model: l2_latency_ns 2 2 cycles at 1 GHz\n", "m");
    REQUIRE(t.figures().size() == 1);
    CHECK(t.figures()[0].value == 2);
    CHECK(t.figures()[0].source == "2 cycles at 1 GHz");
}

TEST_CASE("remote latency: the machine's figure per SLIT step, else SLIT compressed by the rule", "[machines]")
{
    ModelParams m;
    REQUIRE(m.mem_latency_remote_ns == 0);
    // Fallback: 1 + (slit / 10 - 1) x 0.5.
    CHECK(m.latency_ratio(10, 20) == 1.0);
    CHECK(m.latency_ratio(20, 20) == Approx(1.5));
    CHECK(m.latency_ratio(21, 21) == Approx(1.55));
    CHECK(m.latency_ratio(30, 20) == Approx(2.0));
    // A known remote latency at the nearest remote distance (the DL980's
    // 12), and the same extra per SLIT step beyond: 135 / 195 ns, so 60 ns
    // per 2 steps; at 17: 135 + 3.5 x 60 = 345 ns.
    m.mem_latency_local_ns = 135;
    m.mem_latency_remote_ns = 195;
    CHECK(m.latency_ratio(12, 12) == Approx(195.0 / 135.0));
    CHECK(m.latency_ratio(17, 12) * 135 == Approx(345.0));
    CHECK(m.latency_ratio(10, 12) == 1.0);
}

TEST_CASE("defaults, then the sample's figures, then the scenario's overrides", "[machines]")
{
    Scenario s;
    s.topology = "sample:dell-r910-4node";
    s.workload = {"spin", {{"threads", "1"}, {"work_ms", "1"}}};
    s.policies = {{"simple", {}}};
    {
        Simulation sim = build_simulation(s, s.policies.front(), 1, scenario_topology(s));
        CHECK(sim.model().mem_latency_local_ns == 135);
        CHECK(sim.model().cpu_clock_ghz == 2.26);
        CHECK(sim.model().l1_latency_ns == 1.8);
    }
    s.model["mem_latency_local_ns"] = 90;
    Simulation sim = build_simulation(s, s.policies.front(), 1, scenario_topology(s));
    CHECK(sim.model().mem_latency_local_ns == 90);
    CHECK(sim.model().mem_latency_remote_ns == 195);
    // A synthetic machine has no figures: the generic defaults.
    s.topology = "synthetic:pack:2 [numa] core:1 pu:1";
    s.model.clear();
    Simulation plain = build_simulation(s, s.policies.front(), 1, scenario_topology(s));
    CHECK(plain.model().mem_latency_local_ns == ModelParams{}.mem_latency_local_ns);
}
