#include "policies/numa_base.h"

namespace schedscope {

const ParamTable<NumaBaseParams> &numa_base_table()
{
    static const ParamTable<NumaBaseParams> t = [] {
        ParamTable<NumaBaseParams> t;
        t.choice<NumaBase>("base", &NumaBaseParams::base,
                           {{"cfs", NumaBase::Cfs}, {"sched-domains", NumaBase::SchedDomains}},
                           "the balancer underneath: cfs (Linux 3.6, what the 2012 patches applied to) or "
                           "sched-domains (the 2.6 domain balancer)");
        t.include(
            &NumaBaseParams::cfs, CfsParams::table(), [](const NumaBaseParams &p) { return p.base == NumaBase::Cfs; },
            "base=cfs", " (base=cfs)", "base=cfs only: the parameters of `cfs`, as its table gives them");
        t.include(
            &NumaBaseParams::domains, BalancerParams::table(),
            [](const NumaBaseParams &p) { return p.base == NumaBase::SchedDomains; }, "base=sched-domains",
            " (base=sched-domains)",
            "base=sched-domains only: the parameters of `sched-domains`, as its table gives them");
        return t;
    }();
    return t;
}

} // namespace schedscope
