// `cfs`: Linux 3.6's CFS and its load balancer, with no NUMA affinity: the
// baseline the 2012 NUMA work was measured against.

#include "policies/cfs_balancer.h"
#include "policies/factories.h"

namespace schedscope {

namespace {

class CfsPolicy final : public CfsBalancer {
public:
    using CfsBalancer::CfsBalancer;
    std::unique_ptr<Policy> clone() const override { return std::make_unique<CfsPolicy>(*this); }
    std::string name() const override { return "cfs"; }
    ParamMap params() const override { return base_params(); }
};

} // namespace

PolicyInfo cfs_policy_info()
{
    return policy_info<CfsParams>(
        "cfs",
        "Linux 3.6 CFS: vruntime-ordered runqueues with nice weights, wakeup preemption, and its load balancer "
        "(SMT/MC/CPU/NUMA domains, weighted cpu_load[], wake_affine, select_idle_sibling, new-idle balancing gated "
        "by avg_idle).",
        CfsParams::table(), [](const CfsParams &p) { return std::make_unique<CfsPolicy>(p); });
}

} // namespace schedscope
