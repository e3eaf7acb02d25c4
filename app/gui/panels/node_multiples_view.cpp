#include "panels/node_multiples_view.h"

#include "grid_arrange.h"
#include "panels/chart_overlap.h"
#include "panels/cursor_chart_view.h"

#include <QAbstractAxis>
#include <QChart>
#include <QCoreApplication>
#include <QGridLayout>
#include <QLabel>
#include <QLegend>
#include <QRegularExpression>
#include <QResizeEvent>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

namespace schedscope::gui {

namespace {

// A mini chart reads best at about this size: tick labels, a title and
// room for lines to part (a 50 px tall plot flattens them). The shape,
// wider than tall, is what the column count tries to keep.
constexpr double kIdealMiniWidthPx = 180;
constexpr double kIdealMiniHeightPx = 110;
// Below this a mini chart loses its time labels (CursorChartView's
// kShortCompactHeightPx) or its plot: the charts dock scrolls instead.
constexpr int kMinMiniHeightPx = 125;
constexpr int kMinMiniWidthPx = 100;
// Narrower than this, a mini's time labels crowd: fewer columns, more rows.
constexpr double kMinColumnWidthPx = 150;
// Node colours repeat past eight (CursorChartView::groupColour), and a
// 512-node legend would bury the charts: past this many nodes holding
// memory the legend names the first ones and counts the rest.
constexpr int kMaxLegendNodes = 8;
// The chart's margins either side of its title.
constexpr int kMiniTitleMarginPx = 16;
// Overlap notes past this many would push the charts out of their cell.
constexpr int kMaxOverlapNotes = 4;
// The view's margins and the spacing between its parts (title, grid,
// legend, note), and the grid's between minis.
constexpr int kMarginPx = 2;
constexpr int kSpacingPx = 1;
// The view never asks for less than this (a title and a short plot).
constexpr int kMinViewHeightPx = 175;
// Past this many nodes in one overlap group, the note counts them.
constexpr std::size_t kMaxNodesListed = 4;

bool all_zero(const ChartLine &line)
{
    return std::all_of(line.y.begin(), line.y.end(), [](double v) { return v == 0; });
}

// "0-3", "0+2": node numbers of an overlap group, short.
QString node_list(const std::vector<int> &nodes)
{
    bool consecutive = nodes.size() > 2;
    for (std::size_t i = 1; i < nodes.size(); ++i)
        consecutive = consecutive && nodes[i] == nodes[i - 1] + 1;
    if (consecutive)
        return QStringLiteral("%1-%2").arg(nodes.front()).arg(nodes.back());
    // A big machine's scattered groups (altix-1024: "1+6+9+13+18+...")
    // would fill the note: their size says enough; hovering a small chart
    // gives every node's value.
    if (nodes.size() > kMaxNodesListed)
        return QCoreApplication::translate("NodeMultiplesView", "%1 nodes").arg(nodes.size());
    QStringList parts;
    for (int n : nodes)
        parts << QString::number(n);
    return parts.join(QLatin1Char('+'));
}

} // namespace

int multiples_columns(int panes, int width, int height)
{
    panes = std::max(panes, 1);
    if (width <= 0 || height <= 0)
        return panes == 4 ? 2 : std::min(panes, 3); // no size yet: a guess
    // Among the grids whose rows all keep a mini's minimum height (so the
    // dock need not scroll), the one with the largest cells; if none does,
    // the one with the largest cells.
    int best = 1, best_fitting = 0;
    double best_scale = -1, best_fitting_scale = -1;
    for (int columns = 1; columns <= panes; ++columns) {
        if (columns > 1 && width / static_cast<double>(columns) < kMinColumnWidthPx)
            break;
        const int rows = (panes + columns - 1) / columns;
        // The largest copy of the ideal cell that fits this grid's cells.
        const double scale = std::min(width / static_cast<double>(columns) / kIdealMiniWidthPx,
                                      height / static_cast<double>(rows) / kIdealMiniHeightPx);
        if (scale > best_scale + 1e-9) {
            best_scale = scale;
            best = columns;
        }
        if (height / rows >= kMinMiniHeightPx && scale > best_fitting_scale + 1e-9) {
            best_fitting_scale = scale;
            best_fitting = columns;
        }
    }
    return best_fitting > 0 ? best_fitting : best;
}

NodeMultiplesView::NodeMultiplesView(QWidget *parent) : QWidget(parent)
{
    title_ = new QLabel(this);
    title_->setAlignment(Qt::AlignHCenter);
    grid_host_ = new QWidget(this);
    grid_ = new QGridLayout(grid_host_);
    grid_->setContentsMargins(0, 0, 0, 0);
    grid_->setSpacing(kSpacingPx);
    grid_host_->installEventFilter(this); // its size sets the column count
    legend_ = new QLabel(this);
    legend_->setTextFormat(Qt::RichText);
    legend_->setAlignment(Qt::AlignHCenter);
    legend_->setWordWrap(true);
    overlap_ = new QLabel(this);
    // Broken into lines here (showOverlap), between words, so the height it
    // takes is known when the view asks for its minimum height.
    overlap_->setWordWrap(false);
    overlap_->setAlignment(Qt::AlignHCenter);
    overlap_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    overlap_->setStyleSheet(QStringLiteral("color: #6a4a00;"));
    no_memory_ = new QLabel(this);
    no_memory_->setWordWrap(true);
    no_memory_->setAlignment(Qt::AlignCenter);
    no_memory_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(kMarginPx, kMarginPx, kMarginPx, kMarginPx);
    layout->setSpacing(kSpacingPx);
    // The node legend under the title, above the charts: a dock too short
    // for the whole view scrolls the charts' bottoms out of sight, never
    // the key to their colours (lesson 2's All charts at 1280x720 beside
    // the Explain and Profiler tabs).
    layout->addWidget(title_);
    layout->addWidget(legend_);
    layout->addWidget(grid_host_, 1);
    layout->addWidget(no_memory_, 1);
    layout->addWidget(overlap_);
    overlap_->hide();
    no_memory_->hide();
}

void NodeMultiplesView::setWorkloadMemory(bool has_memory)
{
    if (has_memory == workload_memory_)
        return;
    workload_memory_ = has_memory;
    // Memory per node of a workload that has none would be empty axes
    // under a legend with no node: say why instead.
    no_memory_->setText(has_memory ? QString()
                                   : tr("No memory per node chart: this workload allocates no memory "
                                        "(its tasks only use their caches)."));
    no_memory_->setVisible(!has_memory);
    grid_host_->setVisible(has_memory);
    legend_->setVisible(has_memory && !legend_->text().isEmpty());
    overlap_->setVisible(has_memory && !overlap_text_.isEmpty());
    updateMinimumHeight();
}

QString NodeMultiplesView::noMemoryText() const { return no_memory_->isHidden() ? QString() : no_memory_->text(); }

int NodeMultiplesView::heightFor(int columns) const
{
    const int inner = std::max(1, width() - 2 * kMarginPx);
    int h = 2 * kMarginPx + title_->sizeHint().height();
    if (!workload_memory_)
        return h + kSpacingPx + std::max(0, no_memory_->heightForWidth(inner));
    const int count = static_cast<int>(minis_.size());
    const int rows = count > 0 ? (count + std::max(columns, 1) - 1) / std::max(columns, 1) : 0;
    if (rows > 0)
        h += kSpacingPx + rows * kMinMiniHeightPx + (rows - 1) * kSpacingPx;
    if (!legend_->isHidden())
        h += kSpacingPx + std::max(0, legend_->heightForWidth(inner));
    if (!overlap_->isHidden())
        h += kSpacingPx + overlap_->sizeHint().height();
    return h;
}

void NodeMultiplesView::updateMinimumHeight()
{
    // The legend wraps to the width: ask for the lines it takes, or the
    // layout would give it one and push the rest out of sight.
    if (!legend_->isHidden())
        legend_->setMinimumHeight(std::max(0, legend_->heightForWidth(std::max(1, width() - 2 * kMarginPx))));
    setMinimumHeight(std::max(kMinViewHeightPx, neededHeight()));
}

void NodeMultiplesView::ensureCharts(int count)
{
    if (static_cast<int>(minis_.size()) == count)
        return;
    for (CursorChartView *v : minis_)
        delete v;
    minis_.clear();
    columns_ = 0;
    for (int i = 0; i < count; ++i) {
        auto *view = new CursorChartView(grid_host_);
        view->setCompact(true);
        view->setLegendShown(false); // the node legend below serves every mini chart
        view->setMinimumSize(kMinMiniWidthPx, kMinMiniHeightPx);
        view->installEventFilter(this);
        connect(view, &CursorChartView::cursorDragged, this, [this](double t) {
            setCursorTime(t);
            emit cursorDragged(t);
        });
        minis_.push_back(view);
    }
    layOut();
}

void NodeMultiplesView::setAvailableHeight(int height)
{
    if (height == available_height_)
        return;
    available_height_ = height;
    layOut();
}

void NodeMultiplesView::layOut()
{
    // The minis' minimum height props the grid up once they are stacked:
    // decide from the height the view would have without it, when known.
    const int chrome = std::max(0, height() - grid_host_->height());
    const int room = available_height_ > 0 ? std::max(1, available_height_ - chrome) : grid_host_->height();
    const int columns = multiples_columns(static_cast<int>(minis_.size()), grid_host_->width(), room);
    if (columns == columns_)
        return;
    columns_ = columns;
    arrange_in_grid(grid_, minis_, columns);
    updateMinimumHeight();
}

void NodeMultiplesView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    showOverlap();
    fitTitles();
}

