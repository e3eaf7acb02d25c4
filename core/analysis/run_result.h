#pragma once
// The figures a run leaves (RunResult, filled by scenario/run.h's summarize())
// and their JSON form, which the results file, the CSV export and the GUI
// all read.

#include "engine/recording.h"
#include "params/params.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace schedscope {

// clang-tidy 14 reports bugprone-exception-escape on the implicit special
// members of this aggregate (its nlohmann::json and std::map members) from
// summarize()'s file, without naming a call; this code declares none of
// them noexcept.
struct RunResult { // NOLINT(bugprone-exception-escape)
    std::string policy;
    ParamMap params; // effective, defaults filled in
    std::uint64_t seed = 0;
    bool finished = false; // fixed work done (or the duration reached)
    bool fixed_work = true;
    double elapsed_s = 0;
    double throughput = 0; // CountOps per second (throughput workloads)
    double user_s = 0, sys_s = 0, idle_pct = 0;
    // The workload's own tasks' system time as Linux's tick-based accounting
    // reports it to `time`: their kernel work, without the interrupts that
    // arrived while they ran (counted as the interrupted user time) and
    // without the kernel threads' and the idle CPUs' kernel time, which
    // sys_s, the machine's kernel time, includes.
    double task_sys_s = 0;
    // The same tasks' user time as `time` reports it: their user mode plus
    // the interrupts the tick found them under. Both leave out the tasks a
    // benchmark does not time (TaskSpec::untimed).
    double task_user_s = 0;
    std::array<std::int64_t, kDistanceClassCount> migrations{}; // by DistanceClass
    std::int64_t migrations_total = 0;
    std::int64_t page_migrations = 0;
    std::int64_t hinting_faults = 0;
    double lock_wait_s = 0;
    double local_access_pct = 0; // all processes, whole run
    std::int64_t events = 0;
    nlohmann::json series; // time series from the recording
    // From the migration analysis (analysis/migration_analysis.h).
    double hot_migration_pct = 0;     // moves of a task that ran less than cache_hot_time ago
    double refill_cost_ms = 0;        // stall while caches refilled after moves, summed over tasks
    nlohmann::json migrations_detail; // analysis/migration_json.h
};

nlohmann::json run_to_json(const RunResult &r, bool with_series);
// {"results":[{"policy":..., "params":{...}, "runs":[...]}]}, one entry per policy in order.
nlohmann::json results_to_json(const std::vector<std::vector<RunResult>> &by_policy, bool with_series);

} // namespace schedscope
