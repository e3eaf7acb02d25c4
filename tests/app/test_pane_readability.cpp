// The panes read without a manual at 1280x720 and on a 1024-PU machine:
// headers elide at word boundaries and keep their full text in a tooltip,
// four panes take the shape that suits the space, the drawing fills its
// pane, big machines fold identical nodes into a "×N more" cell, PU grids
// are full blocks, and the legend says what the kernel's colour is.
#include "sim/compact_painter.h"
#include "sim/compact_scene.h"
#include "sim/comparison_page.h"
#include "sim/comparison_view.h"
#include "sim/frame_builder.h"
#include "sim/simulation_controller.h"
#include "sim/simulation_pane.h"
#include "test_machines.h"
#include "window_test_support.h"

#include "scenario/run.h"
#include "topology/import.h"

#include <catch2/catch.hpp>

#include <QDockWidget>
#include <QFontMetrics>
#include <QSet>

#include <algorithm>
#include <map>

using namespace schedscope;
using namespace schedscope::gui;

namespace {

std::shared_ptr<const Topology> sample(const char *name)
{
    return std::make_shared<const Topology>(load_topology(std::string("sample:") + name));
}

} // namespace

TEST_CASE("readability: PU squares pack as full blocks unless a ragged shape is much bigger", "[readability]")
{
    // Eight PUs in a roughly square area: 4x2, not 3+3+2.
    const GridShape eight = choose_square_grid(8, 60, 50);
    CHECK(eight.columns * eight.rows == 8);
    CHECK(eight.columns == 4);
    // Seven in a square: the only full shapes are a row or a column, far
    // smaller than 3+3+1, so the ragged grid wins there.
    const GridShape seven = choose_square_grid(7, 50, 50);
    CHECK(seven.columns == 3);
    CHECK(seven.rows == 3);
    CHECK(choose_square_grid(1, 10, 10).columns == 1);
}

TEST_CASE("readability: big-128's nodes of 8 PUs draw as full rows", "[readability]")
{
    const auto topo = sample("big-128");
    for (const auto &[w, h] : {std::pair{450.0, 230.0}, std::pair{780.0, 860.0}, std::pair{380.0, 400.0}}) {
        INFO(w << "x" << h);
        const CompactGeometry g = CompactGeometry::compute(*topo, w, h);
        CHECK(g.folded == 0);
        REQUIRE(g.cells.size() == 16);
        for (const CompactCell &c : g.cells) {
            std::map<double, int> per_row;
            for (const LayoutRect &r : c.pu_rect)
                ++per_row[r.y];
            REQUIRE(c.pu_rect.size() == 8);
            const int first = per_row.begin()->second;
            for (const auto &row : per_row)
                CHECK(row.second == first); // no short last row
        }
    }
}

