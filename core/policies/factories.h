#pragma once
// The built-in policies, listed for the catalog (catalog/catalog.cpp). Each
// lives in its own file and is registered by one line of
// policies/policy_list.h.

#include "policies/policy_info.h"

#include <vector>

namespace schedscope {

std::vector<PolicyInfo> builtin_policies();

#define SCHEDSCOPE_POLICY(id) PolicyInfo id##_policy_info();
#include "policies/policy_list.h"
#undef SCHEDSCOPE_POLICY

} // namespace schedscope
