#include "panels/charts_panel.h"

#include "export_location.h"
#include "panels/chart_csv.h"
#include "panels/chart_export.h"
#include "panels/cursor_chart_view.h"
#include "panels/node_multiples_view.h"
#include "topology_layout.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QFile>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace schedscope::gui {

namespace {

// Display order; the third chart is throughput or progress, whichever the
// workload has (work_chart_kind).
constexpr ChartKind kLayout[] = {ChartKind::NodeMemory, ChartKind::LocalAccess, ChartKind::Progress,
                                 ChartKind::IdlePct,    ChartKind::SystemTime,  ChartKind::MigrationRate};
// Charts shrink with the dock down to this size: about 110 px of plot
// under the title, above the time labels and axis title, where QChart still
// writes every tick label whole (at 130 px they all read "..."). A dock
// shorter than the charts need scrolls them rather than squeezing them, so
// opening the charts never pushes the window past 1280x720 either.
constexpr int kMinChartWidthPx = 170;
constexpr int kMinChartHeightPx = 175;
// The shape the charts' grid aims for per chart: a little wider than tall,
// as time series read best.
constexpr double kChartCellWidth = 4.0;
constexpr double kChartCellHeight = 3.0;
constexpr int kChartSpacingPx = 8; // grid spacing and the layout's margins per column
constexpr int kNodeColumnStretch = 2;

// The key beside the charts: wrapped, but no height-for-width for the
// grid's layout, which would have its scroll area size the whole grid to
// its preferred height instead of the dock's (see NodeMultiplesView).
class KeyLabel : public QLabel {
public:
    using QLabel::QLabel;
    bool hasHeightForWidth() const override { return false; }

protected:
    // Its lines at its width asked of the layout as its minimum, so a
    // narrow key's last line is not cut off.
    void resizeEvent(QResizeEvent *event) override
    {
        QLabel::resizeEvent(event);
        const int lines_h = heightForWidth(width());
        if (lines_h > 0 && lines_h != minimumHeight())
            setMinimumHeight(lines_h);
    }
};

} // namespace

