#include "catalog/catalog.h"

#include "engine/wakeup_param.h"
#include "policies/factories.h"
#include "util/input_error.h"
#include "workloads/factories.h"

#include <exception>

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
    known.push_back(wakeup_param_row());
    const std::string what = "policy '" + name + "'";
    check_param_names(params, known, what, source);
    auto policy = info.make(params, source);
    ParamMap wakeup;
    if (const auto it = params.find(wakeup_param_name()); it != params.end())
        wakeup.insert(*it);
    policy->set_wakeup_mode(wakeup_table(policy->default_wakeup_mode()).parse(wakeup, what, source).mode);
    return policy;
}

ParamInfo wakeup_info(const std::string &policy, const ParamMap &params)
{
    ParamMap own = params;
    own.erase(wakeup_param_name());
    try {
        return wakeup_param_info(make_policy(policy, own, "wakeup default")->default_wakeup_mode());
    } catch (const std::exception &) {
        return wakeup_param_row();
    }
}

} // namespace schedscope
