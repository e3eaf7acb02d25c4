#include "catalog/catalog.h"

#include "policies/factories.h"
#include "util/input_error.h"
#include "workloads/factories.h"

namespace schedscope {

const std::vector<PolicyInfo> &policy_catalog()
{
    static const std::vector<PolicyInfo> list = builtin_policies();
    return list;
}

const std::vector<WorkloadInfo> &workload_catalog()
{
    // Each workload's build refuses parameter names its table does not
    // declare (a policy's `wakeup`, a typo), as make_policy does for policies.
    static const std::vector<WorkloadInfo> list = builtin_workloads();
    return list;
}

namespace {
template <class Info>
const Info &find_in(const std::vector<Info> &list, const std::string &name, const std::string &what,
                    const std::string &source)
{
    for (auto &i : list)
        if (i.name == name)
            return i;
    std::string known;
    for (auto &i : list)
        known += (known.empty() ? "" : ", ") + i.name;
    throw InputError(source, 0, what, "unknown " + what + " '" + name + "' (known: " + known + ")");
}
} // namespace

const PolicyInfo &find_policy(const std::string &name, const std::string &source)
{
    return find_in(policy_catalog(), name, "policy", source);
}

const WorkloadInfo &find_workload(const std::string &name, const std::string &source)
{
    return find_in(workload_catalog(), name, "workload", source);
}

std::unique_ptr<Policy> make_policy(const std::string &name, const ParamMap &params, const std::string &source)
{
    const PolicyInfo &info = find_policy(name, source);
    std::vector<ParamInfo> known = info.params;
    known.push_back(wakeup_param_info());
    check_param_names(params, known, "policy '" + name + "'", source);
    auto policy = info.make(params, source);
    const std::string w = param_choice(params, "wakeup",
                                       policy->default_wakeup_mode() == WakeupMode::Queued ? "queued" : "locked",
                                       {"locked", "queued"}, source);
    policy->set_wakeup_mode(w == "queued" ? WakeupMode::Queued : WakeupMode::Locked);
    return policy;
}

} // namespace schedscope
