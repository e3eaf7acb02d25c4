#pragma once
// Node convergence as small multiples, the way autonuma-benchmark draws it:
// one mini chart per pane (its label as the title), each with a line per
// NUMA node coloured by node, all on the same time and MiB axes so heights
// compare across panes. One legend of node colours under the title, always
// shown, and a note under the charts naming lines that lie on top of each
// other ("nodes on top of each other: every pane 0-3"), which a single line
// cannot say by itself.

#include "panels/chart_data.h"

#include <QFontMetrics>
#include <QStringList>
#include <QWidget>

#include <set>
#include <vector>

class QGridLayout;
class QLabel;

namespace schedscope::gui {

class CursorChartView;

// How many columns `panes` mini charts take in an area of `width` x
// `height` pixels: the count that lets every cell hold the largest copy of
// a readable mini chart (wider than tall), so a wide, short dock puts them
// in one row and a tall one stacks them; never columns under 150 px, where
// the time labels crowd. Each mini keeps 125 px of height (time labels and
// a plot): a shorter area scrolls in the charts dock.
int multiples_columns(int panes, int width, int height);

// Mini chart `i`'s title in `width` pixels: its pane's label whole when it
// fits, else without the leading words all labels share (the policy name),
// cut at the width: two panes never read the same.
QString mini_title(const QStringList &names, int i, const QFontMetrics &fm, int width);

class NodeMultiplesView : public QWidget {
    Q_OBJECT
public:
    explicit NodeMultiplesView(QWidget *parent = nullptr);

    // `data` is the NodeMemory chart of every pane (ChartLine::run = pane,
    // ::group = node); `run_names` the pane labels.
    void setChartData(const ChartData &data, const QStringList &run_names, const QString &subtitle = {});
    void setTimeRange(double t_max_s);
    void setCursorTime(double t_s);
    // Whether the workload's tasks access memory of their own. Without
    // (hackbench, sembench) the view says so in place of empty charts.
    void setWorkloadMemory(bool has_memory);
    bool workloadMemory() const { return workload_memory_; }
    // The note shown instead of the charts, "" while the charts show.
    QString noMemoryText() const;
    // The height its parts need at the current width and column count:
    // title, the minis' rows at their minimum height, the node legend as
    // wrapped and the overlap note. Its minimum height, so a container
    // that scrolls (the charts dock) never squeezes the legend out.
    int neededHeight() const { return heightFor(columns_); }
    // The height this view gets when its container does not scroll (the
    // charts dock's row): what the column count is chosen for, since the
    // minis' minimum height would otherwise keep a stacked grid stacked.
    void setAvailableHeight(int height);

    // Its height is its minimum (neededHeight) or what its cell gives it,
    // never a height for its width: the charts dock's scroll area sized a
    // grid holding such a view to its preferred height (two rows of full
    // size charts, 976 px in a 324 px dock), the legend below the fold.
    bool hasHeightForWidth() const override { return false; }

    const std::vector<CursorChartView *> &charts() const { return minis_; }
    QString titleText() const;
    QString legendText() const; // the node legend as plain text
    QString legendToolTip() const;
    QString overlapText() const; // "" when no lines overlap, else the whole note
    int columns() const { return columns_; }

signals:
    void cursorDragged(double t_s);

protected:
    void resizeEvent(QResizeEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void ensureCharts(int count);
    // Puts the minis in the grid at the column count the area suits.
    void layOut();
    // The overlap note on up to three lines, cut to the width only past
    // them; the whole in its tooltip.
    void showOverlap();
    // Sets the minimum height to neededHeight().
    void updateMinimumHeight();
    int heightFor(int columns) const;
    // Each mini's title at its width (mini_title); the full label is its tooltip.
    void fitTitles();
    // setChartData's parts: the legend of the nodes holding memory (`sampled`:
    // the charts have a sample), and the note of lines on top of each other
    // from each pane's overlap groups (`names`: the pane labels).
    void setLegend(const std::set<int> &nodes, bool sampled);
    void setOverlapNote(const std::vector<QString> &pane_overlaps, const QStringList &names);

    QLabel *title_;
    QWidget *grid_host_;
    QGridLayout *grid_;
    QLabel *legend_;
    QLabel *overlap_;
    QLabel *no_memory_;
    bool workload_memory_ = true;
    std::vector<CursorChartView *> minis_;
    int columns_ = 0;
    QString overlap_text_;
    QStringList names_;
    int available_height_ = 0;
    double t_max_s_ = 1;
    double cursor_s_ = 0;
};

} // namespace schedscope::gui
