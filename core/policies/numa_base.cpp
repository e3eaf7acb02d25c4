#include "policies/numa_base.h"

#include "util/input_error.h"

namespace schedscope {

std::vector<ParamInfo> numa_base_infos()
{
    std::vector<ParamInfo> out{{"base", kDefaultNumaBase,
                                "the balancer underneath: cfs (Linux 3.6, what the 2012 patches applied to) or "
                                "sched-domains (the 2.6 domain balancer)"}};
    for (auto &i : CfsParams::infos())
        out.push_back({i.name, i.default_value, i.description + " (base=cfs)"});
    for (auto &i : BalancerParams::infos())
        out.push_back({i.name, i.default_value, i.description + " (base=sched-domains)"});
    return out;
}

NumaBase parse_numa_base(const ParamMap &p, const std::string &source)
{
    const std::string base = param_choice(p, "base", kDefaultNumaBase, {"cfs", "sched-domains"}, source);
    const auto other = base == "cfs" ? BalancerParams::infos() : CfsParams::infos();
    for (const auto &i : other)
        for (const auto &[k, v] : p)
            if (k == i.name || k.rfind(i.name + ".", 0) == 0)
                throw InputError(source, 0, k,
                                 "is a knob of base=" + std::string(base == "cfs" ? "sched-domains" : "cfs") +
                                     ", and this policy runs on base=" + base);
    return base == "cfs" ? NumaBase::Cfs : NumaBase::SchedDomains;
}

} // namespace schedscope
