#include "comparison_view.h"

#include "catalog/catalog.h"
#include "sim_legend.h"
#include "simulation_pane.h"

#include <QGridLayout>
#include <QVBoxLayout>

namespace schedscope::gui {

QString params_summary(const PolicySpec &spec)
{
    QStringList parts;
    const PolicyInfo *info = nullptr;
    for (const PolicyInfo &p : policy_catalog())
        if (p.name == spec.name)
            info = &p;
    for (const auto &[k, v] : spec.params) {
        bool is_default = false;
        if (info)
            for (const ParamInfo &pi : info->params)
                is_default |= pi.name == k && pi.default_value == v;
        if (!is_default)
            parts << QStringLiteral("%1=%2").arg(QString::fromStdString(k), QString::fromStdString(v));
    }
    const QString params = parts.join(QStringLiteral(", "));
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
    grid_->setSpacing(4);
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
    const int n = static_cast<int>(setup->policies.size());
    // Two or three side by side; four as 2 x 2, since machines are laid out
    // wider than tall and four columns would make each pane a sliver.
    const int columns = n == 4 ? 2 : n;
    for (int i = 0; i < n; ++i) {
        auto *pane = new SimulationPane(this);
        pane->setTopology(setup->topology);
        pane->setParamsText(params_summary(setup->policies[i]));
        connect(pane, &SimulationPane::editRequested, this, [this, i] { emit editPaneRequested(i); });
        grid_->addWidget(pane, i / columns, i % columns);
        panes_.push_back(pane);
    }
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
