#include "workloads/factories.h"

namespace schedscope {

std::vector<WorkloadInfo> builtin_workloads()
{
    return {
        spin_workload_info(),      numa01_workload_info(),     numa01_thread_alloc_workload_info(),
        numa02_workload_info(),    numa02_smt_workload_info(), stream_workload_info(),
        hackbench_workload_info(), kernbench_workload_info(),  numa_test_workload_info(),
        sembench_workload_info(),  specjbb_workload_info(),    oltp_workload_info(),
    };
}

} // namespace schedscope
