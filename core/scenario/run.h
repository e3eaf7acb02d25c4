#pragma once
// Turning a scenario into runs: one Simulation per (policy, seed), the
// figures a run leaves (RunResult, analysis/run_result.h), and a text report
// in the style of the kernel mailing-list comparisons.

#include "analysis/run_result.h"
#include "engine/simulation.h"
#include "scenario/scenario.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace schedscope {

// A fixed-work run that has not finished by then is stopped and reported as
// unfinished, so that a pathological policy cannot hang a batch.
inline constexpr double kDefaultMaxSimulatedS = 3600.0;

// If the workload name ends in _HARD_BIND or _INVERSE_BIND, the base name and
// the bind mode ("hard", "inverse"); otherwise the name and "".
std::pair<std::string, std::string> split_bind_suffix(const std::string &workload);

// The policies a scenario actually runs: a bind-suffixed workload runs under
// `bind` with that mode, as autonuma-benchmark does.
std::vector<PolicySpec> effective_policies(const Scenario &s);

// A simulation of the scenario under one policy and seed, built and started.
Simulation build_simulation(const Scenario &s, const PolicySpec &policy, std::uint64_t seed,
                            std::shared_ptr<const Topology> topo);

// Progress callback: fraction done 0..1; return false to stop the run early.
using RunProgress = std::function<bool(double)>;
// with_series = false leaves RunResult::series empty: on a big machine the
// series of a long run take far more memory than the run itself.
RunResult run_policy(const Scenario &s, const PolicySpec &policy, std::uint64_t seed,
                     std::shared_ptr<const Topology> topo, const RunProgress &progress = {},
                     double max_simulated_s = kDefaultMaxSimulatedS, bool with_series = true);
RunResult summarize(const Simulation &sim, bool fixed_work, bool with_series = true);

// Min/Max/Avg over repeats per figure and %Change of the Avg against the first
// policy (left blank where the first policy's Avg prints as 0.000).
std::string format_report(const Scenario &s, const std::vector<std::vector<RunResult>> &by_policy);

} // namespace schedscope
