#pragma once
// The built-in policies, listed for the catalog (catalog/catalog.cpp).

#include "policies/policy_info.h"

#include <vector>

namespace schedscope {

std::vector<PolicyInfo> builtin_policies();

// One entry per policy family; each lives in its own file.
PolicyInfo simple_policy_info();
PolicyInfo linux25_numa_policy_info();
PolicyInfo sched_domains_policy_info();
PolicyInfo cfs_policy_info();
PolicyInfo autonuma_policy_info();
PolicyInfo sched_numa_policy_info();
PolicyInfo bind_policy_info();

} // namespace schedscope
