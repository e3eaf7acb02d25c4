#include "comparison_view.h"

#include "catalog/catalog.h"
#include "grid_arrange.h"
#include "scenario/pane_label.h"
#include "sim_legend.h"
#include "simulation_pane.h"

#include <QGridLayout>
#include <QResizeEvent>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace schedscope::gui {

namespace {
// The grid's spacing, in pixels.
constexpr double kPaneSpacingPx = 4.0;
constexpr int kMaxPaneRows = 2;
// The shape a machine drawing packs to by default (pane_layout_options): a
// wide screen's. Panes close to it need the least stretching or margin.
constexpr double kWantedPaneAspect = 1.6;
} // namespace

QString params_summary(const std::vector<PolicySpec> &policies, int pane)
{
    if (pane < 0 || pane >= static_cast<int>(policies.size()))
        return {};
    const PolicySpec &spec = policies[static_cast<std::size_t>(pane)];
    // The generated label's part after the policy name is how the charts
    // and exports tell this pane apart: the header says it the same way.
    QString said;
    if (spec.label.empty()) {
        const std::string label = pane_labels(policies)[static_cast<std::size_t>(pane)];
        if (label.rfind(spec.name, 0) == 0)
            said = QString::fromStdString(label.substr(spec.name.size())).trimmed();
    }
    // The other parameters set away from their defaults, named as in the
    // label (param_label), after it.
    QStringList parts;
    for (const auto &[k, v] : spec.params) {
        const QString part = QString::fromStdString(param_label(k, v));
        if (!param_is_default(spec, k) && !said.split(QLatin1Char(' ')).contains(part))
            parts << part;
    }
    QString params = said;
    if (!parts.isEmpty())
        params += (params.isEmpty() ? QString() : QStringLiteral("  ")) + parts.join(QStringLiteral(", "));
    // The user's name for the pane leads: it is what the charts and exports call it.
    if (spec.label.empty())
        return params;
    const QString label = QStringLiteral("\u201c%1\u201d").arg(QString::fromStdString(spec.label));
    return params.isEmpty() ? label : label + QStringLiteral("  ") + params;
}

ComparisonView::ComparisonView(QWidget *parent) : QWidget(parent)
{
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(2);
    grid_ = new QGridLayout;
    grid_->setSpacing(static_cast<int>(kPaneSpacingPx));
    outer->addLayout(grid_, 1);
    legend_ = new SimLegend(this);
    outer->addWidget(legend_);
    fps_clock_.start();
}

void ComparisonView::setSetup(const RunSetupPtr &setup)
{
    for (SimulationPane *p : panes_)
        delete p;
    panes_.clear();
    if (!setup)
        return;
    if (setup->topology)
        legend_->setMigrationClasses(machine_migration_classes(*setup->topology));
    const int n = static_cast<int>(setup->policies.size());
    for (int i = 0; i < n; ++i) {
        auto *pane = new SimulationPane(this);
        pane->setTopology(setup->topology);
        pane->setParamsText(params_summary(setup->policies, i));
        connect(pane, &SimulationPane::editRequested, this, [this, i] { emit editPaneRequested(i); });
        connect(pane, &SimulationPane::naturalHeaderHeightChanged, this, &ComparisonView::alignHeaders);
        panes_.push_back(pane);
    }
    columns_ = 0;
    arrangePanes();
    alignHeaders();
}

void ComparisonView::alignHeaders()
{
    int tallest = 0;
    for (const SimulationPane *p : panes_)
        tallest = std::max(tallest, p->naturalHeaderHeight());
    for (SimulationPane *p : panes_)
        p->setHeaderFloor(tallest);
}

void ComparisonView::fitPanes()
{
    for (SimulationPane *p : panes_)
        p->setZoom(1.0, QPointF());
}

int choose_pane_columns(int n, double w, double h)
{
    if (n <= 1)
        return 1;
    // A shape that would push the panes under their minimum size would
    // grow the window's minimum with it: only when nothing fits does the
    // shape with the most room over the minimum win.
    int best = n, roomiest = n;
    double best_cost = std::numeric_limits<double>::max(), best_room = 0;
    for (int columns = 1; columns <= n; ++columns) {
        const int rows = (n + columns - 1) / columns;
        // A ragged grid leaves a hole among the panes; a third row would
        // raise the window's minimum height past 720 px with the charts open.
        if (rows * columns != n || rows > kMaxPaneRows)
            continue;
        const double pane_w = (w - (columns - 1) * kPaneSpacingPx) / columns;
        const double pane_h = (h - (rows - 1) * kPaneSpacingPx) / rows;
        const double room = std::min(pane_w / kPaneMinWidthPx, pane_h / kPaneMinHeightPx);
        if (room > best_room) {
            best_room = room;
            roomiest = columns;
        }
        if (room < 1.0 || pane_h <= kPaneHeaderPx)
            continue;
        const double cost = std::abs(std::log(pane_w / (pane_h - kPaneHeaderPx) / kWantedPaneAspect));
        if (cost < best_cost) {
            best_cost = cost;
            best = columns;
        }
    }
    return best_cost < std::numeric_limits<double>::max() ? best : roomiest;
}

void ComparisonView::arrangePanes()
{
    const int n = paneCount();
    if (n == 0)
        return;
    // Before the first resize the size is unknown: a wide screen's.
    const QSize area = width() > 0 && height() > legend_->sizeHint().height()
                           ? QSize(width(), height() - legend_->sizeHint().height())
                           : QSize(1600, 900);
    const int columns = choose_pane_columns(n, area.width(), area.height());
    if (columns == columns_)
        return;
    columns_ = columns;
    arrange_in_grid(grid_, panes_, columns);
}

void ComparisonView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    arrangePanes();
}

void ComparisonView::showFrame(FrameSetPtr frame)
{
    if (!frame)
        return;
    for (int i = 0; i < paneCount() && i < static_cast<int>(frame->panes.size()); ++i)
        panes_[i]->setFrame(frame, i, frame->continuous);
    if (!frame->panes.empty())
        legend_->setProcesses(frame->panes.front().colour_names);
    ++fps_frames_;
    if (fps_clock_.elapsed() >= 1000) {
        fps_ = fps_frames_ * 1000.0 / static_cast<double>(fps_clock_.restart());
        fps_frames_ = 0;
        emit fpsChanged(fps_);
    }
}

void ComparisonView::restartFpsCount()
{
    fps_frames_ = 0;
    fps_clock_.restart();
}

} // namespace schedscope::gui