ChartsPanel::ChartsPanel(QWidget *parent) : QWidget(parent)
{
    process_box_ = new QComboBox(this);
    connect(process_box_, &QComboBox::activated, this,
            [this](int i) { setProcess(process_box_->itemData(i).toInt()); });
    auto *png = new QPushButton(tr("Export PNG..."), this);
    auto *csv = new QPushButton(tr("Export CSV..."), this);
    connect(png, &QPushButton::clicked, this, &ChartsPanel::askExportPng);
    connect(csv, &QPushButton::clicked, this, &ChartsPanel::askExportCsv);

    auto *bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Process:"), this));
    bar->addWidget(process_box_);
    bar->addStretch(1);
    bar->addWidget(png);
    bar->addWidget(csv);

    all_box_ = new QCheckBox(tr("All charts"), this);
    all_box_->setToolTip(tr("Off: the charts that matter for this comparison (progress or throughput, and node "
                            "convergence on a NUMA machine). On: all six."));
    connect(all_box_, &QCheckBox::toggled, this, &ChartsPanel::setShowAll);
    bar->insertWidget(2, all_box_);

    // The grid's minimum follows its arrangement (its layout sums the
    // charts' minimums), and the scroll area around it keeps that minimum
    // off the dock: a short dock scrolls the charts instead of drawing them
    // over each other. The grid is re-gridded on every resize of the panel
    // (arrangeCharts), so it never needs to scroll sideways for long.
    scroll_ = new QScrollArea(this);
    scroll_->setWidgetResizable(true);
    scroll_->setFrameShape(QFrame::NoFrame);
    grid_ = new QWidget;
    grid_layout_ = new QGridLayout(grid_);
    grid_layout_->setContentsMargins(0, 0, 0, 0);
    grid_layout_->setSpacing(2);
    for (std::size_t i = 0; i < std::size(kLayout); ++i) {
        auto *view = new CursorChartView(grid_);
        view->setMinimumSize(kMinChartWidthPx, kMinChartHeightPx);
        // Labels elided to fit a third of a legend row ("sched-domains ca...")
        // name nothing: the key names every pane once, whole.
        view->setLegendShown(false);
        // Dragging on one chart moves the cursor on all of them and tells the panes.
        connect(view, &CursorChartView::cursorDragged, this, [this](double t_s) {
            setCursorTime(static_cast<SimTime>(t_s * 1e9));
            emit cursorMoved(cursor_ns_);
        });
        views_.push_back(view);
        if (kLayout[i] == ChartKind::NodeMemory) {
            // Sixteen lines of four panes x four nodes in one chart cannot be
            // told apart: the cell holds one small chart per pane instead.
            view->hide();
            node_view_ = new NodeMultiplesView(grid_);
            // Its height is its own: the rows of small charts, the node
            // legend and the overlap note it holds (NodeMultiplesView::
            // neededHeight), so the grid grows and a short dock scrolls
            // rather than cutting the legend off.
            node_view_->setMinimumWidth(kMinChartWidthPx);
            connect(node_view_, &NodeMultiplesView::cursorDragged, this, [this](double t_s) {
                setCursorTime(static_cast<SimTime>(t_s * 1e9));
                emit cursorMoved(cursor_ns_);
            });
            continue;
        }
    }
    key_ = new KeyLabel(grid_);
    key_->setTextFormat(Qt::RichText);
    key_->setWordWrap(true);
    key_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    key_->setMargin(8);
    key_->setMinimumSize(kMinChartWidthPx, kMinChartHeightPx / 2);
    updateKey();
    arrangeCharts();
    scroll_->setWidget(grid_);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(scroll_, 1);

    redraw_timer_ = new QTimer(this);
    redraw_timer_->setSingleShot(true);
    redraw_timer_->setInterval(kRedrawIntervalMs);
    connect(redraw_timer_, &QTimer::timeout, this, &ChartsPanel::redraw);
    setProcessNames({});
}

void ChartsPanel::setRuns(const QStringList &names, const std::vector<std::shared_ptr<const Recording>> &recordings,
                          const QStringList &process_names)
{
    names_ = names;
    updateKey();
    samples_.assign(static_cast<std::size_t>(names.size()), {});
    ends_s_.assign(static_cast<std::size_t>(names.size()), -1.0);
    for (std::size_t r = 0; r < samples_.size() && r < recordings.size(); ++r)
        if (recordings[r])
            samples_[r] = recordings[r]->samples;
    setProcessNames(process_names);
    redraw();
}

void ChartsPanel::appendSamples(int run, std::span<const MetricsSample> samples)
{
    if (run < 0 || samples.empty())
        return;
    if (run >= static_cast<int>(samples_.size())) {
        samples_.resize(static_cast<std::size_t>(run) + 1);
        while (names_.size() <= run)
            names_ << tr("run %1").arg(names_.size());
    }
    samples_[run].insert(samples_[run].end(), samples.begin(), samples.end());
    scheduleRedraw();
}

void ChartsPanel::setRunEnd(int run, double end_s)
{
    if (run < 0)
        return;
    if (run >= static_cast<int>(ends_s_.size()))
        ends_s_.resize(static_cast<std::size_t>(run) + 1, -1.0);
    if (ends_s_[static_cast<std::size_t>(run)] == end_s)
        return;
    ends_s_[static_cast<std::size_t>(run)] = end_s;
    scheduleRedraw();
}

void ChartsPanel::truncateRun(int run, SimTime t_ns)
{
    if (run < 0 || run >= static_cast<int>(samples_.size()))
        return;
    // Scrubbed back before the end: not finished at the cursor.
    if (static_cast<std::size_t>(run) < ends_s_.size() &&
        ends_s_[static_cast<std::size_t>(run)] * 1e9 > static_cast<double>(t_ns))
        ends_s_[static_cast<std::size_t>(run)] = -1.0;
    auto &s = samples_[run];
    s.erase(std::upper_bound(s.begin(), s.end(), t_ns, [](SimTime t, const MetricsSample &m) { return t < m.time_ns; }),
            s.end());
    scheduleRedraw();
}

