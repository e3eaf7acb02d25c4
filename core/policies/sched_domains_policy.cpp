// `sched-domains`: the 2.6 domain balancer as it is, with no NUMA affinity.
// It is the baseline the NUMA policies are compared with.

#include "policies/domain_balancer.h"
#include "policies/factories.h"

namespace schedscope {

namespace {

class SchedDomainsPolicy final : public DomainBalancer {
public:
    using DomainBalancer::DomainBalancer;
    std::unique_ptr<Policy> clone() const override { return std::make_unique<SchedDomainsPolicy>(*this); }
    std::string name() const override { return "sched-domains"; }
    ParamMap params() const override { return base_params(); }
};

} // namespace

PolicyInfo sched_domains_policy_info()
{
    return policy_info<BalancerParams>(
        "sched-domains",
        "Linux 2.6 scheduling domains (SMT, cache, package, NUMA levels of the machine) with cache-hot "
        "protection; the balancer with no NUMA affinity.",
        BalancerParams::table(), [](const BalancerParams &p) { return std::make_unique<SchedDomainsPolicy>(p); });
}

} // namespace schedscope
