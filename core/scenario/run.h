#pragma once
// Turning a scenario into runs: one Simulation per (policy, seed), and the
// figures a run leaves (RunResult), as JSON and as a text report in the style
// of the kernel mailing-list comparisons.

#include "engine/simulation.h"
#include "scenario/scenario.h"

#include <nlohmann/json.hpp>

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace schedscope {

// A fixed-work run that has not finished by then is stopped and reported as
// unfinished, so that a pathological policy cannot hang a batch.
inline constexpr double kDefaultMaxSimulatedS = 3600.0;

struct RunResult {
    std::string policy;
    ParamMap params; // effective, defaults filled in
    std::uint64_t seed = 0;
    bool finished = false;    // fixed work done (or the duration reached)
    bool fixed_work = true;
    double elapsed_s = 0;
    double throughput = 0;    // CountOps per second (throughput workloads)
    double user_s = 0, sys_s = 0, idle_pct = 0;
    std::array<std::int64_t, kDistanceClassCount> migrations{}; // by DistanceClass
    std::int64_t migrations_total = 0;
    std::int64_t page_migrations = 0;
    std::int64_t hinting_faults = 0;
    double lock_wait_s = 0;
    double local_access_pct = 0; // all processes, whole run
    std::int64_t events = 0;
    nlohmann::json series;       // time series from the recording
    // From the migration analysis (analysis/migration_analysis.h).
    double hot_migration_pct = 0;     // moves of a task that ran less than cache_hot_time ago
    double refill_cost_ms = 0;        // stall while caches refilled after moves, summed over tasks
    nlohmann::json migrations_detail; // analysis/migration_json.h
};

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

nlohmann::json run_to_json(const RunResult &r, bool with_series);
// {"results":[{"policy":..., "params":{...}, "runs":[...]}]}, one entry per policy in order.
nlohmann::json results_to_json(const std::vector<std::vector<RunResult>> &by_policy, bool with_series);
// Min/Max/Avg over repeats per figure and %Change of the Avg against the first
// policy (left blank where the first policy's Avg prints as 0.000).
std::string format_report(const Scenario &s, const std::vector<std::vector<RunResult>> &by_policy);

} // namespace schedscope
