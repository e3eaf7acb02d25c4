#pragma once
// The balancer a NUMA policy (autonuma, sched-numa) runs on, picked by its
// `base` parameter: `cfs`, Linux 3.6's CFS balancer, which the 2012 patches
// (AutoNUMA27, sched/numa) applied to, or `sched-domains`, the 2.6 domain
// balancer these policies ran on before. Each base takes its own knobs; a
// knob of the other base is refused with a message naming `base`.

#include "params/params.h"
#include "policies/balancer_params.h"
#include "policies/cfs_balancer.h"
#include "policies/cfs_params.h"
#include "policies/domain_balancer.h"

#include <string>
#include <type_traits>
#include <vector>

namespace schedscope {

enum class NumaBase { Cfs, SchedDomains };

inline constexpr const char *kDefaultNumaBase = "cfs";

// `base` and both bases' knobs.
std::vector<ParamInfo> numa_base_infos();
// Reads `base` and refuses the other base's knobs.
NumaBase parse_numa_base(const ParamMap &p, const std::string &source);

template <class Base> constexpr const char *numa_base_name()
{
    return std::is_same_v<Base, CfsBalancer> ? "cfs" : "sched-domains";
}

// The base's own parameters, parsed (CfsParams or BalancerParams).
template <class Base> auto parse_base_params(const ParamMap &p, const std::string &source)
{
    if constexpr (std::is_same_v<Base, CfsBalancer>)
        return CfsParams::parse(p, source);
    else
        return BalancerParams::parse(p, source);
}

} // namespace schedscope
