// Big machines in the panes: above the threshold a pane draws one compact
// cell per NUMA node, and Ctrl+wheel zooms into the full drawing.
#include "sim/compact_scene.h"
#include "sim/simulation_pane.h"
#include "topology/import.h"

#include <catch2/catch.hpp>

#include <QApplication>
#include <QWheelEvent>

using namespace schedscope;
using namespace schedscope::gui;

namespace {

std::shared_ptr<const Topology> sample(const char *name)
{
    return std::make_shared<const Topology>(load_topology(std::string("sample:") + name));
}

void ctrl_wheel(QWidget &w, QPointF at, int notches)
{
    QWheelEvent e(at, w.mapToGlobal(at), QPoint(), QPoint(0, 120 * notches), Qt::NoButton, Qt::ControlModifier,
                  Qt::NoScrollPhase, false);
    QApplication::sendEvent(&w, &e);
}

} // namespace

TEST_CASE("a pane picks compact cells only for a big machine it cannot draw readably", "[zoom]")
{
    CHECK(choose_pane_mode(32, 4, 0.3, 1.0) == PaneMode::Detail);   // small machine: always in full
    CHECK(choose_pane_mode(64, 8, 0.3, 1.0) == PaneMode::Detail);   // at the threshold
    CHECK(choose_pane_mode(128, 8, 0.3, 1.0) == PaneMode::Compact); // too small to read
    CHECK(choose_pane_mode(128, 8, 0.9, 1.0) == PaneMode::Detail);  // a big pane reads fine
    CHECK(choose_pane_mode(1024, 512, 0.05, 1.0) == PaneMode::Compact);
    CHECK(choose_pane_mode(1024, 512, 0.05, 2.0) == PaneMode::Detail); // zoomed in by the user
    CHECK(choose_pane_mode(1024, 1, 0.05, 1.0) == PaneMode::Detail);   // no nodes to make cells of
}

TEST_CASE("altix-1024 at 1600x1000 shows labelled cells and folds the nodes that do not fit", "[zoom]")
{
    // Two panes side by side in a 1600x1000 window: 512 nodes do not fit
    // at a readable size, so the identical ones past the room fold.
    SimulationPane pane;
    pane.show();
    pane.resize(780, 860);
    pane.setTopology(sample("altix-1024"));
    REQUIRE(pane.mode() == PaneMode::Compact);
    const CompactGeometry &g = pane.compactGeometry();
    CHECK(g.folded > 0);
    CHECK(g.cells.size() + g.folded - 1 == 512);
    CHECK(g.labelled);
    CHECK(g.cell_w >= kMinCompactCellWPx);
    CHECK(g.cell_h >= kMinCompactCellHPx);
    for (const CompactCell &c : g.cells) {
        CHECK(c.memory.h >= 3);
        CHECK(c.memory.w >= 10);
        if (c.hidden > 0)
            continue;
        CHECK(c.pu_rect.size() == 2);
        for (const LayoutRect &r : c.pu_rect) {
            CHECK(r.w >= 8);
            CHECK(c.rect.contains(r));
        }
    }
    CHECK(g.width <= 780);
    CHECK(g.height <= 860);
}

TEST_CASE("big-128 in a half window shows its nodes labelled", "[zoom]")
{
    SimulationPane pane;
    pane.show();
    pane.resize(780, 860);
    pane.setTopology(sample("big-128"));
    if (pane.mode() == PaneMode::Compact) {
        CHECK(pane.compactGeometry().labelled);
        CHECK(pane.compactGeometry().cells.size() == static_cast<size_t>(sample("big-128")->numa_count()));
    } else {
        CHECK(pane.fitScale() >= kReadableScale); // drawn in full, labels readable
    }
    // In a quarter of the window it is too small to draw in full.
    pane.resize(380, 400);
    CHECK(pane.mode() == PaneMode::Compact);
}

TEST_CASE("Ctrl+wheel zooms a pane into the full drawing and back", "[zoom]")
{
    SimulationPane pane;
    pane.show();
    pane.resize(780, 860);
    pane.setTopology(sample("altix-1024"));
    REQUIRE(pane.mode() == PaneMode::Compact);
    const QPointF at(300, 400);
    ctrl_wheel(pane, at, 1);
    CHECK(pane.zoom() > 1.0);
    CHECK(pane.mode() == PaneMode::Detail);
    // The first step lands where labels are readable.
    CHECK(pane.fitScale() * pane.zoom() >= kReadableScale - 1e-9);
    const double z = pane.zoom();
    ctrl_wheel(pane, at, 2);
    CHECK(pane.zoom() > z);
    // The layout point under the pointer stays under it.
    const QPointF before = pane.toLayout(at);
    ctrl_wheel(pane, at, 1);
    const QPointF after = pane.toLayout(at);
    CHECK(before.x() == Approx(after.x()).margin(1e-6));
    CHECK(before.y() == Approx(after.y()).margin(1e-6));
    ctrl_wheel(pane, at, -50);
    CHECK(pane.zoom() == 1.0);
    CHECK(pane.mode() == PaneMode::Compact);
    // A plain wheel does not zoom.
    QWheelEvent plain(at, pane.mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(&pane, &plain);
    CHECK(pane.zoom() == 1.0);
}

TEST_CASE("a compact cell shows who runs, the queue, the memory and the heat of its node", "[zoom]")
{
    const auto topo = sample("altix-1024");
    const CompactGeometry g = CompactGeometry::compute(*topo, 800, 800);
    PaneFrame f;
    f.pus.resize(topo->pu_count());
    f.tasks.resize(3);
    f.tasks[0].proc = f.tasks[0].colour = 0;
    f.tasks[1].proc = f.tasks[1].colour = 1;
    f.tasks[2].proc = f.tasks[2].colour = 1;
    const int pu = g.cells[5].pus[1];
    f.pus[pu].current = 1;
    f.pus[pu].queued = {0, 2};
    f.proc_node_bytes = {std::vector<double>(topo->numa_count(), 0.0), std::vector<double>(topo->numa_count(), 0.0)};
    f.proc_node_bytes[0][5] = 100;
    f.proc_node_bytes[1][5] = 300;
    f.proc_node_bytes[1][7] = 50;
    const ObjId cache = topo->caches_of_pu(pu).front();
    f.caches.push_back({cache, 0.5f, 1});
    const CompactScene sc = CompactScene::compute(*topo, g, f);
    REQUIRE(sc.cells.size() == g.cells.size());
    const CompactCellState &s = sc.cells[5];
    CHECK(s.running == std::vector<int>{-1, 1});
    CHECK(s.busy == 1);
    CHECK(s.queued == 2);
    CHECK(sc.max_queued == 2);
    CHECK(s.memory.size() == 2);
    CHECK(sc.max_node_bytes == 400);
    CHECK(s.heat > 0);
    CHECK(s.heat_proc == 1);
    CHECK(sc.cells[7].busy == 0);
    CHECK(sc.cells[7].memory.size() == 1);
}
