#pragma once
// The named policies and workloads that users pick from (CLI, scenarios,
// GUI), each with its parameters, defaults and a one-line description.
// Listing is explicit (policies/builtin_policies.cpp,
// workloads/builtin_workloads.cpp): self-registration from a static library
// would be dropped by the linker. The catalog sits above the engine, the
// policies and the workloads; none of them includes it.

#include "params/params.h"
#include "policies/policy_info.h"
#include "workloads/workload_info.h"

#include <memory>
#include <string>
#include <vector>

namespace schedscope {

const std::vector<PolicyInfo> &policy_catalog();
const std::vector<WorkloadInfo> &workload_catalog();
const PolicyInfo &find_policy(const std::string &name, const std::string &source);
const WorkloadInfo &find_workload(const std::string &name, const std::string &source);

// Builds the policy with defaults filled in, handling the `wakeup` knob and
// rejecting unknown parameter names.
std::unique_ptr<Policy> make_policy(const std::string &name, const ParamMap &params, const std::string &source);
// The `wakeup` row (engine/wakeup_param.h) with the default the policy takes
// with these parameters (autonuma's follows its `base`); its default is
// empty when the parameters do not build a policy.
ParamInfo wakeup_info(const std::string &policy, const ParamMap &params);

} // namespace schedscope
