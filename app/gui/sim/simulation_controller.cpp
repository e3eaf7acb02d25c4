#include "simulation_controller.h"

#include "frame_builder.h"
#include "simulation_worker.h"

#include <QCoreApplication>
#include <QEventLoop>

#include <algorithm>

namespace schedscope::gui {

namespace {
// A stalled GUI (a modal dialog, a debugger) must not turn into one giant
// simulated leap when it resumes.
constexpr qint64 kMaxFrameWallNs = 100'000'000;
// "As fast as possible" still asks for a finite target per request; the
// worker's wall budget is what limits it.
constexpr SimTime kFastTargetNs = 3'600'000'000'000;
} // namespace

SimulationController::SimulationController(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<FrameSetPtr>();
    qRegisterMetaType<RunSetupPtr>();
    qRegisterMetaType<SimTime>("schedscope::SimTime");
    qRegisterMetaType<TaskSnapshot>("schedscope::gui::TaskSnapshot");
    qRegisterMetaType<std::shared_ptr<const Simulation>>("std::shared_ptr<const schedscope::Simulation>");
    worker_ = new SimulationWorker(generation_);
    worker_->moveToThread(&thread_);
    connect(worker_, &SimulationWorker::frameReady, this, &SimulationController::onFrame, Qt::QueuedConnection);
    connect(
        worker_, &SimulationWorker::loadFailed, this,
        [this](const QString &message, quint64 generation) {
            if (generation != generation_.load())
                return;
            in_flight_ = false;
            load_failed_ = true;
            pause();
            emit loadFailed(message);
        },
        Qt::QueuedConnection);
    connect(
        worker_, &SimulationWorker::taskSnapshotReady, this,
        [this](const TaskSnapshot &snapshot, quint64 generation) {
            if (generation == generation_.load())
                emit taskSnapshotReady(snapshot);
        },
        Qt::QueuedConnection);
    connect(
        worker_, &SimulationWorker::paneCopyReady, this,
        [this](int pane, std::shared_ptr<const Simulation> copy, quint64 generation) {
            if (generation == generation_.load())
                emit paneCopyReady(pane, std::move(copy));
        },
        Qt::QueuedConnection);
    thread_.setObjectName(QStringLiteral("schedscope-sim"));
    thread_.start();
    timer_.setTimerType(Qt::PreciseTimer);
    timer_.setSingleShot(true);
    connect(&timer_, &QTimer::timeout, this, &SimulationController::onTimer);
    wall_.start();
}

SimulationController::~SimulationController()
{
    // A newer generation makes the worker's loops return at the next slice,
    // so quitting never waits for a long run or seek to finish.
    generation_.fetch_add(1);
    thread_.quit();
    thread_.wait();
    delete worker_; // its thread has ended: no event can reach it any more
}

std::uint64_t SimulationController::newGeneration() { return generation_.fetch_add(1) + 1; }

void SimulationController::load(RunSetupPtr setup)
{
    pause();
    setup_ = std::move(setup);
    frame_.reset();
    mirrors_.assign(setup_ ? setup_->policies.size() : 0, Recording{});
    load_failed_ = false;
    pending_seek_ = -1;
    const std::uint64_t gen = newGeneration();
    in_flight_ = true;
    QMetaObject::invokeMethod(worker_, "load", Qt::QueuedConnection, Q_ARG(schedscope::gui::RunSetupPtr, setup_),
                              Q_ARG(quint64, gen));
    emit loaded(setup_);
}

void SimulationController::play()
{
    if (playing_ || !setup_ || load_failed_ || (frame_ && frame_->all_finished))
        return;
    playing_ = true;
    last_request_wall_ns_ = wall_.nsecsElapsed();
    next_due_wall_ns_ = last_request_wall_ns_ + kFrameIntervalNs;
    timer_.start(kFrameIntervalMs);
    emit playingChanged(true);
}

void SimulationController::pause()
{
    if (!playing_)
        return;
    playing_ = false;
    timer_.stop();
    emit playingChanged(false);
}

void SimulationController::togglePlay() { playing_ ? pause() : play(); }

void SimulationController::setSpeed(double speed) { speed_ = speed <= 0 ? 0 : std::clamp(speed, kMinSpeed, kMaxSpeed); }

void SimulationController::request(SimTime target, double budget_ms)
{
    in_flight_ = true;
    QMetaObject::invokeMethod(worker_, "advance", Qt::QueuedConnection, Q_ARG(qint64, target), Q_ARG(double, budget_ms),
                              Q_ARG(quint64, generation_.load()));
}

void SimulationController::onTimer()
{
    const qint64 now = wall_.nsecsElapsed();
    // Back-pressure: one request at a time. A slow machine gets fewer,
    // larger steps instead of a growing queue.
    if (in_flight_ || !frame_)
        return;
    const qint64 dt = std::min(now - last_request_wall_ns_, kMaxFrameWallNs);
    last_request_wall_ns_ = now;
    // Frames are due on a fixed schedule, not a fixed distance from the
    // last one: a tick delivered late (the GUI thread was painting a chart)
    // brings the next one forward, so late ticks do not add up to lost
    // frames. A schedule more than a period behind starts again from now
    // rather than bursting to catch up.
    next_due_wall_ns_ = std::max(next_due_wall_ns_ + kFrameIntervalNs, now);
    if (speed_ <= 0) {
        request(time() + kFastTargetNs, kAdvanceBudgetMs);
        return;
    }
    const auto step = static_cast<SimTime>(static_cast<double>(dt) * speed_);
    if (step > 0)
        request(time() + step, kAdvanceBudgetMs);
}

void SimulationController::stepTick()
{
    if (!frame_ || in_flight_ || frame_->all_finished)
        return;
    pause();
    const SimTime tick = setup_ ? static_cast<SimTime>(1'000'000) : 0;
    request(time() + tick, 0);
}

void SimulationController::seek(SimTime t)
{
    if (!setup_ || load_failed_)
        return;
    const std::uint64_t gen = newGeneration();
    in_flight_ = true;
    QMetaObject::invokeMethod(worker_, "seek", Qt::QueuedConnection, Q_ARG(qint64, std::max<SimTime>(0, t)),
                              Q_ARG(quint64, gen));
}

void SimulationController::reset()
{
    pause();
    seek(0);
}

void SimulationController::setPolicy(int pane, const PolicySpec &policy) { setPolicies({{pane, policy}}); }

void SimulationController::setPolicies(const std::vector<std::pair<int, PolicySpec>> &changes)
{
    if (!setup_ || changes.empty())
        return;
    auto next = std::make_shared<RunSetup>(*setup_);
    for (const auto &[pane, policy] : changes) {
        if (pane < 0 || pane >= paneCount())
            return;
        next->policies[static_cast<std::size_t>(pane)] = policy;
    }
    // A bind-suffixed workload forces `bind`; an explicit choice in the GUI
    // is a plain policy list from now on.
    next->scenario.policies = next->policies;
    const SimTime back_to = time();
    const bool was_playing = playing_;
    load(std::move(next));
    pending_seek_ = back_to;
    if (was_playing)
        play();
}

void SimulationController::requestTaskSnapshot(int pane, TaskId task)
{
    if (!setup_ || load_failed_)
        return;
    QMetaObject::invokeMethod(worker_, "snapshotTask", Qt::QueuedConnection, Q_ARG(int, pane),
                              Q_ARG(qint64, static_cast<qint64>(task)), Q_ARG(quint64, generation_.load()));
}

void SimulationController::requestPaneCopy(int pane)
{
    if (!setup_ || load_failed_)
        return;
    QMetaObject::invokeMethod(worker_, "copyPane", Qt::QueuedConnection, Q_ARG(int, pane),
                              Q_ARG(quint64, generation_.load()));
}

void SimulationController::onFrame(FrameSetPtr frame)
{
    if (!frame || frame->generation != generation_.load())
        return; // superseded by a newer load, reset or scrub
    in_flight_ = false;
    frame_ = frame;
    for (size_t i = 0; i < frame->panes.size() && i < mirrors_.size(); ++i) {
        if (apply_to_mirror(mirrors_[i], frame->panes[i]))
            emit recordingChanged(static_cast<int>(i));
    }
    emit frameReady(frame);
    if (frame->all_finished)
        pause();
    // The next request goes out when it is due: at once for a frame that
    // took longer than the period to compute (waiting for a tick would round
    // every slow frame up to a whole number of periods: 22 ms of simulation
    // shown every 33 ms), otherwise at its place on the schedule.
    else if (playing_ && pending_seek_ < 0)
        timer_.start(
            static_cast<int>((std::max<qint64>(0, next_due_wall_ns_ - wall_.nsecsElapsed()) + 999'999) / 1'000'000));
    if (pending_seek_ >= 0) {
        const SimTime t = pending_seek_;
        pending_seek_ = -1;
        if (t > 0)
            seek(t);
    }
}

bool SimulationController::waitLoaded(int timeout_ms)
{
    QElapsedTimer waited;
    waited.start();
    while ((in_flight_ || pending_seek_ >= 0 || !frame_) && !load_failed_ &&
           (timeout_ms < 0 || waited.elapsed() < timeout_ms))
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 20);
    return frame_ && !load_failed_;
}

bool SimulationController::runTo(SimTime t, int timeout_ms)
{
    if (!waitLoaded(timeout_ms))
        return false;
    pause();
    seek(t);
    QElapsedTimer waited;
    waited.start();
    while (in_flight_ && !load_failed_ && (timeout_ms < 0 || waited.elapsed() < timeout_ms))
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 20);
    return !in_flight_ && frame_ && (frame_->time_ns >= t || frame_->all_finished);
}

} // namespace schedscope::gui