QString mini_title(const QStringList &names, int i, const QFontMetrics &fm, int width)
{
    const QString &full = names[i];
    if (fm.horizontalAdvance(full) <= width)
        return full;
    // Too long: leave out the leading words every pane shares (the policy
    // name), which would otherwise be all that is left of each title
    // ("linux-2.5-numa idle_bal..." twice), and cut what remains.
    const QStringList words = full.split(QLatin1Char(' '));
    qsizetype shared = words.size() - 1;
    for (const QString &other : names) {
        const QStringList theirs = other.split(QLatin1Char(' '));
        qsizetype same = 0;
        while (same < shared && same < theirs.size() && theirs[same] == words[same])
            ++same;
        shared = same;
    }
    const QString distinct = words.mid(shared).join(QLatin1Char(' '));
    return fm.elidedText(names.size() > 1 ? distinct : full, Qt::ElideRight, width);
}

void NodeMultiplesView::fitTitles()
{
    for (std::size_t i = 0; i < minis_.size() && static_cast<qsizetype>(i) < names_.size(); ++i) {
        CursorChartView *v = minis_[i];
        v->chart()->setTitle(mini_title(names_, static_cast<int>(i), QFontMetrics(v->chart()->titleFont()),
                                        std::max(40, v->width() - kMiniTitleMarginPx)));
    }
}

