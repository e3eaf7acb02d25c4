// The window's loading paths, with errors captured instead of shown in a
// modal box, and the view's interaction.
#include "main_window.h"
#include "synthetic_dialog.h"
#include "test_machines.h"
#include "topology/import.h"
#include "topology_layout.h"
#include "topology_opener.h"
#include "topology_tree_model.h"
#include "topology_view.h"
#include "window_test_support.h"

#include <catch2/catch.hpp>

#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QHelpEvent>
#include <QMenu>
#include <QMenuBar>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>
#include <QWheelEvent>

using namespace schedscope;
using namespace schedscope::gui;
using schedscope::test::write_file;

namespace {
struct Messages {
    QStringList titles, texts;
    ErrorSink sink()
    {
        return [this](const QString &title, const QString &text) {
            titles << title;
            texts << text;
        };
    }
};

} // namespace

TEST_CASE("bad topology files give one message naming the file, never a crash", "[window]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    Messages messages;
    MainWindow window;
    window.setErrorSink(messages.sink());

    REQUIRE(window.openTopology("synthetic:pack:2 core:2 pu:2"));
    const auto good = window.topology();
    REQUIRE(good);
    CHECK(good->pu_count() == 8);
    CHECK(messages.texts.isEmpty());

    const QString garbage = write_file(dir, "garbage.xml", "<?xml version=\"1.0\"?><topology><object type=");
    const QString binary = write_file(dir, "binary.bin", QByteArray("\x00\x01\x02\xff\xfe", 5).repeated(100));
    const QString empty = write_file(dir, "empty.txt", "");
    for (const QString &path : {garbage, binary, empty, dir.filePath("missing.xml")}) {
        INFO(path.toStdString());
        messages.texts.clear();
        CHECK_FALSE(window.openTopology(path.toStdString()));
        REQUIRE(messages.texts.size() == 1);
        CHECK(messages.texts.front().contains(QFileInfo(path).fileName()));
        CHECK(window.topology() == good); // the previous machine stays
    }

    messages.texts.clear();
    CHECK_FALSE(window.openTopology("synthetic:pack:2 bogus:3"));
    CHECK(messages.texts.size() == 1);
    messages.texts.clear();
    CHECK_FALSE(window.openTopology("sample:no-such-machine"));
    CHECK(messages.texts.size() == 1);
}

TEST_CASE("open_topology reports through the sink and returns null", "[window]")
{
    Messages messages;
    CHECK(open_topology("/nonexistent/dir/topo.xml", messages.sink()) == nullptr);
    REQUIRE(messages.texts.size() == 1);
    CHECK(messages.texts.front().contains("topo.xml"));
    CHECK(open_topology("synthetic:pu:2", messages.sink()) != nullptr);
    CHECK(messages.texts.size() == 1);
}

TEST_CASE("the synthetic dialog validates as the user types", "[window]")
{
    SECTION("with an injected validator")
    {
        SyntheticDialog dialog(nullptr, [](const QString &s) { return s == "ok" ? QString() : QString("bad: " + s); });
        dialog.setDescription("ok");
        CHECK(dialog.isAcceptable());
        CHECK(dialog.errorText().isEmpty());
        dialog.setDescription("nope");
        CHECK_FALSE(dialog.isAcceptable());
        CHECK(dialog.errorText() == "bad: nope");
    }
    SECTION("with hwloc")
    {
        SyntheticDialog dialog;
        CHECK_FALSE(dialog.isAcceptable()); // empty to start with
        dialog.setDescription("pack:2 [numa] l3:1 core:6 pu:2");
        CHECK(dialog.isAcceptable());
        dialog.setDescription("pack:2 core:x");
        CHECK_FALSE(dialog.isAcceptable());
        CHECK_FALSE(dialog.errorText().isEmpty());
    }
}

TEST_CASE("the window shows the topology in the view, the tree and the distance dock", "[window]")
{
    Messages messages;
    MainWindow window;
    window.setErrorSink(messages.sink());
    REQUIRE(window.openTopology("synthetic:pack:2 [numa] l3:1 core:6 pu:2"));
    CHECK(window.topologyView()->topologyLayout().count(ObjType::PU) == 24);
    CHECK(window.treeModel()->rowCount() == 1);
    CHECK(window.distanceDock()->isHidden()); // on demand only

    // The Samples menu lists every sample machine.
    const auto menus = window.menuBar()->findChildren<QMenu *>();
    const auto samples = std::find_if(menus.begin(), menus.end(), [](QMenu *m) { return m->title() == "&Samples"; });
    REQUIRE(samples != menus.end());
    // Machines are the actions whose data is a "sample:" spec (the menu also
    // has section headers and the sample scenarios).
    const auto expected = list_sample_topologies();
    QList<QAction *> machines;
    for (QAction *a : (*samples)->actions())
        if (a->data().toString().startsWith("sample:"))
            machines << a;
    CHECK(machines.size() == static_cast<qsizetype>(expected.size()));
    if (!expected.empty()) {
        machines.front()->trigger();
        CHECK(window.topology() != nullptr);
        CHECK(messages.texts.isEmpty());
    }
}

