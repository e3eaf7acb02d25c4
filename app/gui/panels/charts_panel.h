#pragma once
// The analysis charts (issue 7), aligned in time with the panes: per process
// memory per node and local-access % (node convergence), throughput or
// progress, idle %, system time, and migrations per second by distance
// class, one line per policy. A shared time cursor (a red line on every
// chart) follows setCursorTime() and can be dragged; hovering shows every
// line's value; the whole panel exports as PNG and its data as CSV.
//
//   charts->setRuns({"sched-domains", "autonuma"}, {rec0, rec1}, {"numa01 p0", "numa01 p1"});
//   charts->appendSamples(1, new_samples);      // while running, per pane
//   charts->setCursorTime(sim_time_ns);         // from the panes' timeline
//   connect(charts, &ChartsPanel::cursorMoved, timeline, ...);
//
// The panel copies the samples it is given, so a simulation may keep
// recording on its own thread.

#include "panels/chart_data.h"
#include "engine/recording.h"

#include <QStringList>
#include <QWidget>

#include <memory>
#include <span>
#include <vector>

class QComboBox;
class QTimer;

namespace schedscope::gui {

class CursorChartView;

class ChartsPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChartsPanel(QWidget *parent = nullptr);

    // Replaces all runs. `process_names` label the process selector
    // (empty: "process 0", "process 1"...). A null recording is an empty run.
    void setRuns(const QStringList &names, const std::vector<std::shared_ptr<const Recording>> &recordings,
                 const QStringList &process_names = {});
    // Adds samples to one run (redraws at most every kRedrawIntervalMs).
    void appendSamples(int run, std::span<const MetricsSample> samples);
    // Cuts a run back to its samples up to t (the panes scrubbed back).
    void truncateRun(int run, SimTime t_ns);
    void setProcessNames(const QStringList &names);
    void setProcess(int process); // kAllProcesses or an index

    void setCursorTime(SimTime t_ns);
    SimTime cursorTime() const { return cursor_ns_; }

    // The data behind the charts, in display order (tests, CSV).
    std::vector<ChartData> charts() const;
    const std::vector<CursorChartView *> &views() const { return views_; }
    bool exportPng(const QString &path);
    bool exportCsv(const QString &path) const;

    static constexpr int kRedrawIntervalMs = 200;

public slots:
    void redraw();

signals:
    void cursorMoved(schedscope::SimTime t_ns);

protected:
    // Charts filled while hidden (a closed dock) keep the layout of their
    // hidden size; drawing them again once shown lays them out for real.
    void showEvent(QShowEvent *event) override;

private:
    std::vector<RunSamples> runSamples() const;
    void scheduleRedraw();
    void askExportPng();
    void askExportCsv();

    QStringList names_;
    std::vector<std::vector<MetricsSample>> samples_;
    int process_ = kAllProcesses;
    SimTime cursor_ns_ = 0;
    QComboBox *process_box_ = nullptr;
    QWidget *grid_ = nullptr;
    std::vector<CursorChartView *> views_;
    QTimer *redraw_timer_ = nullptr;
};

} // namespace schedscope::gui
