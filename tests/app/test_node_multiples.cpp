// Node convergence as small multiples: one mini chart per pane on shared
// axes, a node legend that is always there, and overlapping lines named.
#include "panels/chart_overlap.h"
#include "panels/charts_panel.h"
#include "panels/cursor_chart_view.h"
#include "panels/node_multiples_view.h"

#include <catch2/catch.hpp>

#include <QApplication>
#include <QChart>
#include <QLegend>
#include <QValueAxis>

using namespace schedscope;
using namespace schedscope::gui;

namespace {

ChartLine line(const std::string &label, int run, int node, std::vector<double> y)
{
    ChartLine l{label, run, node, {}, std::move(y)};
    for (std::size_t i = 0; i < l.y.size(); ++i)
        l.t_s.push_back(0.1 * static_cast<double>(i + 1));
    return l;
}

// Pane 0 keeps its memory on node 0; pane 1 spreads it evenly (two lines on
// top of each other at 128 MiB).
ChartData two_panes()
{
    ChartData d;
    d.kind = ChartKind::NodeMemory;
    d.lines = {line("sched-domains node 0", 0, 0, {256, 256, 256}), line("sched-domains node 1", 0, 1, {0, 0, 0}),
               line("autonuma node 0", 1, 0, {128, 128, 128}), line("autonuma node 1", 1, 1, {128, 128.2, 128})};
    d.t_max_s = 0.3;
    d.y_max = 256;
    return d;
}

double axis_top(const CursorChartView *v)
{
    for (QAbstractAxis *a : v->chart()->axes(Qt::Vertical))
        if (auto *value = qobject_cast<QValueAxis *>(a))
            return value->max();
    return -1;
}

} // namespace

TEST_CASE("multiples: overlapping lines are found and grouped", "[charts][multiples]")
{
    ChartData d = two_panes();
    const auto groups = overlapping_lines(d, overlap_tolerance(d.y_max));
    REQUIRE(groups.size() == 1);
    CHECK(groups[0] == std::vector<int>{2, 3});
    // Far apart once: not overlapping.
    d.lines[3].y[1] = 200;
    CHECK(overlapping_lines(d, overlap_tolerance(d.y_max)).empty());
    // Lines never compared (no common time) do not count as overlapping.
    ChartData apart;
    apart.lines = {line("a", 0, 0, {1}), ChartLine{"b", 0, 1, {}, {}}};
    CHECK(overlapping_lines(apart, 1.0).empty());
}

TEST_CASE("multiples: one chart per pane, shared axes, a node legend, overlap said", "[charts][multiples]")
{
    NodeMultiplesView view;
    view.resize(600, 400);
    view.show();
    view.setTimeRange(0.3);
    view.setChartData(two_panes(), {QStringLiteral("sched-domains"), QStringLiteral("autonuma")},
                      QStringLiteral("all processes"));
    REQUIRE(view.charts().size() == 2);
    CHECK(view.charts()[0]->chart()->title() == QLatin1String("sched-domains"));
    CHECK(view.charts()[1]->chart()->title() == QLatin1String("autonuma"));
    // The same MiB axis on both, sized by the larger pane.
    CHECK(axis_top(view.charts()[0]) >= 256);
    CHECK(axis_top(view.charts()[0]) == axis_top(view.charts()[1]));
    // Each mini shows only its own pane's nodes.
    CHECK(view.charts()[1]->chartData().lines.size() == 2);
    CHECK(view.titleText().contains(QStringLiteral("all processes")));
    CHECK(view.legendText().contains(QStringLiteral("node 0")));
    CHECK(view.legendText().contains(QStringLiteral("node 1")));
    CHECK(view.overlapText() == QStringLiteral("nodes on top of each other: autonuma 0+1"));
    CHECK_FALSE(view.overlapText().contains(QStringLiteral("sched-domains")));
}