std::vector<QWidget *> ChartsPanel::shownCharts() const
{
    std::vector<QWidget *> out;
    for (std::size_t i = 0; i < std::size(kLayout); ++i) {
        const ChartKind k = kLayout[i];
        const bool matters = k == ChartKind::Progress || (numa_ && k == ChartKind::NodeMemory);
        if (!show_all_ && !matters)
            continue;
        out.push_back(k == ChartKind::NodeMemory ? static_cast<QWidget *>(node_view_) : views_[i]);
    }
    return out;
}

void ChartsPanel::arrangeCharts()
{
    std::vector<QWidget *> shown = shownCharts();
    shown.push_back(key_);
    // The panel's own size (the grid's lags a resize), less the button row.
    const QSize area = size().isEmpty() ? QSize(1200, 300) : QSize(width(), std::max(1, height() - 40));
    const int viewport_h = scroll_ && scroll_->viewport()->height() > 0 ? scroll_->viewport()->height() : area.height();
    const int plain_columns = std::max(1, area.width() / (kMinChartWidthPx + kChartSpacingPx));
    // With every chart shown, node convergence (a small chart per pane)
    // takes a row of its own across the dock, where its minis fit side by
    // side; the other charts and the key follow in rows below, and the dock
    // scrolls to them rather than squeezing all of them into its height.
    const bool node_row = show_all_ && std::find(shown.begin(), shown.end(), node_view_) != shown.end();
    GridShape shape;
    if (node_row) {
        const int rest = static_cast<int>(shown.size()) - 1;
        shape.columns = std::min(plain_columns, rest);
        shape.rows = 1 + (rest + shape.columns - 1) / shape.columns;
        node_view_->setAvailableHeight(viewport_h);
    } else {
        shape = choose_grid(static_cast<int>(shown.size()), kChartCellWidth, kChartCellHeight, 0.0,
                            static_cast<double>(area.width()) / area.height());
        // No more columns than fit at the charts' minimum width (the node
        // multiples need one per pane), so the grid never widens the window.
        int room = area.width();
        if (std::find(shown.begin(), shown.end(), node_view_) != shown.end())
            room -= std::max(0, node_view_->minimumSizeHint().width() - kMinChartWidthPx);
        const int max_columns = std::max(1, room / (kMinChartWidthPx + kChartSpacingPx));
        if (shape.columns > max_columns) {
            shape.columns = max_columns;
            shape.rows = (static_cast<int>(shown.size()) + max_columns - 1) / max_columns;
        }
        // The node view's row height when nothing scrolls; it picks its own
        // column count for that.
        node_view_->setAvailableHeight((viewport_h - (shape.rows - 1) * grid_layout_->spacing()) /
                                       std::max(1, shape.rows));
    }
    if (shape.columns == columns_ && shown == placed_ && node_row == node_row_)
        return;
    columns_ = shape.columns;
    placed_ = shown;
    node_row_ = node_row;
    for (QWidget *w : views_)
        grid_layout_->removeWidget(w);
    grid_layout_->removeWidget(node_view_);
    grid_layout_->removeWidget(key_);
    for (int c = 0; c < grid_layout_->columnCount(); ++c)
        grid_layout_->setColumnStretch(c, 0);
    for (int r = 0; r < grid_layout_->rowCount(); ++r)
        grid_layout_->setRowStretch(r, 0);
    for (CursorChartView *v : views_)
        v->hide(); // the memory-per-node view is kept for exports only
    node_view_->hide();
    int next = 0;
    if (node_row) {
        grid_layout_->addWidget(node_view_, 0, 0, 1, shape.columns);
        node_view_->show();
        next = shape.columns;
    }
    for (QWidget *w : shown) {
        if (node_row && w == node_view_)
            continue;
        grid_layout_->addWidget(w, next / shape.columns, next % shape.columns);
        w->show();
        ++next;
    }
    for (int c = 0; c < shape.columns; ++c)
        grid_layout_->setColumnStretch(c, 1);
    // Beside other charts, node convergence's column is twice as wide, so
    // four minis fit in a row of a 1280 px dock.
    for (int i = 0; i < static_cast<int>(shown.size()) && !node_row; ++i)
        if (shown[static_cast<std::size_t>(i)] == node_view_ && shape.columns > 1)
            grid_layout_->setColumnStretch(i % shape.columns, kNodeColumnStretch);
    for (int r = 0; r < shape.rows; ++r)
        grid_layout_->setRowStretch(r, 1);
}

