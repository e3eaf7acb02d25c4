#pragma once
// The named policies and workloads that users pick from (CLI, scenarios,
// GUI), each with its parameters, defaults and a one-line description.
// Listing is explicit (catalog.cpp): self-registration from a static library
// would be dropped by the linker.

#include "engine/policy.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace schedscope {

class Simulation;

struct ParamInfo {
    std::string name;
    std::string default_value;
    std::string description;
};

struct PolicyInfo {
    std::string name;
    std::string description;
    std::vector<ParamInfo> params; // besides `wakeup`, which every policy has
    // Throws InputError naming `source` and the parameter for bad values.
    std::function<std::unique_ptr<Policy>(const ParamMap &, const std::string &source)> make;
};

struct WorkloadInfo {
    std::string name;
    std::string description;
    std::vector<ParamInfo> params;
    // Adds the workload's processes and tasks to a simulation not yet started.
    std::function<void(Simulation &, const ParamMap &, const std::string &source)> build;
    bool fixed_work = true; // false: throughput over a duration
};

const std::vector<PolicyInfo> &policy_catalog();
const std::vector<WorkloadInfo> &workload_catalog();
const PolicyInfo &find_policy(const std::string &name, const std::string &source);
const WorkloadInfo &find_workload(const std::string &name, const std::string &source);

// Builds the policy with defaults filled in, handling the `wakeup` knob and
// rejecting unknown parameter names.
std::unique_ptr<Policy> make_policy(const std::string &name, const ParamMap &params, const std::string &source);

// "name:k=v,k=v" -> name and parameters; throws InputError naming `source`.
std::pair<std::string, ParamMap> parse_name_params(const std::string &text, const std::string &source);

// Parameter helpers for policy and workload factories: read a value with a
// default, checking its range; throw InputError naming source and key.
double param_double(const ParamMap &p, const std::string &key, double def, double lo, double hi,
                    const std::string &source);
std::int64_t param_int(const ParamMap &p, const std::string &key, std::int64_t def, std::int64_t lo,
                       std::int64_t hi, const std::string &source);
std::string param_choice(const ParamMap &p, const std::string &key, const std::string &def,
                         const std::vector<std::string> &choices, const std::string &source);
// Rejects keys not in `known` (plus "wakeup").
void check_param_names(const ParamMap &p, const std::vector<ParamInfo> &known, const std::string &what,
                       const std::string &source);

} // namespace schedscope