TEST_CASE("tooltips describe the object under the mouse", "[view]")
{
    TopologyView view;
    view.resize(800, 600);
    view.show();
    REQUIRE(QTest::qWaitForWindowExposed(&view));
    const auto topo = std::make_shared<const Topology>(test::make_machine({}));
    view.setTopology(topo);
    const LayoutRect r = view.topologyLayout().boxes()[view.topologyLayout().box_of(topo->pu(3))].rect;
    const QPointF origin = view.toLayout(QPointF(0, 0));
    const QPoint pos(qRound((r.x + r.w / 2 - origin.x()) * view.zoom()),
                     qRound((r.y + r.h / 2 - origin.y()) * view.zoom()));
    QHelpEvent help(QEvent::ToolTip, pos, view.viewport()->mapToGlobal(pos));
    QApplication::sendEvent(view.viewport(), &help);
    CHECK(QToolTip::text().contains("PU P#3"));
    CHECK(QToolTip::text().contains("OS index: 3"));
    QToolTip::hideText();
}

TEST_CASE("the view fits, zooms, and unfolds a fold on click", "[view]")
{
    TopologyView view;
    view.resize(900, 600);
    view.show();
    REQUIRE(QTest::qWaitForWindowExposed(&view));
    view.setTopology(std::make_shared<const Topology>(
        test::make_machine({.packages = 16, .cores_per_package = 32, .pus_per_core = 2})));
    REQUIRE(view.foldingEnabled());
    const TopologyLayout &layout = view.topologyLayout();
    const double fit = view.zoom();
    CHECK(fit > 0);
    // Fit means the whole machine is inside the viewport.
    CHECK(view.toLayout(QPointF(0, 0)).x() <= 0);
    CHECK(view.toLayout(QPointF(view.viewport()->width(), view.viewport()->height())).y() >= layout.height());

    view.zoomIn();
    CHECK(view.zoom() > fit);
    view.fitToWindow();
    CHECK(view.zoom() == Approx(fit));

    // Click the first core fold: package 0 shows its 32 cores.
    const int folds_before = view.topologyLayout().count(BoxKind::Fold);
    const auto &boxes = view.topologyLayout().boxes();
    const auto fold = std::find_if(boxes.begin(), boxes.end(), [](const LayoutBox &b) {
        return b.kind == BoxKind::Fold && b.type == ObjType::Core;
    });
    REQUIRE(fold != boxes.end());
    const LayoutRect r = fold->rect;
    QPointF on_screen;
    for (int y = 0; y < view.viewport()->height(); ++y) { // find the fold's centre on screen
        const QPointF p = view.toLayout(QPointF(0, y));
        if (p.y() >= r.y + r.h / 2) {
            on_screen.setY(y);
            break;
        }
    }
    const QPointF origin = view.toLayout(QPointF(0, 0));
    on_screen.setX((r.x + r.w / 2 - origin.x()) * view.zoom());
    REQUIRE(view.boxAt(on_screen) >= 0);
    REQUIRE(view.topologyLayout().boxes()[view.boxAt(on_screen)].kind == BoxKind::Fold);
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, on_screen.toPoint());
    CHECK(view.topologyLayout().count(BoxKind::Fold) == folds_before - 1);
    CHECK(view.topologyLayout().count(ObjType::Core) == 32 + 15 * 2);

    view.setFoldingEnabled(false);
    CHECK(view.topologyLayout().count(ObjType::PU) == 1024);
}

TEST_CASE("Ctrl+wheel zooms around the mouse, dragging pans", "[view]")
{
    TopologyView view;
    view.resize(600, 400);
    view.show();
    REQUIRE(QTest::qWaitForWindowExposed(&view));
    view.setTopology(std::make_shared<const Topology>(test::make_machine({.packages = 4})));
    const double fit = view.zoom();

    // An anchor the content can scroll to keep still (a point near the
    // drawing's left edge cannot: the view does not scroll past the edge).
    const QPointF anchor(300, 200);
    const QPointF under_before = view.toLayout(anchor);
    // Eight notches: the 2x2 packages then overflow the view both ways, so
    // neither axis is centred and both can pan.
    QWheelEvent wheel(anchor, view.viewport()->mapToGlobal(anchor), {}, QPoint(0, 960), Qt::NoButton,
                      Qt::ControlModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(view.viewport(), &wheel);
    CHECK(view.zoom() > fit * 1.3);
    const QPointF under_after = view.toLayout(anchor);
    CHECK(under_after.x() == Approx(under_before.x()).margin(2.0));
    CHECK(under_after.y() == Approx(under_before.y()).margin(2.0));

    // Drag left by 100 px: the content follows the mouse.
    const QPointF before = view.toLayout(QPointF(300, 200));
    QTest::mousePress(view.viewport(), Qt::LeftButton, {}, QPoint(300, 200));
    QTest::mouseMove(view.viewport(), QPoint(250, 200));
    QTest::mouseMove(view.viewport(), QPoint(200, 200));
    QTest::mouseRelease(view.viewport(), Qt::LeftButton, {}, QPoint(200, 200));
    const QPointF after = view.toLayout(QPointF(300, 200));
    CHECK(after.x() - before.x() == Approx(100 / view.zoom()).margin(1.0));
}