TEST_CASE("readability: altix-1024 in a quarter of 1280x720 folds identical nodes into one cell", "[readability]")
{
    const auto topo = sample("altix-1024");
    const CompactGeometry g = CompactGeometry::compute(*topo, 450, 230);
    REQUIRE(g.folded > 0);
    CHECK(g.labelled);
    CHECK(g.cell_w >= kMinCompactCellWPx);
    CHECK(g.cell_h >= kMinCompactCellHPx);
    // First nodes in order, the fold, the last node: every node is somewhere.
    int folds = 0, covered = 0, expect_node = 0;
    for (size_t i = 0; i < g.cells.size(); ++i) {
        const CompactCell &c = g.cells[i];
        CHECK(c.node == expect_node);
        if (c.hidden > 0) {
            ++folds;
            CHECK(c.hidden == g.folded);
            CHECK(compact_cell_label(c) == QString::fromUtf8("\u00d7%1 more").arg(g.folded));
            CHECK(c.pus.empty());
        } else {
            CHECK(compact_cell_label(c) == QStringLiteral("N#%1").arg(c.node));
            CHECK(c.pu_rect.size() == 2);
        }
        covered += std::max(1, c.hidden);
        expect_node = c.node + std::max(1, c.hidden);
    }
    CHECK(folds == 1);
    CHECK(covered == topo->numa_count());
    CHECK(g.cells.back().node == topo->numa_count() - 1);
    CHECK(g.cells[g.cells.size() - 2].hidden == g.folded);

    // The fold sums what runs on its nodes, by colour; its memory bar is a
    // node's average so it reads on the scale of the cells beside it.
    PaneFrame f;
    f.pus.resize(topo->pu_count());
    f.tasks.resize(2);
    f.tasks[0].colour = 0;
    f.tasks[1].colour = 1;
    const CompactCell &fold = g.cells[g.cells.size() - 2];
    // Two places wide, so its label and node range are not cut.
    CHECK(fold.rect.w > 2 * g.cell_w);
    CHECK(g.cells.back().rect.x > fold.rect.right());
    CHECK(g.cells.back().rect.y == fold.rect.y);
    int busy = 0;
    for (int k = fold.node; k < fold.node + fold.hidden; k += 3) {
        const int pu = topo->pus_of_node(k).first();
        f.pus[pu].current = k % 2;
        ++busy;
    }
    f.proc_node_bytes = {std::vector<double>(topo->numa_count(), 10.0)};
    const CompactScene sc = CompactScene::compute(*topo, g, f);
    const CompactCellState &s = sc.cells[g.cells.size() - 2];
    CHECK(s.busy == busy);
    CHECK(s.pu_total == 2 * fold.hidden);
    int by_colour = 0;
    for (const auto &entry : s.busy_by_colour)
        by_colour += entry.second;
    CHECK(by_colour == busy);
    REQUIRE(s.memory.size() == 1);
    CHECK(s.memory.front().second == Approx(10.0));
    CHECK(sc.cells.front().busy == 0); // node 0 runs nothing here
}

TEST_CASE("readability: a fold never hides a node unlike the others", "[readability]")
{
    test::MachineShape shape;
    shape.packages = 300;
    shape.cores_per_package = 2;
    shape.pus_per_core = 1;
    const Topology same = test::make_machine(shape);
    CHECK(CompactGeometry::compute(same, 450, 230).folded > 0);
    shape.odd_node = 200; // less memory on one node in the middle
    const Topology odd = test::make_machine(shape);
    const CompactGeometry g = CompactGeometry::compute(odd, 450, 230);
    CHECK(g.folded == 0);
    CHECK(g.cells.size() == 300);
}

TEST_CASE("readability: a pane big enough for every node does not fold", "[readability]")
{
    const auto topo = sample("altix-1024");
    const CompactGeometry g = CompactGeometry::compute(*topo, 32 * 60, 16 * 48);
    CHECK(g.folded == 0);
    CHECK(g.cells.size() == 512);
}

TEST_CASE("readability: headers elide at a word and keep the full text in a tooltip", "[readability]")
{
    QFont font;
    font.setPixelSize(12);
    const QFontMetrics fm(font);
    const QString text = QStringLiteral("progress 8.6% | idle 0.0% | local access 31.0%");
    CHECK(elide_words(text, fm, 10000) == text);
    const QString cut = elide_words(text, fm, fm.horizontalAdvance(QStringLiteral("progress 8.6% | idle 0.")));
    CHECK(cut == QStringLiteral("progress 8.6%\u2026"));

    SimulationPane pane;
    pane.resize(220, 200);
    // Too long for the title's two lines: the second is cut between words.
    pane.setParamsText(QStringLiteral("\u201cthe long label of this pane\u201d  mode=inverse, scan_period=1000ms, "
                                      "scan_size=256MB, migrate_threshold=2, pages_to_scan=32768"));
    const QString shown = pane.shownHeaderTitle();
    REQUIRE(pane.headerTitleLines() == 2);
    REQUIRE(shown.endsWith(QChar(0x2026)));
    const QString kept = QString(shown).replace(QLatin1Char('\n'), QLatin1Char(' ')).chopped(1);
    CHECK(pane.headerTitle().startsWith(kept));
    CHECK(pane.headerTitle().at(kept.size()).isSpace()); // cut between words
    CHECK(pane.headerToolTip().contains(pane.headerTitle()));
}

