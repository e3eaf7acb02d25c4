#pragma once
// The built-in workloads, listed for the catalog (catalog/catalog.cpp).
// One file per workload (the autonuma-benchmark variants share one per
// program), registered by one line of workloads/workload_list.h; helpers
// they share are in workload_support.h.

#include "workloads/workload_info.h"

#include <vector>

namespace schedscope {

std::vector<WorkloadInfo> builtin_workloads();

#define SCHEDSCOPE_WORKLOAD(id) WorkloadInfo id##_workload_info();
#include "workloads/workload_list.h"
#undef SCHEDSCOPE_WORKLOAD

} // namespace schedscope
