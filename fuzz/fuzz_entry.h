#pragma once
// What each libFuzzer target feeds one input through. The targets
// (fuzz_<name>.cpp) and the regression test over the kept inputs
// (tests/core/test_fuzz_regressions.cpp, tests/data/fuzz/<name>/) call the
// same function, so an input that broke a target breaks the test too.
//
// Contract of every entry: return when the input loads, throw InputError
// when it is refused. Any other exception is a bug (libFuzzer reports it as
// a crash: it escapes LLVMFuzzerTestOneInput and terminates).

#include "scenario/scenario.h"
#include "topology/import.h"

#include <nlohmann/json.hpp>

#include <array>
#include <stdexcept>
#include <string>

namespace schedscope::fuzz {

// The `numactl --hardware` text importer.
inline void load_numactl(const std::string &text) { (void)import_numactl(text, "fuzz.txt").pu_count(); }

// schedscope's .topo sample format (samples/topologies/README.md).
inline void load_sample_text(const std::string &text) { (void)import_sample_text(text, "fuzz.topo").pu_count(); }

// hwloc synthetic descriptions ("pack:2 [numa] core:4 pu:2").
inline void load_synthetic(const std::string &text) { (void)import_synthetic(text).pu_count(); }

// hwloc XML (v1 and v2): schedscope's precheck, then hwloc's parser.
inline void load_hwloc_xml(const std::string &text) { (void)import_hwloc_xml(text, "fuzz.xml").pu_count(); }

// The scenario JSON loader, its save/load round trip and an embedded
// topology object. A topology given as a spec string is not resolved: that
// would read arbitrary files or probe the host.
inline void load_scenario(const std::string &text)
{
    const Scenario s = parse_scenario(text, "fuzz.json");
    // What we save must load back as the same scenario.
    const Scenario again = parse_scenario(scenario_to_json(s).dump(), "fuzz-roundtrip.json");
    if (scenario_to_json(again) != scenario_to_json(s))
        throw std::logic_error("scenario changed in a save/load round trip");
    if (s.topology.is_object())
        (void)import_scenario_topology(s.topology, s.source).pu_count();
}

// An hwloc-gather-topology tarball: the checking pass, the unpacking into a
// private temporary folder (removed afterwards) and hwloc reading the tree.
inline void load_snapshot_archive(const std::string &bytes)
{
    (void)import_snapshot_archive(bytes, "fuzz.tar").pu_count();
}

struct Target {
    const char *name; // fuzz_<name>, tests/data/fuzz/<name>/
    void (*load)(const std::string &input);
};

inline constexpr std::array<Target, 6> kTargets{{
    {"numactl", load_numactl},
    {"sample_text", load_sample_text},
    {"synthetic", load_synthetic},
    {"hwloc_xml", load_hwloc_xml},
    {"scenario", load_scenario},
    {"snapshot_archive", load_snapshot_archive},
}};

} // namespace schedscope::fuzz
