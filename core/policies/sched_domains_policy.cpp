// `sched-domains`: the 2.6 domain balancer as it is, with no NUMA affinity,
// and what 2.6.9's scheduler does beside it: exec-only balancing of new
// tasks and the O(1) runqueues (policies/domain_269.cpp, o1_arrays.h). It is
// the baseline the NUMA policies are compared with.

#include "policies/domain_balancer.h"
#include "policies/factories.h"

namespace schedscope {

namespace {

class SchedDomainsPolicy final : public DomainBalancer {
public:
    explicit SchedDomainsPolicy(BalancerParams p) : DomainBalancer(std::move(p), Scope::Whole) {}
    std::unique_ptr<Policy> clone() const override { return std::make_unique<SchedDomainsPolicy>(*this); }
    std::string name() const override { return "sched-domains"; }
    ParamMap params() const override { return base_params(); }
};

} // namespace

PolicyInfo sched_domains_policy_info()
{
    return policy_info<BalancerParams>(
        "sched-domains",
        "Linux 2.6.9's scheduler: scheduling domains (SMT, cache, package, NUMA levels of the machine) with "
        "cache-hot protection, new tasks balanced at exec only, the O(1) timeslices and active/expired arrays; "
        "the balancer with no NUMA affinity.",
        BalancerParams::table(), [](const BalancerParams &p) { return std::make_unique<SchedDomainsPolicy>(p); });
}

} // namespace schedscope
