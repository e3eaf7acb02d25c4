#pragma once
// The actions a policy may take besides those on Simulation itself
// (migrate_task, migrate_chunk, arm_chunk, charge_sys, lock_rq, log). A
// policy reads the engine's state through Simulation's const queries and
// changes it only through these, so that every change goes through one
// place that checks it, charges it and tells the recording: policies never
// hold a mutable Task or Process.
//
// What a policy alone uses (a preferred node, a home node, fault
// statistics, a scanner's position) is not engine state at all: it lives in
// the policy, which clone() copies into checkpoints.

#include "engine/sim_types.h"

namespace schedscope {

class Simulation;

class PolicyActions {
public:
    // sched_setaffinity(): the PUs a task may run on. Before the run
    // (attach) any non-empty set; during it, only one that keeps the PU the
    // task is on (running or queued), since the engine would otherwise have
    // to move it. Returns false, changing nothing, when refused. Not charged:
    // a system call of the workload's setup, not the scheduler's work.
    static bool set_cpus_allowed(Simulation &sim, TaskId t, const CpuSet &cpus);

    // set_mempolicy()/mbind() for the memory a process touches from now on:
    // first touch, interleave over `nodes`, or bind to `nodes`. Memory
    // already placed stays where it is (Simulation::place_chunks moves it
    // before the run). Returns false for a node set naming no node of the
    // machine where one is needed.
    static bool set_memory_policy(Simulation &sim, ProcId p, AllocPolicy alloc, const CpuSet &nodes);

    // A fair-share policy places a task's virtual runtime when it joins a
    // runqueue (CFS place_entity()). The engine advances it as the task
    // runs (Simulation::put_prev), weighted by its nice level.
    static void set_vruntime(Simulation &sim, TaskId t, SimTime vruntime_ns);
};

} // namespace schedscope