bool NodeMultiplesView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == grid_host_ && event->type() == QEvent::Resize)
        layOut();
    else if (event->type() == QEvent::Resize && std::find(minis_.begin(), minis_.end(), watched) != minis_.end())
        fitTitles(); // a mini's width sets how much of its label fits
    return QWidget::eventFilter(watched, event);
}

void NodeMultiplesView::showOverlap()
{
    // Up to kMaxNoteLines lines broken between words (numa01's four panes
    // at 1280x720 need two), the last cut only if even they are short.
    // The note spans the view (its own width lags while it is hidden).
    const int room = std::max(width() - 2 * kMarginPx, 40);
    overlap_->setText(
        wrap_note(overlap_text_, QFontMetricsF(overlap_->font()), room, kMaxNoteLines).join(QLatin1Char('\n')));
    overlap_->setToolTip(overlap_text_);
    updateMinimumHeight();
}

namespace {

// Pane `run`'s lines of `data` on the given nodes, drawn solid (the pane is
// the chart, not the dash), against the largest value of any pane: shared
// axes.
ChartData pane_lines(const ChartData &data, int run, const std::set<int> &nodes)
{
    ChartData mine;
    mine.kind = data.kind;
    mine.t_max_s = data.t_max_s;
    mine.y_max = data.y_max;
    for (const ChartLine &line : data.lines)
        if (line.run == run && nodes.count(line.group)) {
            mine.lines.push_back(line);
            mine.lines.back().run = 0;
        }
    return mine;
}

// The groups of one pane's lines that lie on top of each other, by node
// ("0+1, 2-3"); "" when none.
QString overlap_groups(const ChartData &mine, double y_max)
{
    QStringList groups;
    for (const std::vector<int> &group : overlapping_lines(mine, overlap_tolerance(y_max))) {
        // Lines that never leave 0 lie along the axis, as a node with
        // none of this memory does: naming them would cost the note a
        // second line, and the plots their third value tick.
        if (std::all_of(group.begin(), group.end(),
                        [&](int i) { return all_zero(mine.lines[static_cast<std::size_t>(i)]); }))
            continue;
        std::vector<int> group_nodes;
        for (int i : group)
            group_nodes.push_back(mine.lines[static_cast<std::size_t>(i)].group);
        // Where they lie, the chart shows: the note only says which.
        groups << node_list(group_nodes);
    }
    return groups.join(QStringLiteral(", "));
}

} // namespace

