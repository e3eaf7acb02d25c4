#pragma once
// Parameter sweeps: run one policy with each value of one of its parameters,
// `repeat` times each, and report each value relative to the first = 100
// with idle time beside it, as the historical reports tabulated their
// cache_hot_time and balancing-interval experiments.
//
// The runs are independent and seeded deterministically (repeat k uses
// seed base_seed + k for every value, so values are compared on the same
// random draws), and each result lands in its own slot: the numbers do not
// depend on how many threads ran them.

#include "engine/policy.h"

#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace schedscope {

// What one run reports; the fields the tables need.
struct SweepRun {
    double elapsed_s = 0;
    double throughput = 0; // ops/s; 0 for fixed-work workloads
    double idle_pct = 0;
    double user_s = 0;
    double sys_s = 0;
};

// Runs the policy with these parameters and this seed.
using SweepRunner = std::function<SweepRun(const ParamMap &policy_params, std::uint64_t seed)>;

struct SweepSpec {
    std::string policy;   // for reports
    ParamMap base_params; // the policy's other parameters
    std::string param;    // the one swept
    std::vector<std::string> values;
    int repeat = 1;
    std::uint64_t base_seed = 1;
    bool fixed_work = true; // true: performance = 1 / elapsed; false: throughput
};

struct SweepPoint {
    std::string value;
    std::vector<SweepRun> runs; // one per repeat, in seed order
    SweepRun mean;
    double relative = 0;        // performance relative to the first value = 100
    double relative_stddev = 0; // spread over repeats, same unit
};

struct SweepResult {
    SweepSpec spec;
    std::vector<SweepPoint> points;
};

// "a,b,c" -> {"a","b","c"}; "NAME=a,b" is split by the caller. Throws
// InputError on empty items.
std::vector<std::string> split_values(const std::string &list, const std::string &source);

// Runs every (value, repeat) on up to `threads` threads (0 = hardware
// concurrency). `progress(done, total)` is called from the calling thread
// whenever a run completes. The runner must be safe to call concurrently.
SweepResult run_sweep(const SweepSpec &spec, const SweepRunner &runner, unsigned threads = 0,
                      const std::function<void(int done, int total)> &progress = {});

// The runs of a sweep, numbered 0..points-1: point i is value i / repeat
// with seed base_seed + i % repeat, the order run_sweep fills its slots in.
// A sweep spread over cluster jobs (sweep/slurm_collect.h) runs each point
// on its own and puts the table together with assemble_sweep.
std::size_t sweep_point_count(const SweepSpec &spec);
const std::string &sweep_point_value(const SweepSpec &spec, std::size_t point);
std::uint64_t sweep_point_seed(const SweepSpec &spec, std::size_t point);
ParamMap sweep_point_params(const SweepSpec &spec, std::size_t point);

// The table run_sweep returns, from the runs of every point in point order
// (runs.size() == sweep_point_count(spec)).
SweepResult assemble_sweep(const SweepSpec &spec, const std::vector<SweepRun> &runs);

// Historical-report style: value, relative performance (first = 100.0),
// idle %, and the absolute figure.
std::string sweep_table(const SweepResult &r);
nlohmann::json sweep_json(const SweepResult &r);

// What `schedscope-cli sweep` writes, locally or collected from a cluster:
// a heading naming the scenario, policy, parameter and workload over
// sweep_table; and sweep_json with the scenario and workload, as a file.
std::string sweep_report(const std::string &scenario, const std::string &workload, const SweepResult &r);
std::string sweep_report_json(const std::string &scenario, const std::string &workload, const SweepResult &r);

} // namespace schedscope
