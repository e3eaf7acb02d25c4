#include "policies/factories.h"

namespace schedscope {

std::vector<PolicyInfo> builtin_policies()
{
    return {simple_policy_info(),   linux25_numa_policy_info(), sched_domains_policy_info(), cfs_policy_info(),
            autonuma_policy_info(), sched_numa_policy_info(),   bind_policy_info()};
}

} // namespace schedscope