void ChartsPanel::setShowAll(bool all)
{
    show_all_ = all;
    if (all_box_->isChecked() != all) {
        const QSignalBlocker block(all_box_);
        all_box_->setChecked(all);
    }
    arrangeCharts();
}

void ChartsPanel::setWorkloadMemory(bool has_memory) { node_view_->setWorkloadMemory(has_memory); }

void ChartsPanel::setNuma(bool numa)
{
    numa_ = numa;
    arrangeCharts();
}

void ChartsPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    arrangeCharts();
}

void ChartsPanel::setFixedWork(std::optional<bool> fixed_work)
{
    fixed_work_ = fixed_work;
    scheduleRedraw();
}

void ChartsPanel::setProcessNames(const QStringList &names)
{
    // The sample's process count bounds the list when no names were given.
    int count = static_cast<int>(names.size());
    for (const auto &run : samples_)
        if (!run.empty())
            count = std::max(count, static_cast<int>(run.back().proc_node_bytes.size()));
    process_box_->clear();
    process_box_->addItem(tr("all processes"), kAllProcesses);
    for (int p = 0; p < count; ++p)
        process_box_->addItem(p < names.size() ? names[p] : tr("process %1").arg(p), p);
    const int index = process_box_->findData(process_);
    process_box_->setCurrentIndex(index >= 0 ? index : 0);
    process_ = process_box_->currentData().toInt();
}

void ChartsPanel::setProcess(int process)
{
    const int index = process_box_->findData(process);
    if (index < 0)
        return;
    process_box_->setCurrentIndex(index);
    process_ = process;
    redraw();
}

void ChartsPanel::setCursorTime(SimTime t_ns)
{
    cursor_ns_ = t_ns;
    for (CursorChartView *view : views_)
        view->setCursorTime(static_cast<double>(t_ns) / 1e9);
    node_view_->setCursorTime(static_cast<double>(t_ns) / 1e9);
}

std::vector<RunSamples> ChartsPanel::runSamples() const
{
    std::vector<RunSamples> runs;
    for (std::size_t r = 0; r < samples_.size(); ++r)
        runs.push_back({r < static_cast<std::size_t>(names_.size()) ? names_[static_cast<qsizetype>(r)].toStdString()
                                                                    : "run " + std::to_string(r),
                        samples_[r], r < ends_s_.size() ? ends_s_[r] : -1.0});
    return runs;
}

std::vector<ChartData> ChartsPanel::charts() const
{
    const std::vector<RunSamples> runs = runSamples();
    std::vector<ChartData> out;
    const ChartKind work = fixed_work_ ? (*fixed_work_ ? ChartKind::Progress : ChartKind::Throughput)
                                       : work_chart_kind(runs);
    for (ChartKind kind : kLayout) {
        ChartData d = derive_chart(kind == ChartKind::Progress ? work : kind, runs, process_);
        for (const ReferenceMark &m : marks_)
            if (m.kind == d.kind) {
                d.marks.push_back(m);
                if (!m.vertical)
                    d.y_max = std::max(d.y_max, m.value);
            }
        out.push_back(std::move(d));
    }
    return out;
}

void ChartsPanel::setReferenceMarks(std::vector<ReferenceMark> marks)
{
    if (marks == marks_)
        return;
    marks_ = std::move(marks);
    scheduleRedraw();
}

void ChartsPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    scheduleRedraw();
}

