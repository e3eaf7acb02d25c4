#pragma once
// An optional observer of the engine's scheduling events, for exporters that
// need every run interval (who ran where, from when to when, and why it was
// placed there): the Recording keeps migrations and decisions, but not the
// context switches, which would be far too many to keep in memory.
//
// A Simulation holds at most one sink, by plain pointer, null by default: an
// unobserved run pays one branch per event. The sink is not part of the
// simulated state: checkpoint() copies leave it out, and restore() keeps the
// sink already attached (it then sees time go back to the checkpoint).
// Callbacks arrive in simulated-time order, synchronously, on the thread that
// runs the simulation; a sink must not act on the Simulation.

#include "engine/recording.h"
#include "engine/sim_types.h"

#include <string>

namespace schedscope {

class SchedEventSink {
public:
    virtual ~SchedEventSink() = default;
    // A task arrived (fork/exec) and was queued on `cpu`.
    virtual void on_task_new(SimTime /*now*/, TaskId, int /*cpu*/) {}
    // `task` starts running on `cpu`.
    virtual void on_switch_in(SimTime /*now*/, int /*cpu*/, TaskId) {}
    // `task` stops running on `cpu`; `leaving_as` is Runnable (preempted or
    // moved by a balancer), Blocked or Exited.
    virtual void on_switch_out(SimTime /*now*/, int /*cpu*/, TaskId, TaskState /*leaving_as*/) {}
    // A blocked task was woken by `waker_cpu` and will run on `target_cpu`
    // (queued there now, or once the wakeup IPI arrives).
    virtual void on_wakeup(SimTime /*now*/, TaskId, int /*target_cpu*/, int /*waker_cpu*/) {}
    // Every migration the Recording keeps, with the kind and reason of the
    // decision (kind Wakeup and an empty reason for a wakeup on another PU).
    virtual void on_migration(const MigrationRecord &, DecisionKind, const std::string & /*reason*/) {}
    // Every decision logged, including those beyond the Recording's cap.
    virtual void on_decision(const Decision &) {}
};

} // namespace schedscope
