// The window fits 1280x720 with the charts open, and the panes use their
// space: groups, packages and cores pack to the pane's shape (a 4-package
// machine 2x2, a 6-core package 3x2 or 2x3, never 3+1 or 5+1).
#include "main_window.h"
#include "panels/charts_panel.h"
#include "sim/comparison_page.h"
#include "sim/comparison_view.h"
#include "sim/pane_scene.h"
#include "sim/simulation_controller.h"
#include "sim/simulation_pane.h"
#include "test_machines.h"
#include "topology/import.h"
#include "topology_layout.h"
#include "window_test_support.h"

#include <catch2/catch.hpp>

#include <QDockWidget>
#include <QStatusBar>

#include <set>

using namespace schedscope;
using namespace schedscope::gui;
using schedscope::test::QuietWindow;
using schedscope::test::wait_until;

namespace {

// Distinct left and top edges of the boxes of one type below `parent`.
std::pair<int, int> columns_rows(const TopologyLayout &l, ObjType type, int parent = -1)
{
    std::set<long> xs, ys;
    for (size_t i = 0; i < l.boxes().size(); ++i) {
        const LayoutBox &b = l.boxes()[i];
        if (b.kind != BoxKind::Object || b.type != type)
            continue;
        if (parent >= 0 && b.parent != parent)
            continue;
        xs.insert(std::lround(b.rect.x));
        ys.insert(std::lround(b.rect.y));
    }
    return {static_cast<int>(xs.size()), static_cast<int>(ys.size())};
}

} // namespace

TEST_CASE("grids pack to full shapes close to the wanted aspect", "[layout][fit]")
{
    // Square items.
    CHECK(choose_grid(4, 1, 1, 0, 1.6).columns == 2);
    CHECK(choose_grid(4, 1, 1, 0, 1.6).rows == 2);
    const GridShape wide6 = choose_grid(6, 1, 1, 0, 1.6);
    CHECK(wide6.columns == 3);
    CHECK(wide6.rows == 2);
    const GridShape tall6 = choose_grid(6, 1, 1, 0, 0.6);
    CHECK(tall6.columns == 2);
    CHECK(tall6.rows == 3);
    // Never a ragged 3+1 or 5+1, whatever the aspect.
    for (double aspect : {0.3, 0.8, 1.0, 1.6, 2.5, 4.0}) {
        INFO(aspect);
        CHECK(choose_grid(4, 1, 1, 0, aspect).columns != 3);
        CHECK(choose_grid(6, 1, 1, 0, aspect).columns != 5);
        CHECK(choose_grid(6, 1, 1, 0, aspect).columns != 4);
    }
    // Wide items (packages of many cores) still pack 2x2 for a screen.
    CHECK(choose_grid(4, 2, 1, 0, 1.78).columns == 2);
    // Very wide or very tall spaces take a single row or column.
    CHECK(choose_grid(4, 1, 1, 0, 8.0).rows == 1);
    CHECK(choose_grid(4, 1, 1, 0, 0.1).columns == 1);
    CHECK(choose_grid(1, 1, 1, 0, 1.6).columns == 1);
    CHECK(choose_grid(0, 1, 1, 0, 1.6).columns == 1);
}

TEST_CASE("a pane's machine packs to the pane's shape", "[layout][fit]")
{
    test::MachineShape shape;
    shape.packages = 4;
    shape.cores_per_package = 6;
    shape.pus_per_core = 1;
    const Topology topo = test::make_machine(shape);
    const TextMetrics text;
    const PaneGeometry wide = PaneGeometry::compute(topo, pane_layout_options(text, 1.78));
    const auto [pc, pr] = columns_rows(wide.layout, ObjType::Package);
    CHECK(pc == 2); // 2x2, not 3+1
    CHECK(pr == 2);
    // Each package's six cores: 3x2 or 2x3, never 5+1.
    const int package_box = wide.layout.box_of(topo.objects_of(ObjType::Package).front());
    REQUIRE(package_box >= 0);
    const auto [cc, cr] = columns_rows(wide.layout, ObjType::Core, package_box);
    CHECK(cc * cr == 6);
    // Each level packs to the asked shape; the whole drawing follows it:
    // asked for a tall one, it comes out narrower.
    const PaneGeometry tall = PaneGeometry::compute(topo, pane_layout_options(text, 0.5));
    CHECK(tall.layout.width() / tall.layout.height() < wide.layout.width() / wide.layout.height());
}

TEST_CASE("a pane re-packs its machine when its shape changes", "[layout][fit]")
{
    SimulationPane pane;
    pane.show();
    pane.resize(1200, 400);
    pane.setTopology(std::make_shared<const Topology>(load_topology("sample:big-128")));
    const double wide = pane.geometry().layout.width() / pane.geometry().layout.height();
    pane.resize(400, 1000);
    const double tall = pane.geometry().layout.width() / pane.geometry().layout.height();
    CHECK(tall < wide);
}

