#pragma once
// What a policy sees of the simulation it schedules (after ns-3's narrow
// congestion-control interface): PolicyView, the engine's state through const
// queries; PolicyContext, those and the actions a policy decides through
// (moving a task, moving or arming memory, charging kernel time, locking a
// runqueue, logging why). Neither reaches the engine's driver (step,
// run_until, restore, add_task, the random stream) or its mutable tasks:
// the compiler keeps a policy to deciding. tests/core/test_policy_context.cpp
// checks that they stay out of reach.
//
// Both are one pointer, passed by value. The engine and tests hand a
// Simulation to a policy's hooks: it converts to either. The member
// functions are defined inline at the end of engine/simulation.h
// (policy_context_inline.h), where Simulation is complete.

#include "engine/recording.h"
#include "engine/sim_types.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace schedscope {

class Simulation;
class Topology;
struct ModelParams;

class PolicyView {
public:
    // NOLINTNEXTLINE(google-explicit-constructor): the engine hands itself to a policy
    PolicyView(const Simulation &sim) : sim_(&sim) {}

    inline const Topology &topology() const;
    inline const ModelParams &model() const;
    inline SimTime now() const;
    // The run's seed: a policy that needs chance of its own (a daemon's
    // phase) draws it from a stream of its own seeded by it, never from the
    // engine's, so the engine's draws stay where they were.
    inline std::uint64_t seed() const;
    inline const std::vector<Task> &tasks() const;
    inline const Task &task(TaskId t) const;
    inline const std::vector<Process> &processes() const;
    inline const Runqueue &rq(int cpu) const;
    // Runnable tasks on a PU, current included, and the array of them all
    // (valid until the next event): Simulation::nr_running().
    inline int nr_running(int cpu) const;
    inline const int *nr_running_all() const;
    inline bool cpu_idle(int cpu) const;
    // Tasks waiting on a runqueue, not running: over all PUs, on one node.
    inline std::int64_t queued_tasks() const;
    inline int queued_on_node(int node) const;
    inline int node_of_pu(int cpu) const;
    // Bytes of the task's working set in the caches above `cpu` at `level`.
    inline double warmth_on(TaskId t, int cpu, int level) const;
    // Resident bytes of a process on each node.
    inline std::vector<double> process_node_bytes(ProcId p) const;
    // Whether the engine checks its bookkeeping after every event (a policy
    // may then check its own).
    inline bool checks_each_event() const;

protected:
    friend class PolicyActions;
    const Simulation *sim_;
};

class PolicyContext : public PolicyView {
public:
    // NOLINTNEXTLINE(google-explicit-constructor): the engine hands itself to a policy
    PolicyContext(Simulation &sim) : PolicyView(sim) {}

    // --- actions (more in engine/policy_actions.h); see Simulation's ---
    inline bool migrate_task(TaskId t, int to_cpu, int by_cpu, DecisionKind kind, const std::string &reason);
    inline bool migrate_chunk(ProcId p, int chunk, int node, int by_cpu, const std::string &reason);
    inline void arm_chunk(ProcId p, int chunk, int by_cpu, double scan_cost_ns = -1);
    // Memory placed as the policy attaches, before any task runs (a binding).
    inline void place_chunks(ProcId proc, int chunk_begin, int chunk_end, int node);
    inline void charge_sys(int cpu, double ns);
    inline double lock_rq(int rq_cpu, int by_cpu, double extra_hold_ns = 0.0);
    inline void log(DecisionKind kind, TaskId t, int from, int to, std::string_view reason);
    template <class Reason> void log_lazy(DecisionKind kind, TaskId t, int from, int to, Reason &&reason);

private:
    friend class PolicyActions;
    // Built from a Simulation&, so the const_cast gives back what it was.
    Simulation &sim() const { return const_cast<Simulation &>(*sim_); }
};

} // namespace schedscope
