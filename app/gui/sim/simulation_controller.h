#pragma once
// Runs a comparison: 1 to 4 Simulations of the same scenario and seed, one
// per policy, advanced in lockstep on a worker thread. The GUI timer only
// ever asks the engine to run until now + dt x speed (the simcpp20
// contract), so two panes always show the same instant and a frame is
// reproducible. Views receive immutable FrameSets (frameReady) and read the
// per-pane recordings mirrored here on the GUI thread; they never touch a
// Simulation.

#include "pane_frame.h"
#include "panels/task_snapshot.h"
#include "run_setup.h"

#include <QElapsedTimer>
#include <QObject>
#include <QThread>
#include <QTimer>

#include <atomic>
#include <memory>
#include <utility>
#include <vector>

namespace schedscope::gui {

class SimulationWorker;

class SimulationController : public QObject {
    Q_OBJECT
public:
    // Simulated seconds per real second at the slider's ends: 1/1000 real
    // time is slow enough to watch single ticks; 0 means as fast as the
    // machine allows.
    static constexpr double kMinSpeed = 0.001;
    static constexpr double kMaxSpeed = 10.0;
    static constexpr double kDefaultSpeed = 0.5;
    // Frame interval of the GUI timer (60 Hz).
    static constexpr int kFrameIntervalMs = 16;
    static constexpr qint64 kFrameIntervalNs = qint64(kFrameIntervalMs) * 1'000'000;
    // Wall time the worker may spend on one request: below a frame interval
    // so the GUI keeps painting at full speed.
    static constexpr double kAdvanceBudgetMs = 14.0;

    explicit SimulationController(QObject *parent = nullptr);
    ~SimulationController() override; // stops the worker and joins the thread

    // Starts over with a new setup, paused at time zero. The first frame
    // arrives through frameReady.
    void load(RunSetupPtr setup);
    RunSetupPtr setup() const { return setup_; }
    int paneCount() const { return setup_ ? static_cast<int>(setup_->policies.size()) : 0; }

    bool isPlaying() const { return playing_; }
    double speed() const { return speed_; } // 0 = as fast as possible
    SimTime time() const { return frame_ ? frame_->time_ns : 0; }
    SimTime furthest() const { return frame_ ? frame_->furthest_ns : 0; }
    FrameSetPtr frame() const { return frame_; }
    bool busy() const { return in_flight_; }
    // The recording of a pane as far as the frames delivered it (samples and
    // decisions; what charts and the explain view read).
    const Recording &recording(int pane) const { return mirrors_.at(pane); }

    // Blocks (running the event loop) until a frame at or past `t` arrived
    // or the runs finished; for headless screenshots and tests. Returns
    // false on timeout or if loading failed; a negative timeout waits as
    // long as it takes.
    bool runTo(SimTime t, int timeout_ms = 120000);
    // Blocks until the first frame of the current load arrived.
    bool waitLoaded(int timeout_ms = 120000);

public slots:
    void play();
    void pause();
    void togglePlay();
    void setSpeed(double sim_seconds_per_real_second);
    void stepTick();
    void seek(schedscope::SimTime t);
    void reset();
    // Re-runs the comparison with a pane's policy changed, then returns to
    // the current instant.
    void setPolicy(int pane, const schedscope::PolicySpec &policy);
    // The same for several panes at once (one re-run, one return).
    void setPolicies(const std::vector<std::pair<int, schedscope::PolicySpec>> &changes);
    // Asks the worker for a task's state at the current instant; the answer
    // arrives through taskSnapshotReady (dropped if a load or scrub came
    // first). The GUI thread never reads a Simulation the worker advances.
    void requestTaskSnapshot(int pane, schedscope::TaskId task);
    // Asks for a private copy of a pane's simulation at the current instant
    // (for analyses that read a whole Simulation); answered by paneCopyReady.
    void requestPaneCopy(int pane);

signals:
    void frameReady(schedscope::gui::FrameSetPtr frame);
    void loaded(schedscope::gui::RunSetupPtr setup);
    void loadFailed(const QString &message);
    void playingChanged(bool playing);
    // A pane's mirrored recording changed: grew, or was cut back by a scrub.
    void recordingChanged(int pane);
    void taskSnapshotReady(const schedscope::gui::TaskSnapshot &snapshot);
    void paneCopyReady(int pane, std::shared_ptr<const schedscope::Simulation> copy);

private:
    void onTimer();
    void onFrame(FrameSetPtr frame);
    void request(SimTime target, double budget_ms);
    std::uint64_t newGeneration();

    QThread thread_;
    SimulationWorker *worker_ = nullptr;
    std::atomic<std::uint64_t> generation_{0};
    QTimer timer_;
    QElapsedTimer wall_;
    qint64 last_request_wall_ns_ = 0;
    qint64 next_due_wall_ns_ = 0; // when the next frame is due while playing
    RunSetupPtr setup_;
    FrameSetPtr frame_;
    std::vector<Recording> mirrors_;
    bool playing_ = false;
    bool in_flight_ = false;
    bool load_failed_ = false;
    double speed_ = kDefaultSpeed;
    SimTime pending_seek_ = -1; // after a re-run: where to return once loaded
};

} // namespace schedscope::gui
