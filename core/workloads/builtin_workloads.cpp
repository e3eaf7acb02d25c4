#include "workloads/factories.h"

namespace schedscope {

std::vector<WorkloadInfo> builtin_workloads()
{
    return {
#define SCHEDSCOPE_WORKLOAD(id) id##_workload_info(),
#include "workloads/workload_list.h"
#undef SCHEDSCOPE_WORKLOAD
    };
}

} // namespace schedscope
