#pragma once
// The balancer a NUMA policy (autonuma, sched-numa) runs on, picked by its
// `base` parameter: `cfs`, Linux 3.6's CFS balancer, which the 2012 patches
// (AutoNUMA27, sched/numa) applied to, or `sched-domains`, the 2.6 domain
// balancer these policies ran on before. Each base takes its own knobs; a
// knob of the other base is refused with a message naming `base`.

#include "params/param_table.h"
#include "policies/balancer_params.h"
#include "policies/cfs_balancer.h"
#include "policies/cfs_params.h"
#include "policies/domain_balancer.h"

#include <memory>
#include <type_traits>

namespace schedscope {

enum class NumaBase { Cfs, SchedDomains };

struct NumaBaseParams {
    NumaBase base = NumaBase::Cfs;
    CfsParams cfs;          // base=cfs
    BalancerParams domains; // base=sched-domains
};

// `base` and both bases' knobs, each base's only where it applies.
const ParamTable<NumaBaseParams> &numa_base_table();

template <class Base> constexpr const char *numa_base_name()
{
    return std::is_same_v<Base, CfsBalancer> ? "cfs" : "sched-domains";
}

// Builds Policy<CfsBalancer> or Policy<DomainBalancer> from the base's own
// parameters and `rest`, as `base` says.
template <template <class> class Policy, class Rest>
std::unique_ptr<schedscope::Policy> make_on_numa_base(const NumaBaseParams &nb, const Rest &rest)
{
    if (nb.base == NumaBase::Cfs)
        return std::make_unique<Policy<CfsBalancer>>(nb.cfs, rest);
    return std::make_unique<Policy<DomainBalancer>>(nb.domains, rest);
}

} // namespace schedscope
