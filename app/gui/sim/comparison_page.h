#pragma once
// The comparison tab: the panes, the legend and the playback bar around a
// SimulationController. It wires them together so the main window only
// hands it scenarios and routes menu actions to it.

#include "engine/sim_types.h"
#include "run_setup.h"

#include <QElapsedTimer>
#include <QWidget>

#include <memory>
#include <utility>
#include <vector>

class QLabel;

namespace schedscope::gui {

// The line above the panes for someone who has not pressed Play yet
// ("Space to play"), and, when the comparison runs on a detected machine
// with a single NUMA node, an offer of a NUMA machine or the NUMA lesson
// (links "open:numa-sample" and "open:numa-lesson"). Empty: no hint.
QString start_hint_html(const RunSetup *setup, bool has_played);

class ComparisonView;
class PlaybackBar;
class SimulationController;

class ComparisonPage : public QWidget {
    Q_OBJECT
public:
    explicit ComparisonPage(QWidget *parent = nullptr);

    // Validates and starts the scenario paused at time zero. On bad input
    // returns false with the reason in *error and keeps the current run.
    bool loadScenario(const Scenario &scenario, std::shared_ptr<const Topology> topology, QString *error);

    SimulationController *controller() const { return controller_; }
    ComparisonView *view() const { return view_; }
    PlaybackBar *bar() const { return bar_; }
    QLabel *hint() const { return hint_; }
    // The playing speed (simulated seconds per real second, 0 = as fast as
    // possible), set on the controller and shown on the slider (--speed).
    void setSpeed(double speed);

public slots:
    // Opens the parameters dialog of a pane; on "Re-run" the comparison runs
    // again with the change and scenarioModified reports the new scenario.
    void editPane(int pane);
    // Re-runs with the given panes' policies changed (the profiler's "Use
    // for sched-domains"), returns to the current instant and reports the
    // new scenario through scenarioModified.
    void applyPolicies(const std::vector<std::pair<int, schedscope::PolicySpec>> &changes);

signals:
    void scenarioModified(const schedscope::Scenario &scenario);
    void loadFailed(const QString &message);
    void hintLinkActivated(const QString &link);

private:
    void updateHint();
    void updateHeaders(const std::vector<schedscope::PolicySpec> &policies);

    SimulationController *controller_;
    QElapsedTimer rate_wall_;
    SimTime rate_from_ns_ = 0;
    ComparisonView *view_;
    PlaybackBar *bar_;
    QLabel *hint_ = nullptr;
    bool has_played_ = false;
};

} // namespace schedscope::gui
