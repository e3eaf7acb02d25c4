#pragma once
// The simulation thread's side of SimulationController. It owns the
// Simulations (one per pane) and touches them only from its own thread; the
// controller talks to it with queued calls and gets FrameSets back through
// the frameReady signal. Every request carries a generation: a request
// from before the latest load, reset or scrub is dropped, and long loops
// stop early when a newer generation is announced.

#include "checkpoint_store.h"
#include "frame_builder.h"
#include "pane_frame.h"
#include "panels/task_snapshot.h"
#include "run_setup.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace schedscope::gui {

class SimulationWorker : public QObject {
    Q_OBJECT
public:
    explicit SimulationWorker(std::atomic<std::uint64_t> &latest_generation);

    // Runs a fixed-work run that never ends stop here (run.h's limit).
    static SimTime time_limit(const RunSetup &setup);

public slots:
    void load(schedscope::gui::RunSetupPtr setup, quint64 generation);
    // Lockstep advance towards target_ns; gives up after budget_ms of wall
    // time and publishes wherever it got (a 1024-PU machine at full speed).
    void advance(qint64 target_ns, double budget_ms, quint64 generation);
    // Jump to an instant: restore the checkpoint before it and replay.
    void seek(qint64 target_ns, quint64 generation);
    // Reads a pane at the worker's current instant, between two advances,
    // and hands back a copy: the GUI thread never reads a live Simulation.
    void snapshotTask(int pane, qint64 task, quint64 generation);
    void copyPane(int pane, quint64 generation);

signals:
    void frameReady(schedscope::gui::FrameSetPtr frame);
    void loadFailed(QString message, quint64 generation);
    void taskSnapshotReady(schedscope::gui::TaskSnapshot snapshot, quint64 generation);
    void paneCopyReady(int pane, std::shared_ptr<const schedscope::Simulation> copy, quint64 generation);

private:
    bool stale(std::uint64_t generation) const { return generation != latest_.load(); }
    // Runs every pane to `target`, slice by slice, checkpointing on the way.
    // Returns false if it stopped early (budget spent or a newer request).
    // `playing`: once every run has finished the clock stops where the last
    // one ended (playing on at "max" would otherwise jump an hour ahead and
    // leave the whole run in the timeline's first pixel); a seek instead
    // lands on its target, as asked.
    bool run_to(SimTime target, double budget_ms, std::uint64_t generation, bool playing = false);
    void publish(std::uint64_t generation, bool continuous, double wall_ms);

    std::atomic<std::uint64_t> &latest_;
    RunSetupPtr setup_;
    std::vector<Simulation> sims_;
    std::vector<RecordingCursor> cursors_;
    CheckpointStore checkpoints_;
    SimTime now_ns_ = 0;
    SimTime furthest_ns_ = 0;
    SimTime slice_ns_ = 1'000'000; // adapts so one slice takes a few ms of wall time
    std::uint64_t generation_ = 0;
};

} // namespace schedscope::gui
