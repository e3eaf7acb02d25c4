#include "policies/factories.h"

namespace schedscope {

std::vector<PolicyInfo> builtin_policies()
{
    return {
#define SCHEDSCOPE_POLICY(id) id##_policy_info(),
#include "policies/policy_list.h"
#undef SCHEDSCOPE_POLICY
    };
}

} // namespace schedscope
