#pragma once
// A scenario file: everything needed to reproduce a comparison — machine,
// workload, the policies with their parameters, seed, duration and model
// constants. JSON, versioned, saved atomically, and it round-trips exactly:
// scenario_to_json(parse_scenario(scenario_to_json(s))) == scenario_to_json(s).
//
//   {"schedscope_scenario": 1, "name": "...", "description": "...",
//    "topology": "sample:itanium-4way",            // or {"synthetic": ..., "distances": [[...]]}
//                                                  // or {"recorded_from": "detect", "hwloc_xml": "..."}
//    "workload": {"name": "oltp", "params": {"processes": "32"}},
//    "policies": [{"name": "sched-domains", "params": {"cache_hot_time_ms": "2.5"},
//                  "label": "2004 default"}],              // label optional
//    "seed": 1, "duration_s": 10, "repeat": 1, "sample_interval_ms": 100,
//    "model": {"mem_latency_local_ns": 90}}

#include "engine/policy.h"
#include "topology/topology.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace schedscope {

inline constexpr int kScenarioFormatVersion = 1;

struct PolicySpec {
    std::string name;
    ParamMap params;
    // The user's name for the pane; empty = generated (pane_label.h). The
    // initializer keeps {name, params} brace lists free of -Wextra warnings.
    std::string label = {};
    friend bool operator==(const PolicySpec &, const PolicySpec &) = default;
};

struct WorkloadSpec {
    std::string name;
    ParamMap params;
    friend bool operator==(const WorkloadSpec &, const WorkloadSpec &) = default;
};

struct Scenario {
    std::string name;
    std::string description;
    nlohmann::json topology = "detect"; // a SPEC string or an embedded object, kept as written
    WorkloadSpec workload;
    std::vector<PolicySpec> policies;
    std::uint64_t seed = 1;
    double duration_s = 0; // 0 = until the fixed work is done
    double sample_interval_ms = 100;
    int repeat = 1;
    std::map<std::string, double> model; // ModelParams overrides by name
    std::string source;                  // the file it came from: messages, relative paths

    friend bool operator==(const Scenario &a, const Scenario &b)
    {
        return a.name == b.name && a.description == b.description && a.topology == b.topology &&
               a.workload == b.workload && a.policies == b.policies && a.seed == b.seed &&
               a.duration_s == b.duration_s && a.sample_interval_ms == b.sample_interval_ms && a.repeat == b.repeat &&
               a.model == b.model;
    }
};

// Throws InputError naming `source`, the line (for JSON syntax errors) or the
// field (e.g. "policies[1].params.cache_hot_time_ms").
Scenario parse_scenario(const std::string &text, const std::string &source);
Scenario load_scenario(const std::string &path);
nlohmann::json scenario_to_json(const Scenario &s);
// Atomic: a failed save leaves an existing file untouched. A scenario whose
// topology is "detect" is saved with the detected machine recorded in it
// (recorded_topology_json), so that it opens as that machine anywhere.
void save_scenario(const Scenario &s, const std::string &path);
// {"recorded_from": "detect", "hwloc_xml": "<?xml ..."}: the "topology" value
// that records a detected machine.
nlohmann::json recorded_topology_json(const Topology &t);

// The scenario's machine, resolved relative to the scenario file.
std::shared_ptr<const Topology> scenario_topology(const Scenario &s);

class JsonFieldReader;
// A document's "model" object (a scenario's, a published experiment's):
// ModelParams overrides by name, each name and value checked now; a bad one
// fails naming the reader's file and the field "model.<name>".
std::map<std::string, double> read_model_overrides(const JsonFieldReader &r, const nlohmann::json &model);

} // namespace schedscope
