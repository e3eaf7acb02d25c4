#include "workloads/factories.h"

namespace schedscope {

std::vector<WorkloadInfo> builtin_workloads()
{
    return {spin_workload_info()};
}

} // namespace schedscope
