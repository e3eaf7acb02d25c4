#pragma once
// The built-in workloads, listed for the catalog (catalog/catalog.cpp).
// One file per workload (the autonuma-benchmark variants share one per
// program); helpers they share are in workload_support.h.

#include "workloads/workload_info.h"

#include <vector>

namespace schedscope {

std::vector<WorkloadInfo> builtin_workloads();

WorkloadInfo spin_workload_info();
WorkloadInfo numa01_workload_info();
WorkloadInfo numa01_thread_alloc_workload_info();
WorkloadInfo numa02_workload_info();
WorkloadInfo numa02_smt_workload_info();
WorkloadInfo stream_workload_info();
WorkloadInfo hackbench_workload_info();
WorkloadInfo kernbench_workload_info();
WorkloadInfo numa_test_workload_info();
WorkloadInfo sembench_workload_info();
WorkloadInfo specjbb_workload_info();
WorkloadInfo oltp_workload_info();

} // namespace schedscope
