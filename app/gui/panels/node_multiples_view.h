#pragma once
// Node convergence as small multiples, the way autonuma-benchmark draws it:
// one mini chart per pane (its label as the title), each with a line per
// NUMA node coloured by node, all on the same time and MiB axes so heights
// compare across panes. One legend of node colours that is always shown,
// and a line under it naming lines that lie on top of each other ("nodes
// 0-3 overlap"), which a single line cannot say by itself.

#include "panels/chart_data.h"

#include <QStringList>
#include <QWidget>

#include <vector>

class QGridLayout;
class QLabel;

namespace schedscope::gui {

class CursorChartView;

class NodeMultiplesView : public QWidget {
    Q_OBJECT
public:
    explicit NodeMultiplesView(QWidget *parent = nullptr);

    // `data` is the NodeMemory chart of every pane (ChartLine::run = pane,
    // ::group = node); `run_names` the pane labels.
    void setChartData(const ChartData &data, const QStringList &run_names, const QString &subtitle = {});
    void setTimeRange(double t_max_s);
    void setCursorTime(double t_s);

    const std::vector<CursorChartView *> &charts() const { return minis_; }
    QString titleText() const;
    QString legendText() const;  // the node legend as plain text
    QString overlapText() const; // "" when no lines overlap

signals:
    void cursorDragged(double t_s);

private:
    void ensureCharts(int count);

    QLabel *title_;
    QWidget *grid_host_;
    QGridLayout *grid_;
    QLabel *legend_;
    QLabel *overlap_;
    std::vector<CursorChartView *> minis_;
    double t_max_s_ = 1;
    double cursor_s_ = 0;
};

} // namespace schedscope::gui
