#pragma once
// Writes one simulation into a Trace Event JSON document as one process (the
// policy): a thread per task holding an "X" slice for every interval the
// task ran on a CPU (args: cpu, node, reason of the placement), "i" instant
// events for migrations, and "C" counters for each simulated process's
// memory per node and local-access %. Slices are written as they end, so
// nothing but the open intervals is held in memory.

#include "engine/simulation.h"
#include "export/chrome_trace_doc.h"
#include "export/trace_options.h"

#include <string>
#include <vector>

namespace schedscope {

class ChromeTraceSink : public SchedEventSink {
public:
    // Trace ids: pid = index + 1; a task's tid = (index + 1) * kTidStride +
    // task + 1, unique across the whole file because Perfetto's JSON import
    // keys threads by tid alone. CPU tracks take tids from kCpuTrackTid up.
    static constexpr long long kTidStride = 1'000'000;
    static constexpr long long kCpuTrackTid = 900'000;

    ChromeTraceSink(const Simulation &sim, std::string name, int index, ChromeTraceDoc &doc, TraceWindow window,
                    bool cpu_tracks);

    // Metadata (names, sort order) and the tasks already running.
    void begin();
    // Counters for the samples the simulation recorded since the last call.
    void emit_new_samples();
    // Ends the slices still open at the simulation's current time.
    void finish();

    int pid() const { return index_ + 1; }
    long long tid(TaskId t) const { return (index_ + 1) * kTidStride + t + 1; }

    void on_task_new(SimTime now, TaskId task, int cpu) override;
    void on_switch_in(SimTime now, int cpu, TaskId task) override;
    void on_switch_out(SimTime now, int cpu, TaskId task, TaskState leaving_as) override;
    void on_wakeup(SimTime now, TaskId task, int target_cpu, int waker_cpu) override;
    void on_migration(const MigrationRecord &m, DecisionKind kind, const std::string &reason) override;
    void on_decision(const Decision &d) override;

private:
    struct Run {
        int cpu = -1; // -1: not running
        SimTime since_ns = 0;
    };
    // The policy's words for the latest placement decision about a task, to
    // pair with the engine event that carries it out at the same time.
    struct PendingDecision {
        SimTime time_ns = -1;
        DecisionKind kind = DecisionKind::Other;
        int to = -1;
        std::string reason;
    };

    void close_slice(TaskId task, SimTime end_ns);
    std::string pending_reason(TaskId task, SimTime now, DecisionKind kind, int to) const;
    void metadata(const char *what, long long tid, const std::string &arg_name, const std::string &value);

    const Simulation &sim_;
    std::string name_;
    int index_;
    ChromeTraceDoc &doc_;
    TraceWindow window_;
    bool cpu_tracks_;
    std::vector<Run> runs_;                // per task
    std::vector<std::string> reason_;      // per task: why it is on its current runqueue
    std::vector<PendingDecision> pending_; // per task
    std::vector<std::string> task_name_json_;
    std::vector<std::vector<int>> nodes_seen_; // per process: nodes whose memory counter exists
    // The last sample written, by time: the recording may merge its samples
    // (RecordingLimits), so an index would not stay put.
    SimTime samples_written_until_ = -1;
    std::string line_; // reused to build each event
};

} // namespace schedscope
