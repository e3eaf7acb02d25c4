#pragma once
// An optional interface a Policy may also implement: its own timeslice in
// place of the engine's CFS-style slicing (a period shared by the runnable
// tasks, floored), for schedulers whose slices were fixed per task, like
// the O(1) scheduler of Linux 2.5/2.6. The engine asks once per tick.

#include "engine/sim_types.h"

namespace schedscope {

class TimesliceSource {
public:
    virtual ~TimesliceSource() = default;
    // How long the current task of a runqueue holding `nr_running` (> 1)
    // runs before the next one; negative = the engine's slicing.
    virtual SimTime timeslice_ns(int nr_running) const = 0;
};

} // namespace schedscope