TEST_CASE("readability: four panes go 2x2 in a roomy area and in a row in a strip", "[readability]")
{
    CHECK(choose_pane_columns(4, 930, 560) == 2); // 1280x720, no charts
    CHECK(choose_pane_columns(4, 930, 250) == 4); // 1280x720 with the charts below
    CHECK(choose_pane_columns(2, 1560, 900) == 2);
    CHECK(choose_pane_columns(3, 1560, 900) == 3);
    CHECK(choose_pane_columns(1, 100, 100) == 1);
}

TEST_CASE("readability: the machine drawing fills the pane's width and height", "[readability]")
{
    SimulationPane pane;
    pane.show();
    pane.resize(460, 290); // a 4-pane comparison at 1280x720
    pane.setTopology(sample("dell-r910-4node"));
    REQUIRE(pane.mode() == PaneMode::Detail);
    // The header takes more lines of figures in a narrow pane (headerHeight).
    const double content_w = pane.width() - 12, content_h = pane.height() - pane.headerHeight() - 12;
    const auto &l = pane.geometry().layout;
    CHECK(l.width() * pane.fitScale() >= 0.95 * content_w);
    CHECK(l.height() * pane.fitScale() >= 0.95 * content_h);
    // Spread, not blown up: the scale that sizes text stays within the
    // panes' cap however the boxes are spread.
    CHECK(pane.fitScale() <= 1.6);
    // Every PU's token slot still lies inside its PU's box.
    const auto topo = sample("dell-r910-4node");
    for (int p = 0; p < topo->pu_count(); ++p) {
        const int box = l.box_of(topo->pu(p));
        REQUIRE(box >= 0);
        CHECK(l.boxes()[box].rect.contains(pane.geometry().pu_slot[p]));
    }
}

TEST_CASE("readability: the kernel's colour is named as OS-noise threads", "[readability]")
{
    Scenario s;
    s.name = "noise";
    s.topology = "synthetic:pack:2 [numa] core:2 pu:1";
    s.workload = {"numa01", {{"memory_mb", "16"}, {"loops", "1"}}};
    s.policies = {{"sched-domains", {}}};
    const auto topo = scenario_topology(s);
    Simulation sim = build_simulation(s, s.policies[0], 1, topo);
    sim.run_until(10'000'000);
    RecordingCursor cursor;
    const PaneFrame f = build_pane_frame(sim, false, cursor);
    CHECK(std::count(f.colour_names.begin(), f.colour_names.end(), std::string(kKernelColourName)) == 1);
    CHECK(std::count(f.colour_names.begin(), f.colour_names.end(), std::string("kernel")) == 0);
    // The process list keeps the model's name.
    CHECK(std::count(f.process_names.begin(), f.process_names.end(), std::string("kernel")) == 1);
}

TEST_CASE("readability: at 1280x720 the tree dock leaves the panes most of the width", "[readability][window]")
{
    CHECK(MainWindow::defaultTreeWidth(1280) == 256);
    CHECK(MainWindow::defaultTreeWidth(1920) == 340);
    CHECK(MainWindow::defaultTreeWidth(800) == 200);
    test::QuietWindow w;
    w.window.resize(1280, 720);
    w.window.show();
    REQUIRE(w.window.openScenarioFile(
        QStringLiteral(SCHEDSCOPE_SOURCE_SAMPLES_DIR "/scenarios/autonuma-4node-numa01.json")));
    REQUIRE(w.window.comparisonPage()->controller()->waitLoaded());
    for (int i = 0; i < 3; ++i)
        QCoreApplication::processEvents();
    ComparisonView *view = w.window.comparisonPage()->view();
    REQUIRE(view->paneCount() == 4);
    CHECK(view->pane(0)->width() >= 450);
    CHECK(view->pane(0)->height() >= 240);
    // With the charts below, the panes go in a row rather than four slivers.
    w.window.showDocks({QStringLiteral("charts")});
    for (int i = 0; i < 3; ++i)
        QCoreApplication::processEvents();
    CHECK(view->columns() == 4);
    CHECK(view->pane(0)->height() >= 180);
}
