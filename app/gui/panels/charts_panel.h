#pragma once
// The analysis charts, aligned in time with the panes: per process
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

#include "engine/recording.h"
#include "panels/chart_data.h"

#include <QSize>
#include <QStringList>
#include <QWidget>

#include <memory>
#include <optional>
#include <span>
#include <vector>

class QCheckBox;
class QComboBox;
class QGridLayout;
class QLabel;
class QScrollArea;
class QTimer;

namespace schedscope::gui {

class CursorChartView;
class NodeMultiplesView;

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
    // A fixed-work run finished at end_s: its Progress line ends at 100 %
    // there (the last sample falls up to an interval before).
    void setRunEnd(int run, double end_s);
    // Whether the workload has fixed work (the third chart shows progress)
    // or runs for a duration (throughput). Known from the scenario before any
    // sample arrives, so the chart's title never lags a newly opened one;
    // unset, the samples decide (work_chart_kind).
    void setFixedWork(std::optional<bool> fixed_work);
    // Whether the machine has more than one NUMA node: node convergence is
    // then one of the charts that matter.
    void setNuma(bool numa);
    // Whether the workload's tasks access memory of their own
    // (PaneFrame::workload_memory): without, node convergence says so in
    // place of empty charts.
    void setWorkloadMemory(bool has_memory);
    // Off (the default): only the charts that matter, progress or
    // throughput and, on NUMA, node convergence. On: all six.
    void setShowAll(bool all);
    bool showAll() const { return show_all_; }
    // The charts on screen, in grid order (without the key).
    std::vector<QWidget *> shownCharts() const;
    int gridColumns() const { return columns_; }
    // The charts scroll in it when the dock is shorter than they need.
    QScrollArea *scrollArea() const { return scroll_; }
    void setProcessNames(const QStringList &names);
    void setProcess(int process); // kAllProcesses or an index

    void setCursorTime(SimTime t_ns);
    SimTime cursorTime() const { return cursor_ns_; }

    // Published figures drawn on the charts of their kind (dashed lines); they
    // stay through setRuns until replaced (empty: none).
    void setReferenceMarks(std::vector<ReferenceMark> marks);
    const std::vector<ReferenceMark> &referenceMarks() const { return marks_; }

    // The data behind the charts, in display order (tests, CSV).
    std::vector<ChartData> charts() const;
    // One view per chart, in display order. The first (memory per node, all
    // panes in one chart) is kept for exports but not shown: the dock shows
    // node convergence as small multiples instead (nodeMultiples()).
    const std::vector<CursorChartView *> &views() const { return views_; }
    NodeMultiplesView *nodeMultiples() const { return node_view_; }
    // The key beside the charts: each pane's colour and whole label, and the
    // migrations chart's line style per distance class (plain text).
    QString keyText() const;
    QStringList runNames() const { return names_; }
    bool exportPng(const QString &path);
    bool exportCsv(const QString &path) const;
    // Every chart on its own as DIR/<name>.png, .svg and .csv (chart_export.h).
    // Empty on success, else the reason.
    QString exportChartFiles(const QString &dir, QSize size, QStringList *written = nullptr) const;
    // The text after a chart's title: the process shown, for the per-process charts.
    QString subtitle(ChartKind kind) const;

    static constexpr int kRedrawIntervalMs = 200;
    // What the dock starts at: a row of charts below the panes, leaving them
    // most of the height (the dock's edge moves it).
    QSize sizeHint() const override { return {900, 240}; }

public slots:
    void redraw();

signals:
    void cursorMoved(schedscope::SimTime t_ns);

protected:
    // Charts filled while hidden (a closed dock) keep the layout of their
    // hidden size; drawing them again once shown lays them out for real.
    void showEvent(QShowEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    std::vector<RunSamples> runSamples() const;
    void scheduleRedraw();
    void askExportPng();
    void askExportCsv();
    void updateKey();
    // Places the shown charts and the key in a grid shaped like the panel.
    void arrangeCharts();

    QStringList names_;
    std::vector<std::vector<MetricsSample>> samples_;
    std::vector<double> ends_s_; // per run: when it finished (s), or -1
    std::vector<ReferenceMark> marks_;
    int process_ = kAllProcesses;
    std::optional<bool> fixed_work_;
    SimTime cursor_ns_ = 0;
    QComboBox *process_box_ = nullptr;
    QScrollArea *scroll_ = nullptr;
    QWidget *grid_ = nullptr;
    QGridLayout *grid_layout_ = nullptr;
    QCheckBox *all_box_ = nullptr;
    bool show_all_ = false;
    bool numa_ = true;
    int columns_ = 0;
    bool node_row_ = false; // node convergence on a row of its own (All charts)
    std::vector<QWidget *> placed_;
    std::vector<CursorChartView *> views_;
    NodeMultiplesView *node_view_ = nullptr;
    QLabel *key_ = nullptr;
    QTimer *redraw_timer_ = nullptr;
};

} // namespace schedscope::gui
