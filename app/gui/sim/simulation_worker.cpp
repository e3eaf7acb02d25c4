#include "simulation_worker.h"

#include "scenario/run.h"
#include "util/duration_text.h"

#include <QElapsedTimer>

#include <algorithm>
#include <exception>

namespace schedscope::gui {

namespace {
// A slice is the unit between budget and cancel checks. These bounds keep
// it responsive on a 1024-PU machine (one tick can take milliseconds) and
// cheap on a 2-PU one.
constexpr SimTime kMinSliceNs = 50'000;
constexpr SimTime kMaxSliceNs = 50'000'000;
constexpr double kSliceTargetWallMs = 4.0;
} // namespace

SimulationWorker::SimulationWorker(std::atomic<std::uint64_t> &latest_generation) : latest_(latest_generation) {}

SimTime SimulationWorker::time_limit(const RunSetup &setup)
{
    const double s = setup.scenario.duration_s > 0 ? setup.scenario.duration_s : kDefaultMaxSimulatedS;
    return seconds_as_ns(s); // as build_simulation rounds the duration
}

void SimulationWorker::load(RunSetupPtr setup, quint64 generation)
{
    if (stale(generation))
        return;
    generation_ = generation;
    sims_.clear();
    cursors_.clear();
    checkpoints_.clear();
    now_ns_ = furthest_ns_ = 0;
    setup_ = std::move(setup);
    try {
        for (const PolicySpec &p : setup_->policies)
            sims_.push_back(build_simulation(setup_->scenario, p, setup_->scenario.seed, setup_->topology));
    } catch (const std::exception &e) {
        sims_.clear();
        emit loadFailed(QString::fromStdString(e.what()), generation);
        return;
    }
    cursors_.resize(sims_.size());
    std::vector<Simulation::Checkpoint> cps;
    for (const Simulation &s : sims_)
        cps.push_back(s.checkpoint());
    checkpoints_.add(0, std::move(cps));
    publish(generation, false, 0);
}

bool SimulationWorker::run_to(SimTime target, double budget_ms, std::uint64_t generation, bool playing)
{
    QElapsedTimer wall;
    wall.start();
    const SimTime start_ns = now_ns_, furthest_before_ns = furthest_ns_;
    const auto all_finished = [this] {
        return std::all_of(sims_.begin(), sims_.end(), [](const Simulation &s) { return s.finished(); });
    };
    // The last slice ran past the end of the last run; the clock shows when
    // that run ended (never before this request began).
    const auto stop_at_end = [&] {
        SimTime last_end = 0;
        for (const Simulation &s : sims_)
            last_end = std::max(last_end, s.end_time());
        now_ns_ = std::clamp(last_end, start_ns, now_ns_);
        furthest_ns_ = std::max(furthest_before_ns, now_ns_);
        return true;
    };
    target = std::min(target, time_limit(*setup_));
    while (now_ns_ < target) {
        if (stale(generation))
            return false;
        const bool all_done = all_finished();
        if (all_done && playing)
            return stop_at_end();
        if (all_done) {
            // Nothing can happen any more, so time passes straight to the
            // target: where a seek lands must not depend on the slice sizes,
            // which follow wall time (a loaded machine stopped short).
            now_ns_ = target;
            furthest_ns_ = std::max(furthest_ns_, now_ns_);
            return true;
        }
        SimTime end = std::min({target, now_ns_ + slice_ns_, checkpoints_.next_due()});
        if (end <= now_ns_)
            end = std::min(target, now_ns_ + slice_ns_);
        QElapsedTimer slice;
        slice.start();
        for (Simulation &s : sims_)
            s.run_until(end);
        now_ns_ = end;
        furthest_ns_ = std::max(furthest_ns_, now_ns_);
        if (now_ns_ >= checkpoints_.next_due()) {
            std::vector<Simulation::Checkpoint> cps;
            for (const Simulation &s : sims_)
                cps.push_back(s.checkpoint());
            checkpoints_.add(now_ns_, std::move(cps));
        }
        if (playing && all_finished())
            return stop_at_end();
        // Aim each slice at a few ms of wall time whatever the machine size.
        const double ms = static_cast<double>(slice.nsecsElapsed()) / 1e6;
        if (ms < kSliceTargetWallMs / 2)
            slice_ns_ = std::min(kMaxSliceNs, slice_ns_ * 2);
        else if (ms > kSliceTargetWallMs * 2)
            slice_ns_ = std::max(kMinSliceNs, slice_ns_ / 2);
        if (budget_ms > 0 && static_cast<double>(wall.nsecsElapsed()) / 1e6 >= budget_ms)
            return now_ns_ >= target;
    }
    return true;
}

void SimulationWorker::advance(qint64 target_ns, double budget_ms, quint64 generation)
{
    if (stale(generation) || sims_.empty())
        return;
    QElapsedTimer wall;
    wall.start();
    run_to(target_ns, budget_ms, generation, true);
    if (!stale(generation))
        publish(generation, true, static_cast<double>(wall.nsecsElapsed()) / 1e6);
}

void SimulationWorker::seek(qint64 target_ns, quint64 generation)
{
    if (stale(generation) || sims_.empty())
        return;
    QElapsedTimer wall;
    wall.start();
    target_ns = std::clamp<qint64>(target_ns, 0, time_limit(*setup_));
    if (target_ns < now_ns_) {
        const CheckpointStore::Entry *cp = checkpoints_.at_or_before(target_ns);
        // Time zero is always stored, so there is one.
        for (size_t i = 0; i < sims_.size(); ++i)
            sims_[i].restore(cp->panes[i]);
        now_ns_ = cp->time_ns;
    }
    // No budget: a seek must land exactly where asked (or be superseded).
    if (!run_to(target_ns, 0, generation))
        return;
    publish(generation, false, static_cast<double>(wall.nsecsElapsed()) / 1e6);
}

void SimulationWorker::snapshotTask(int pane, qint64 task, quint64 generation)
{
    if (stale(generation) || pane < 0 || pane >= static_cast<int>(sims_.size()))
        return;
    // Always answer, even for a task not forked yet: the view waits for it.
    emit taskSnapshotReady(take_task_snapshot(sims_[static_cast<std::size_t>(pane)], static_cast<TaskId>(task), pane),
                           generation);
}

void SimulationWorker::copyPane(int pane, quint64 generation)
{
    if (stale(generation) || pane < 0 || pane >= static_cast<int>(sims_.size()))
        return;
    emit paneCopyReady(pane, std::make_shared<const Simulation>(sims_[static_cast<std::size_t>(pane)]), generation);
}

void SimulationWorker::publish(std::uint64_t generation, bool continuous, double wall_ms)
{
    auto frame = std::make_shared<FrameSet>();
    frame->generation = generation;
    frame->time_ns = now_ns_;
    frame->furthest_ns = furthest_ns_;
    frame->continuous = continuous;
    frame->wall_ms = wall_ms;
    frame->all_finished = true;
    for (size_t i = 0; i < sims_.size(); ++i) {
        frame->panes.push_back(build_pane_frame(sims_[i], setup_->fixed_work, cursors_[i], setup_->colour_by_task));
        frame->all_finished &= sims_[i].finished();
    }
    if (now_ns_ >= time_limit(*setup_))
        frame->all_finished = true;
    emit frameReady(std::move(frame));
}

} // namespace schedscope::gui