TEST_CASE("with the charts open the window still fits 1280x720", "[layout][fit][window]")
{
    QuietWindow w;
    w.window.resize(1280, 720);
    w.window.show();
    REQUIRE(w.window.openTopology("sample:numa-8node-64"));
    REQUIRE(w.window.comparisonPage()->controller()->waitLoaded());
    for (bool all : {false, true}) {
        INFO("all charts: " << all);
        w.window.analysisDocks().charts->setShowAll(all);
        w.window.showDocks({QStringLiteral("charts")});
        QCoreApplication::processEvents();
        const QSize min = w.window.minimumSizeHint().expandedTo(w.window.minimumSize());
        CHECK(min.width() <= 1280);
        CHECK(min.height() <= 720);
        w.window.resize(1280, 720);
        QCoreApplication::processEvents();
        CHECK(w.window.height() <= 720);
        // Nothing spills over the status bar, and the panes keep a usable size.
        QDockWidget *charts = w.window.analysisDocks().charts_dock;
        const QRect dock = charts->geometry();
        CHECK(dock.bottom() < w.window.statusBar()->geometry().top());
        SimulationPane *pane = w.window.comparisonPage()->view()->pane(0);
        CHECK(pane->width() >= 200);
        CHECK(pane->height() >= 150);
    }
}

TEST_CASE("a lesson with its text and the charts still fits 1280x720", "[layout][fit][window]")
{
    QuietWindow w;
    w.window.resize(1280, 720);
    w.window.show();
    // Three panes, the lesson beside them, the charts below, the tree left.
    REQUIRE(w.window.openScenarioFile(
        QStringLiteral(SCHEDSCOPE_SOURCE_SAMPLES_DIR "/scenarios/lesson-numa-convergence.json")));
    REQUIRE(w.window.comparisonPage()->controller()->waitLoaded());
    w.window.showDocks({QStringLiteral("charts"), QStringLiteral("lessons"), QStringLiteral("tree")});
    QCoreApplication::processEvents();
    const QSize min = w.window.minimumSizeHint().expandedTo(w.window.minimumSize());
    CHECK(min.width() <= 1280);
    CHECK(min.height() <= 720);
    w.window.resize(1280, 720);
    QCoreApplication::processEvents();
    CHECK(w.window.size() == QSize(1280, 720));
}

TEST_CASE("the charts that matter show by default", "[layout][fit][charts]")
{
    ChartsPanel panel;
    panel.resize(1200, 300);
    panel.setNuma(true);
    CHECK_FALSE(panel.showAll());
    CHECK(panel.shownCharts().size() == 2); // progress or throughput, node convergence
    panel.setNuma(false);
    CHECK(panel.shownCharts().size() == 1);
    panel.setShowAll(true);
    CHECK(panel.shownCharts().size() == 6);
    // The grid follows the panel's shape: wide and short, one row.
    panel.show();
    panel.resize(1400, 260);
    QCoreApplication::processEvents();
    CHECK(panel.gridColumns() >= 4);
    panel.resize(500, 900);
    QCoreApplication::processEvents();
    CHECK(panel.gridColumns() <= 2);
}

namespace {

struct ShotCase {
    const char *name;
    QSize size;
    const char *topology;
    bool charts;
    int min_pane_w, min_pane_h; // the floor each pane keeps
};

// Every visible child of the window stays inside it and clear of the status bar.
void check_nothing_over_status_bar(QMainWindow &w)
{
    const QRect status = w.statusBar()->geometry();
    for (QDockWidget *d : w.findChildren<QDockWidget *>()) {
        if (!d->isVisible())
            continue;
        INFO(d->objectName().toStdString());
        CHECK(d->geometry().bottom() < status.top());
        CHECK(w.rect().contains(d->geometry()));
    }
    CHECK(w.centralWidget()->geometry().bottom() < status.top());
}

} // namespace

TEST_CASE("screenshot sizes: panes keep a floor and nothing covers the status bar", "[layout][fit][screenshot]")
{
    const ShotCase cases[] = {
        {"1280x720 with charts", {1280, 720}, "sample:numa-8node-64", true, 250, 150},
        {"1920x1080", {1920, 1080}, "sample:numa-8node-64", false, 600, 400},
        {"1920x1080 with charts", {1920, 1080}, "sample:numa-8node-64", true, 500, 250},
        {"altix-1024 panes", {1600, 1000}, "sample:altix-1024", false, 500, 400},
        {"big-128 panes", {1600, 1000}, "sample:big-128", false, 500, 400},
    };
    for (const ShotCase &c : cases) {
        INFO(c.name);
        QuietWindow w;
        w.window.resize(c.size);
        w.window.show();
        REQUIRE(w.window.openTopology(c.topology));
        REQUIRE(w.window.comparisonPage()->controller()->waitLoaded());
        if (c.charts)
            w.window.showDocks({QStringLiteral("charts")});
        for (int i = 0; i < 3; ++i)
            QCoreApplication::processEvents();
        CHECK(w.window.size() == c.size);
        check_nothing_over_status_bar(w.window);
        ComparisonView *view = w.window.comparisonPage()->view();
        REQUIRE(view->paneCount() >= 2);
        for (int i = 0; i < view->paneCount(); ++i) {
            CHECK(view->pane(i)->width() >= c.min_pane_w);
            CHECK(view->pane(i)->height() >= c.min_pane_h);
        }
        // The drawing fills its pane rather than a corner of it.
        SimulationPane *pane = view->pane(0);
        if (pane->mode() == PaneMode::Detail) {
            const auto &l = pane->geometry().layout;
            const double used_w = l.width() * pane->fitScale(), used_h = l.height() * pane->fitScale();
            CHECK((used_w > 0.8 * (pane->width() - 20) || used_h > 0.8 * (pane->height() - 60)));
        } else {
            CHECK(pane->compactGeometry().width > 0.8 * (pane->width() - 20));
        }
        const QImage shot = w.window.grab().toImage();
        CHECK(shot.size() == c.size);
    }
}