void NodeMultiplesView::setChartData(const ChartData &data, const QStringList &run_names, const QString &subtitle)
{
    int runs = static_cast<int>(run_names.size());
    // Nodes that never hold this memory in any pane add flat lines at zero
    // (hundreds on a big machine): leave them out of the minis and legend.
    std::set<int> nodes;
    for (const ChartLine &line : data.lines) {
        runs = std::max(runs, line.run + 1);
        if (!all_zero(line))
            nodes.insert(line.group);
    }
    ensureCharts(runs);
    names_.clear();
    for (int r = 0; r < runs; ++r)
        names_ << (r < run_names.size() ? run_names[r] : tr("pane %1").arg(r + 1));
    const QStringList names = names_;
    fitTitles();
    title_->setText(subtitle.isEmpty()
                        ? QStringLiteral("<b>%1</b> (%2)")
                              .arg(QString::fromUtf8(chart_title(data.kind)), QString::fromUtf8(chart_unit(data.kind)))
                        : QStringLiteral("<b>%1</b> (%2) \u2014 %3")
                              .arg(QString::fromUtf8(chart_title(data.kind)), QString::fromUtf8(chart_unit(data.kind)),
                                   subtitle.toHtmlEscaped()));

    // Per pane, the overlap groups found: said once for all panes when equal.
    std::vector<QString> pane_overlaps;
    for (int r = 0; r < runs; ++r) {
        const ChartData mine = pane_lines(data, r, nodes);
        CursorChartView *view = minis_[static_cast<std::size_t>(r)];
        view->setChartData(mine);
        view->setToolTip(names[r]);
        view->setTimeRange(t_max_s_);
        view->setCursorTime(cursor_s_);
        pane_overlaps.push_back(overlap_groups(mine, data.y_max));
    }
    fitTitles(); // setChartData titled each mini with the chart's name
    setLegend(nodes, data.t_max_s > 0);
    setOverlapNote(pane_overlaps, names);
}

void NodeMultiplesView::setLegend(const std::set<int> &nodes, bool sampled)
{
    QStringList items;
    QString legend_tip;
    for (int node : nodes) {
        if (items.size() == kMaxLegendNodes) {
            // Short, so the legend keeps to a line or two beside 4 small
            // charts; the tooltip says what the colours of the rest are.
            const int more = static_cast<int>(nodes.size()) - kMaxLegendNodes;
            items << tr("+%1 more nodes").arg(more);
            legend_tip = tr("%1 more nodes hold memory; node colours repeat every 8 nodes").arg(more);
            break;
        }
        const QColor c = CursorChartView::groupColour(node);
        items << QStringLiteral("<span style=\"color:%1\">\u25a0</span>&nbsp;node&nbsp;%2").arg(c.name()).arg(node);
    }
    // At time 0 the panes already draw the memory placed at start, but the
    // charts have no sample until the first sampling interval ends: say
    // that, rather than that there is no memory.
    if (items.isEmpty())
        items << (sampled ? tr("no memory placed on any node so far")
                          : tr("no sample yet: the first comes after one sample interval"));
    legend_->setText(items.join(QStringLiteral(" &nbsp; ")));
    legend_->setToolTip(legend_tip);
    legend_->setVisible(workload_memory_ && !items.isEmpty());
}

void NodeMultiplesView::setOverlapNote(const std::vector<QString> &pane_overlaps, const QStringList &names)
{
    const int runs = static_cast<int>(pane_overlaps.size());
    QStringList overlaps;
    const bool same_everywhere = runs > 1 &&
                                 std::all_of(pane_overlaps.begin(), pane_overlaps.end(), [&](const QString &o) {
                                     return !o.isEmpty() && o == pane_overlaps.front();
                                 });
    if (same_everywhere)
        overlaps << tr("every pane %1").arg(pane_overlaps.front());
    else
        for (int r = 0; r < runs; ++r)
            if (!pane_overlaps[static_cast<std::size_t>(r)].isEmpty())
                overlaps << QStringLiteral("%1 %2").arg(names[r], pane_overlaps[static_cast<std::size_t>(r)]);
    if (overlaps.size() > kMaxOverlapNotes) {
        const auto more = overlaps.size() - kMaxOverlapNotes;
        overlaps = overlaps.mid(0, kMaxOverlapNotes);
        overlaps << tr("%1 more pane(s)").arg(more);
    }
    // Short enough for two lines under four small charts at 1280x720:
    // "nodes on top of each other: cfs 0+1; bind mode=hard 0-3".
    overlap_text_ = overlaps.isEmpty() ? QString()
                                       : tr("nodes on top of each other: %1").arg(overlaps.join(QStringLiteral("; ")));
    overlap_->setVisible(workload_memory_ && !overlaps.isEmpty());
    showOverlap();
}

void NodeMultiplesView::setTimeRange(double t_max_s)
{
    t_max_s_ = t_max_s;
    for (CursorChartView *v : minis_)
        v->setTimeRange(t_max_s);
}

void NodeMultiplesView::setCursorTime(double t_s)
{
    cursor_s_ = t_s;
    for (CursorChartView *v : minis_)
        v->setCursorTime(t_s);
}

QString NodeMultiplesView::titleText() const { return title_->text(); }

QString NodeMultiplesView::legendText() const
{
    QString plain = legend_->text();
    plain.remove(QRegularExpression(QStringLiteral("<[^>]*>")));
    return plain.replace(QStringLiteral("&nbsp;"), QStringLiteral(" "));
}

QString NodeMultiplesView::legendToolTip() const { return legend_->toolTip(); }

QString NodeMultiplesView::overlapText() const { return overlap_->isHidden() ? QString() : overlap_text_; }

} // namespace schedscope::gui
