#pragma once
// For tests that build a situation by hand: a task's or process's state set
// directly, as no policy can (policies act through engine/policy_actions.h).

#include "engine/simulation.h"

namespace schedscope {

struct EngineTestAccess {
    static Task &task(Simulation &sim, TaskId t) { return sim.task_mut(t); }
    static Process &process(Simulation &sim, ProcId p) { return sim.process_mut(p); }
};

} // namespace schedscope
