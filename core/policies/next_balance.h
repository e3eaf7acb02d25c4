#pragma once
// The earliest time one of a CPU's balancing levels is due, kept between
// ticks so that the tick can skip a CPU with no level due: both periodic
// balancers keep one per CPU (the 2.6.9 one in domain_balancer.h, 3.6's in
// cfs_balancer.h), each derived from its own levels, for the CPU idle and
// for it busy (a level's interval is longer while the CPU is busy).

#include "engine/sim_types.h"

#include <cstdio>
#include <cstdlib>

namespace schedscope {

struct NextBalance {
    SimTime idle = 0, busy = 0;
    SimTime at(bool cpu_idle) const { return cpu_idle ? idle : busy; }
};

// SCHEDSCOPE_CHECK_INVARIANTS (docs/reliability.md): the kept times against
// those `derived` from the levels now; `who` names the balancer in the
// message. With `zero_is_forgotten`, a kept 0 means the next tick walks the
// levels anyway, and is not compared.
inline void check_kept_next_balance(const char *who, SimTime now, int cpu, const NextBalance &kept,
                                    const NextBalance &derived, bool zero_is_forgotten)
{
    for (const bool idle : {true, false}) {
        const SimTime k = kept.at(idle), d = derived.at(idle);
        if ((zero_is_forgotten && k == 0) || k == d)
            continue;
        std::fprintf(stderr,
                     "schedscope: invariant broken at t=%lld ns: %s next periodic balance of %s CPU %d is kept as "
                     "%lld ns, its levels say %lld ns\n",
                     static_cast<long long>(now), who, idle ? "idle" : "busy", cpu, static_cast<long long>(k),
                     static_cast<long long>(d));
        std::abort();
    }
}

} // namespace schedscope
