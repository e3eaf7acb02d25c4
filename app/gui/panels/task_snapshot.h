#pragma once
// What the explain view shows about one task, taken from a Simulation at one
// moment: where it has been (its path over CPUs, from the recorded
// migrations), how warm each cache holding part of its working set is, and
// on which nodes its process's memory lives. A copy, so the simulation can
// move on (or run on another thread) while the view shows it.

#include "engine/simulation.h"

#include <string>
#include <vector>

namespace schedscope::gui {

struct TaskSnapshot {
    struct Hop {
        SimTime time_ns = 0;
        int from_cpu = -1, to_cpu = -1;
        DistanceClass cls = DistanceClass::Self;
        SimTime since_last_ran_ns = 0;
    };
    struct Warmth {
        ObjId cache = kNoObj;
        int level = 0;
        std::string label; // "L2 #3 (CPUs 2-3)"
        double bytes = 0;  // of this task's working set held there
        double capacity_bytes = 0;
        bool above_current_cpu = false; // the caches it would run warm on now
    };

    int pane = -1;
    TaskId task = -1;
    std::string name, process;
    ProcId proc = -1;
    std::string state;
    SimTime at_ns = 0;      // when the snapshot was taken
    int first_cpu = kNoCpu; // where it was placed first, if logged or inferable
    int cpu = kNoCpu;       // where it is (or last ran)
    std::vector<Hop> path;  // in time order
    double working_set_bytes = 0;
    std::vector<Warmth> warmth;               // caches holding some of it, L1 first
    std::vector<double> process_node_bytes;   // [node]
    std::vector<double> access_share_by_node; // [node] share of its accesses, 0..1
    int preferred_node = kNoNode;
};

TaskSnapshot take_task_snapshot(const Simulation &sim, TaskId task, int pane = -1);

// Where the task was at time t according to the snapshot's path (its first
// CPU before any move); kNoCpu when unknown.
int cpu_at(const TaskSnapshot &snapshot, SimTime t_ns);

} // namespace schedscope::gui