void ChartsPanel::scheduleRedraw()
{
    if (!redraw_timer_->isActive())
        redraw_timer_->start();
}

void ChartsPanel::redraw()
{
    redraw_timer_->stop();
    const std::vector<ChartData> data = charts();
    double t_max = 0;
    for (const ChartData &d : data)
        t_max = std::max(t_max, d.t_max_s);
    for (std::size_t i = 0; i < views_.size(); ++i) {
        views_[i]->setChartData(data[i], subtitle(data[i].kind));
        views_[i]->setTimeRange(t_max);
        views_[i]->setCursorTime(static_cast<double>(cursor_ns_) / 1e9);
        if (data[i].kind == ChartKind::NodeMemory) {
            node_view_->setTimeRange(t_max);
            node_view_->setCursorTime(static_cast<double>(cursor_ns_) / 1e9);
            node_view_->setChartData(data[i], names_, subtitle(data[i].kind));
        }
    }
}

void ChartsPanel::updateKey()
{
    QString html = QStringLiteral("<b>%1</b><br>").arg(tr("Panes (line colour)"));
    for (int r = 0; r < names_.size(); ++r)
        html += QStringLiteral("<span style=\"color:%1\">\u25a0</span> %2<br>")
                    .arg(CursorChartView::runColour(r).name(), names_[r].toHtmlEscaped());
    html += QStringLiteral("<br><b>%1</b><br>").arg(tr("Task migrations (line style)"));
    QStringList styles;
    for (int c = 0; c < kDistanceClassCount; ++c)
        if (c != static_cast<int>(DistanceClass::Self))
            styles << QStringLiteral("%1 %2").arg(
                QString::fromLatin1(distance_class_name(static_cast<DistanceClass>(c))),
                CursorChartView::migrationStyleName(c));
    html += styles.join(QStringLiteral(", "));
    key_->setText(html);
    // The hint in the tooltip: in the key it took three lines of a 1280 px
    // dock's narrow column, and the key its row past the dock's height.
    key_->setToolTip(tr("Hover a chart for every line's value; drag on a chart to move the panes to that time."));
}

QString ChartsPanel::keyText() const
{
    QString plain = key_->text();
    plain.replace(QStringLiteral("<br>"), QStringLiteral("\n"));
    plain.remove(QRegularExpression(QStringLiteral("<[^>]*>")));
    return plain;
}

QString ChartsPanel::subtitle(ChartKind kind) const
{
    const bool per_process = kind == ChartKind::NodeMemory || kind == ChartKind::LocalAccess;
    return per_process ? process_box_->currentText() : QString();
}

QString ChartsPanel::exportChartFiles(const QString &dir, QSize size, QStringList *written) const
{
    for (const ChartData &d : charts())
        if (QString error = export_chart_files(d, subtitle(d.kind), static_cast<double>(cursor_ns_) / 1e9, dir, size,
                                               written, names_);
            !error.isEmpty())
            return error;
    return {};
}

bool ChartsPanel::exportPng(const QString &path)
{
    redraw();
    // Charts lay themselves out (and align their plot areas) in posted
    // events: let them settle so the image is what the screen shows.
    for (int i = 0; i < 3; ++i)
        QCoreApplication::processEvents();
    return grid_->grab().save(path, "PNG");
}

bool ChartsPanel::exportCsv(const QString &path) const
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    const std::string csv = charts_to_csv(charts());
    return file.write(csv.data(), static_cast<qint64>(csv.size())) == static_cast<qint64>(csv.size());
}

void ChartsPanel::askExportPng()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export charts as PNG"), export_start_path(QStringLiteral("charts.png"), ExportKind::Image),
        tr("PNG images (*.png)"));
    if (path.isEmpty())
        return;
    remember_export_path(path);
    exportPng(path);
}

void ChartsPanel::askExportCsv()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export chart data as CSV"),
                                                      export_start_path(QStringLiteral("charts.csv"), ExportKind::Data),
                                                      tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    remember_export_path(path);
    exportCsv(path);
}

} // namespace schedscope::gui
