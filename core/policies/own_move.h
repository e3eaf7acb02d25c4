#pragma once
// A migration a policy makes itself. The engine calls back into the policy
// while it moves the task (on_enqueue, and on_idle when the source runs
// dry), and the policy must know the move is its own: `acting` is raised
// for the move and put back as it was after.

#include "engine/simulation.h"

#include <string>

namespace schedscope {

inline bool own_move(PolicyContext sim, bool &acting, TaskId t, int to_cpu, int by_cpu, DecisionKind kind,
                     const std::string &why)
{
    const bool was = acting;
    acting = true;
    const bool ok = sim.migrate_task(t, to_cpu, by_cpu, kind, why);
    acting = was;
    return ok;
}

} // namespace schedscope