TEST_CASE("multiples: the charts dock shows memory per node as small multiples", "[charts][multiples]")
{
    ChartsPanel panel;
    panel.resize(1200, 500);
    panel.show();
    std::vector<MetricsSample> a(3), b(3);
    for (int i = 0; i < 3; ++i) {
        a[i].time_ns = b[i].time_ns = (i + 1) * 100'000'000LL;
        a[i].proc_node_bytes = {{{0, 64 << 20}}};
        b[i].proc_node_bytes = {{{0, 32 << 20}, {1, 32 << 20}}};
    }
    auto ra = std::make_shared<Recording>();
    ra->samples = a;
    auto rb = std::make_shared<Recording>();
    rb->samples = b;
    panel.setRuns({QStringLiteral("bind mode=hard"), QStringLiteral("bind mode=inverse")}, {ra, rb});
    panel.redraw();
    // New minis are laid out (and their titles fitted to their width) by
    // the event loop.
    QApplication::processEvents();
    NodeMultiplesView *m = panel.nodeMultiples();
    REQUIRE(m);
    CHECK(m->isVisible());
    CHECK_FALSE(panel.views()[0]->isVisible()); // the all-in-one chart is for exports only
    REQUIRE(m->charts().size() == 2);
    CHECK(m->charts()[0]->chart()->title() == QLatin1String("bind mode=hard"));
    CHECK(m->charts()[1]->chart()->title() == QLatin1String("bind mode=inverse"));
    CHECK(m->overlapText().contains(QStringLiteral("bind mode=inverse 0+1")));
}

TEST_CASE("multiples: the column count follows the area's shape", "[charts][multiples]")
{
    // A wide, short dock (the charts dock at 1920x1080): four in a row, each
    // about 157 x 150 px, where 2 x 2 would give plots 75 px tall.
    CHECK(multiples_columns(4, 630, 150) == 4);
    // A tall area stacks them, so their time axes line up.
    CHECK(multiples_columns(4, 400, 600) == 1);
    // Between the two, 2 x 2.
    CHECK(multiples_columns(4, 500, 320) == 2);
    CHECK(multiples_columns(1, 50, 50) == 1);
    // Three wide panes in a row, then a column when the area turns tall.
    CHECK(multiples_columns(3, 900, 200) == 3);
    CHECK(multiples_columns(3, 300, 700) == 1);
    // Never more columns than panes, whatever the width.
    CHECK(multiples_columns(2, 5000, 100) == 2);
}

TEST_CASE("multiples: four panes in a wide, short view sit in one row, and the overlap note fits one line",
          "[charts][multiples]")
{
    ChartData d;
    d.kind = ChartKind::NodeMemory;
    for (int run = 0; run < 4; ++run)
        for (int node = 0; node < 4; ++node)
            d.lines.push_back(line("pane node", run, node, {64, 64, 64}));
    d.t_max_s = 0.3;
    d.y_max = 64;
    const QStringList names = {QStringLiteral("cfs"), QStringLiteral("autonuma"), QStringLiteral("bind mode=hard"),
                               QStringLiteral("bind mode=inverse")};
    NodeMultiplesView view;
    view.resize(700, 260);
    view.show();
    view.setTimeRange(0.3);
    view.setChartData(d, names);
    QApplication::processEvents();
    REQUIRE(view.charts().size() == 4);
    CHECK(view.columns() == 4);
    const int top = view.charts()[0]->geometry().top();
    for (const CursorChartView *c : view.charts())
        CHECK(c->geometry().top() == top);
    // The same note in every pane, said once; and the whole of it is kept
    // (tooltip, overlapText) when the label shows it cut.
    CHECK(view.overlapText() == QStringLiteral("nodes on top of each other: every pane 0-3"));

    view.resize(420, 700);
    QApplication::processEvents();
    CHECK(view.columns() == 1);
    CHECK(view.charts()[1]->geometry().top() > view.charts()[0]->geometry().bottom());
}

TEST_CASE("multiples: past eight nodes the legend counts the rest and its tooltip says colours repeat",
          "[charts][multiples]")
{
    ChartData d;
    d.kind = ChartKind::NodeMemory;
    for (int node = 0; node < 12; ++node)
        d.lines.push_back(line("pane node", 0, node, {8.0 * (node + 1)}));
    d.t_max_s = 0.1;
    d.y_max = 96;
    NodeMultiplesView view;
    view.resize(600, 300);
    view.setChartData(d, {QStringLiteral("cfs")});
    CHECK(view.legendText().contains(QStringLiteral("node 7")));
    CHECK_FALSE(view.legendText().contains(QStringLiteral("node 8")));
    CHECK(view.legendText().contains(QStringLiteral("+4 more nodes")));
    CHECK(view.legendToolTip().contains(QStringLiteral("repeat")));
}
