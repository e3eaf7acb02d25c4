#pragma once
// The built-in workloads, listed for the catalog (engine/catalog.cpp).

#include "engine/catalog.h"

#include <vector>

namespace schedscope {

std::vector<WorkloadInfo> builtin_workloads();

WorkloadInfo spin_workload_info();

} // namespace schedscope
