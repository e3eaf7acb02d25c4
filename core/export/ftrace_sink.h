#pragma once
// Writes one simulation as kernel ftrace text, the format of
// /sys/kernel/tracing/trace with the tgid column, which Perfetto's systrace
// importer turns into per-CPU scheduling tracks and which reads like
// `trace-cmd report` output:
//
//   <comm>-<pid> (<tgid>) [<cpu>] <sec>.<usec>: sched_switch: prev_comm=...
//       prev_pid=... prev_prio=... prev_state=... ==> next_comm=...
//       next_pid=... next_prio=...
//
// plus sched_waking/sched_wakeup, sched_wakeup_new and sched_migrate_task.
// A task's pid is its id + 1 (pid 0 is the idle task, "swapper/N"), its tgid
// the pid of its process's first task; every task has nice 0 (prio 120).
// Lines come out in time order as the engine reports events.

#include "engine/simulation.h"
#include "export/output_file.h"
#include "export/trace_options.h"

#include <string>
#include <vector>

namespace schedscope {

class FtraceSink : public SchedEventSink {
public:
    FtraceSink(const Simulation &sim, OutputFile &out, TraceWindow window);

    // The "# tracer: nop" header Perfetto recognises the format by, with
    // `title` as a comment.
    void begin(const std::string &title);
    // Writes what is still held back (a CPU that went idle).
    void finish();

    // Kernel-style comm: no spaces or '=' (the line parsers split on them).
    static std::string comm_of(const std::string &name);

    void on_task_new(SimTime now, TaskId task, int cpu) override;
    void on_switch_in(SimTime now, int cpu, TaskId task) override;
    void on_switch_out(SimTime now, int cpu, TaskId task, TaskState leaving_as) override;
    void on_wakeup(SimTime now, TaskId task, int target_cpu, int waker_cpu) override;
    void on_migration(const MigrationRecord &m, DecisionKind kind, const std::string &reason) override;

private:
    // The engine reports a switch as "out" then "in" on the same CPU at the
    // same time; the kernel writes one sched_switch line for both. An "out"
    // waits here until its "in" arrives or any other line must be written.
    struct PendingOut {
        TaskId task = -1;
        SimTime time_ns = 0;
        TaskState state = TaskState::Runnable;
    };

    void flush_pending();
    void switch_line(SimTime now, int cpu, TaskId prev, TaskState prev_state, TaskId next);
    // "<comm>-<pid> (<tgid>) [<cpu>] <ts>: " for whatever runs on `cpu`.
    void prefix(SimTime now, int cpu);
    void task_args(TaskId task); // "comm=... pid=... prio=120"
    const std::string &comm(TaskId t, int cpu) const { return t >= 0 ? comm_[t] : idle_comm_[cpu]; }
    int pid(TaskId t) const { return t >= 0 ? t + 1 : 0; }

    const Simulation &sim_;
    OutputFile &out_;
    TraceWindow window_;
    std::vector<std::string> comm_, idle_comm_;
    std::vector<int> tgid_;           // per task
    std::vector<TaskId> cur_;         // per CPU, as the engine last reported it
    std::vector<PendingOut> pending_; // per CPU
    int pending_count_ = 0;
    std::string line_;
};

} // namespace schedscope
