#pragma once
// Immutable snapshots the simulation thread hands to the GUI thread. The
// panes paint only from these, never from a Simulation, so the two threads
// share no mutable state: a FrameSet is built on the worker, wrapped in a
// shared_ptr<const>, and travels through a queued signal.

#include "engine/recording.h"
#include "engine/sim_types.h"

#include <QMetaType>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace schedscope::gui {

struct PuFrame {
    TaskId current = -1;
    std::vector<TaskId> queued; // runnable on this PU's runqueue, in queue order
};

struct TaskFrame {
    ProcId proc = 0;
    // Index into PaneFrame::colour_names: the process, or the task itself
    // when each task is a process of its own (OLTP servers).
    int colour = 0;
    int cpu = kNoCpu;
    TaskState state = TaskState::NotStarted;
};

struct CacheFrame {
    ObjId obj = kNoObj;
    float heat = 0;    // used / capacity, 0..1
    int dominant = -1; // colour index (TaskFrame::colour) holding most of it, -1 if empty
};

struct MoveFrame {
    TaskId task = -1;
    int from_cpu = kNoCpu;
    int to_cpu = kNoCpu;
    DistanceClass cls = DistanceClass::Self;
};

// What a pane's header shows.
struct PaneFigures {
    bool fixed_work = true;
    double progress = 0;   // 0..1 (fixed work)
    double throughput = 0; // ops per simulated second (throughput workloads)
    double idle_pct = 0;   // since the start
    std::int64_t migrations = 0;
    std::array<std::int64_t, kDistanceClassCount> migrations_by_class{};
    double local_pct = 100; // local share of modelled memory accesses since the start
    double sys_s = 0;
    bool finished = false;
    SimTime end_ns = 0; // when it finished
};

struct PaneFrame {
    std::string policy; // display name, e.g. "sched-domains"
    std::vector<PuFrame> pus;
    std::vector<TaskFrame> tasks;
    std::vector<CacheFrame> caches;
    std::vector<std::string> process_names;
    // What each colour stands for: the process names, or the task names
    // when tasks are coloured apart.
    std::vector<std::string> colour_names;
    // [process][node] resident bytes.
    std::vector<std::vector<double>> proc_node_bytes;
    double total_memory_bytes = 0; // sum over processes and nodes, scales the node bars
    // Whether the workload's tasks access memory of their own (a task with
    // memory segments, the OS noise's threads aside): hackbench's and
    // sembench's do not, and their memory per node chart has nothing to show.
    bool workload_memory = false;
    // Migrations since the previous frame; the most recent kMaxMovesPerFrame
    // only, the count is in moves_total.
    std::vector<MoveFrame> moves;
    std::int64_t moves_total = 0;
    PaneFigures figures;

    // Data for charts and the explain view: what the recording gained since
    // the previous frame.
    // The receiver first truncates its copy to *_before (a scrub back
    // shortens the recording), then appends.
    std::size_t samples_before = 0, decisions_before = 0;
    std::vector<MetricsSample> new_samples;
    std::vector<Decision> new_decisions;
};

// Past this many moves in one frame (fast playback) the animation would be a
// blur of lines anyway; the header still counts them all.
inline constexpr std::size_t kMaxMovesPerFrame = 64;

// The legend's name for the colour of the model's OS-noise kernel threads
// (core/engine/os_noise.cpp): one process named "kernel" in the model.
inline constexpr const char *kKernelColourName = "kernel threads (OS noise)";

// All panes at one simulated instant (lockstep).
struct FrameSet {
    std::uint64_t generation = 0; // which load/reset this frame belongs to
    SimTime time_ns = 0;
    SimTime furthest_ns = 0; // the furthest time ever reached: the scrubber's range
    bool all_finished = false;
    bool continuous = true; // false after a jump (scrub, reset): nothing to animate
    double wall_ms = 0;     // how long the worker took for it
    std::vector<PaneFrame> panes;
};

using FrameSetPtr = std::shared_ptr<const FrameSet>;

} // namespace schedscope::gui

Q_DECLARE_METATYPE(schedscope::gui::FrameSetPtr)
