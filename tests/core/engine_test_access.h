#pragma once
// For tests that build a situation by hand: a task's or process's state set
// directly, as no policy can (policies act through engine/policy_actions.h).

#include "engine/simulation.h"

namespace schedscope {

struct EngineTestAccess {
    static Task &task(Simulation &sim, TaskId t) { return sim.task_mut(t); }
    static Process &process(Simulation &sim, ProcId p) { return sim.process_mut(p); }
    // A post to a channel from kernel code running on `waker_cpu`, as a
    // task's Post operation makes it.
    static void post(Simulation &sim, int channel, std::int64_t tokens, int waker_cpu)
    {
        sim.post_tokens(channel, tokens, waker_cpu);
    }
    // One line's transfer from `owner_cpu`'s cache to `by_cpu`, as the
    // engine prices a lock's or a message's line.
    static double lock_transfer_ns(const Simulation &sim, int owner_cpu, int by_cpu)
    {
        return sim.lock_transfer_ns(owner_cpu, by_cpu);
    }
};

} // namespace schedscope
