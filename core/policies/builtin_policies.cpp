#include "policies/factories.h"

namespace schedscope {

std::vector<PolicyInfo> builtin_policies()
{
    return {simple_policy_info()};
}

} // namespace schedscope
