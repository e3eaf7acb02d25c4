// Robustness of the window: bad files opened through the paths of
// File > Open and File > Open scenario keep what was shown; every input kept
// from fuzzing opens or gives one message; closing while the simulation plays
// and the profiler measures joins both threads; the profiler cancels mid-run
// in its dock; and the window, every dock and every pane are resized down to
// 1x1 and painted while the simulation plays and while it is paused, with
// Qt's warnings about geometry or painting failing the test.
#include "main_window.h"
#include "panels/profiler_panel.h"
#include "sim/comparison_page.h"
#include "sim/comparison_view.h"
#include "sim/scenario_document.h"
#include "sim/simulation_controller.h"
#include "sim/simulation_pane.h"
#include "test_analysis_support.h"
#include "topology_view.h"
#include "window_test_support.h"

#include <catch2/catch.hpp>

#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QImage>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThread>

#include <fstream>
#include <string>

using namespace schedscope;
using namespace schedscope::gui;
using schedscope::test::QtWarningCounter;
using schedscope::test::QuietWindow;
using schedscope::test::wait_until;
using schedscope::test::write_file;

namespace {

// 512 PUs: a quarter million pairs, about 0.1 s of the profiler's model.
const std::string kProfilerMachine = "synthetic:pack:8 [numa] l3:1 core:32 pu:2";
// 1024 PUs: a million pairs, about 0.5 s. The cancel test needs its Cancel
// to land before the last pair: with 0.1 s of work, a GUI thread that lost
// its core for that long (the simulation plays meanwhile, on a 2-core host)
// found the run already complete, about one full test run in three.
const std::string kLongProfileMachine = "synthetic:pack:16 [numa] l3:1 core:32 pu:2";

// Threads of this process, to see the workers joined.
int thread_count()
{
    std::ifstream status("/proc/self/status");
    std::string key;
    while (status >> key) {
        if (key == "Threads:") {
            int n = 0;
            status >> n;
            return n;
        }
        status.ignore(1 << 16, '\n');
    }
    return -1;
}

// The thread count once it has stopped moving: threads of a window just
// destroyed, or of Qt's own start-up, may still be on their way out.
int settled_thread_count()
{
    int n = thread_count(), same = 0;
    for (int i = 0; i < 100 && same < 3; ++i) {
        QThread::msleep(30);
        QCoreApplication::processEvents();
        const int m = thread_count();
        same = m == n ? same + 1 : 0;
        n = m;
    }
    return n;
}

// What the user saw before a failed open, which a failed open must keep.
struct Shown {
    std::shared_ptr<const Topology> topology;
    RunSetupPtr setup;
    QString title;
    QString document;
    int panes = 0;

    explicit Shown(const MainWindow &w)
        : topology(w.topology()), setup(w.comparisonPage()->controller()->setup()), title(w.windowTitle()),
          document(w.document()->path()), panes(w.comparisonPage()->view()->paneCount())
    {
    }
    bool operator==(const Shown &o) const
    {
        return topology == o.topology && setup == o.setup && title == o.title && document == o.document &&
               panes == o.panes;
    }
};

// One failed open: false, exactly one message naming the file, nothing else changed.
void check_refused(QuietWindow &w, const std::function<bool()> &open, const QString &path)
{
    INFO("opening " << path.toStdString());
    const Shown before(w.window);
    w.errors.clear();
    CHECK_FALSE(open());
    REQUIRE(w.errors.size() == 1);
    INFO("message: " << w.errors.front().toStdString());
    CHECK(w.errors.front().contains(QFileInfo(path).fileName()));
    CHECK(Shown(w.window) == before);
}

QByteArray read_bytes(const QString &path)
{
    QFile f(path);
    REQUIRE(f.open(QIODevice::ReadOnly));
    return f.readAll();
}

QStringList kept_fuzz_inputs(const QString &target)
{
    const QDir dir(QStringLiteral(SCHEDSCOPE_TEST_DATA_DIR "/fuzz/") + target);
    QStringList paths;
    for (const QString &name : dir.entryList(QDir::Files, QDir::Name))
        paths << dir.filePath(name);
    return paths;
}

// Qt warnings a tiny or empty geometry can cause: painting on a null
// device, invalid sizes, NaN or infinite coordinates, font sizes <= 0.
QStringList geometry_warnings(const QStringList &warnings)
{
    static const QRegularExpression bad(
        QStringLiteral("paint|geometry|QRect|QFont|size|nan\\b|inf\\b|division|negative|invalid|null"),
        QRegularExpression::CaseInsensitiveOption);
    // The offscreen platform's notices of what it cannot do (raise(),
    // propagateSizeHints()) are about the platform, not our geometry.
    static const QRegularExpression platform(QStringLiteral("^This plugin does not support"));
    QStringList out;
    for (const QString &w : warnings)
        if (w.contains(bad) && !w.contains(platform))
            out << w;
    return out;
}

// Resizes `widget` through 1x1, 10x10 and 50x30 back to `normal`, letting
// frames arrive and painting it (grab()) at each size.
void shrink_and_paint(QWidget *widget, const QSize &normal)
{
    for (const QSize size : {QSize(1, 1), QSize(10, 10), QSize(50, 30), normal}) {
        INFO(widget->metaObject()->className()
             << " " << widget->objectName().toStdString() << " at " << size.width() << "x" << size.height());
        widget->resize(size);
        QCoreApplication::processEvents(QEventLoop::AllEvents, 30);
        const QImage image = widget->grab().toImage();
        CHECK_FALSE(image.isNull());
    }
}

// Every pane, view and dock of the window, shrunk and painted.
void shrink_everything(MainWindow &window)
{
    const QSize normal(1200, 800);
    shrink_and_paint(&window, normal);
    window.resize(normal);
    ComparisonPage *page = window.comparisonPage();
    shrink_and_paint(page, page->size());
    shrink_and_paint(page->view(), page->view()->size());
    for (int i = 0; i < page->view()->paneCount(); ++i)
        shrink_and_paint(page->view()->pane(i), page->view()->pane(i)->size());
    shrink_and_paint(window.topologyView(), QSize(800, 600));

    const QList<QDockWidget *> docks = window.findChildren<QDockWidget *>();
    REQUIRE(docks.size() >= 6);
    // Docked: the splitters dragged to one pixel.
    for (const Qt::Orientation o : {Qt::Horizontal, Qt::Vertical}) {
        window.resizeDocks(docks, QList<int>(docks.size(), 1), o);
        QCoreApplication::processEvents(QEventLoop::AllEvents, 30);
        CHECK_FALSE(window.grab().toImage().isNull());
    }
    for (QDockWidget *dock : docks) {
        dock->show();
        dock->raise(); // the front tab where docks share the bottom area
        shrink_and_paint(dock->widget(), QSize(600, 400));
        // Floating: the dock itself as a tiny window.
        dock->setFloating(true);
        shrink_and_paint(dock, QSize(600, 400));
        dock->setFloating(false);
    }
    window.resize(normal);
    QCoreApplication::processEvents(QEventLoop::AllEvents, 30);
}

} // namespace

TEST_CASE("robustness: bad files through File > Open keep the machine and the comparison, paused or playing",
          "[robustness][window]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    QuietWindow w;
    REQUIRE(w.window.openTopology("synthetic:pack:2 [numa] core:2 pu:2"));
    SimulationController *c = w.window.comparisonPage()->controller();
    REQUIRE(c->runTo(100'000'000));

    // hwloc's shape, well-formed XML, but a cpuset hwloc cannot read.
    const QString bad_hwloc = write_file(dir, "malformed-hwloc.xml",
                                         R"(<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE topology SYSTEM "hwloc2.dtd">
<topology version="2.0">
  <object type="Machine" os_index="0" cpuset="0x0000000f" complete_cpuset="0x0000000f" gp_index="1">
    <object type="PU" os_index="0" cpuset="0xzz" gp_index="2"/>
  </object>
</topology>)");
    // A real scenario cut in the middle.
    const QByteArray scenario = read_bytes(
        QStringLiteral(SCHEDSCOPE_SOURCE_SAMPLES_DIR "/scenarios/autonuma-2node-numa01.json"));
    const QString truncated = write_file(dir, "truncated-scenario.json", scenario.left(scenario.size() / 2));
    QByteArray noise(4096, '\0');
    QRandomGenerator random(9);
    for (char &byte : noise)
        byte = static_cast<char>(random.bounded(256));
    const QString garbage = write_file(dir, "garbage.bin", noise);
    const QString empty = write_file(dir, "empty.json", "");
    const QStringList bad{bad_hwloc, truncated, garbage, empty};

    SECTION("paused")
    {
        for (const QString &path : bad) {
            // File > Open topology and File > Open scenario.
            check_refused(
                w, [&] { return w.window.openTopology(path.toStdString()); }, path);
            check_refused(
                w, [&] { return w.window.openScenarioFile(path); }, path);
        }
        CHECK(c->time() == 100'000'000);
        CHECK_FALSE(c->isPlaying());
    }
    SECTION("playing")
    {
        c->play();
        for (const QString &path : bad) {
            check_refused(
                w, [&] { return w.window.openTopology(path.toStdString()); }, path);
            check_refused(
                w, [&] { return w.window.openScenarioFile(path); }, path);
        }
        CHECK(c->isPlaying());
        const SimTime t = c->time();
        CHECK(wait_until([&] { return c->time() > t; }, 10000));
        c->pause();
    }
}

TEST_CASE("robustness: every input kept from fuzzing opens in the window or gives one message",
          "[robustness][window][fuzz]")
{
    QuietWindow w;
    REQUIRE(w.window.openTopology("synthetic:pack:2 core:2 pu:1"));
    // Same contract as check_refused, but a valid input may load.
    auto judge = [&](const QString &path, const std::function<bool()> &open) {
        INFO("opening " << path.toStdString());
        const Shown before(w.window);
        w.errors.clear();
        if (open()) {
            CHECK(w.errors.isEmpty());
            return;
        }
        CHECK(w.errors.size() == 1);
        CHECK_FALSE(w.errors.value(0).isEmpty());
        CHECK(Shown(w.window) == before);
    };
    int inputs = 0;
    for (const QString &target :
         {QStringLiteral("hwloc_xml"), QStringLiteral("numactl"), QStringLiteral("sample_text")})
        for (const QString &path : kept_fuzz_inputs(target)) {
            ++inputs;
            judge(path, [&] { return w.window.openTopology(path.toStdString()); });
        }
    for (const QString &path : kept_fuzz_inputs(QStringLiteral("synthetic"))) {
        ++inputs;
        const std::string spec = "synthetic:" + read_bytes(path).toStdString();
        judge(path, [&] { return w.window.openTopology(spec); });
    }
    for (const QString &path : kept_fuzz_inputs(QStringLiteral("scenario"))) {
        ++inputs;
        judge(path, [&] { return w.window.openScenarioFile(path); });
    }
    CHECK(inputs > 0);
}

TEST_CASE("robustness: closing the window while the simulation plays and the profiler measures joins both threads",
          "[robustness][window][controller][profiler]")
{
    // Whatever Qt starts once per process (the offscreen platform, fonts)
    // is started by a first window, so it is not counted as ours.
    {
        QuietWindow warm;
        warm.window.show();
        QCoreApplication::processEvents();
    }
    const int threads_before = settled_thread_count();
    REQUIRE(threads_before > 0);

    auto *w = new QuietWindow;
    REQUIRE(w->window.openTopology(kProfilerMachine));
    w->window.resize(1200, 800);
    w->window.show();
    w->window.showDocks({QStringLiteral("profiler"), QStringLiteral("charts")});
    SimulationController *c = w->window.comparisonPage()->controller();
    REQUIRE(c->waitLoaded());
    c->setSpeed(0);
    c->play();
    CHECK(wait_until([&] { return c->time() > 0; }, 10000));
    ProfilerPanel *profiler = w->window.analysisDocks().profiler;
    profiler->start();
    REQUIRE(profiler->isRunning());
    CHECK(thread_count() >= threads_before + 2); // the simulation's and the profiler's

    QElapsedTimer closing;
    closing.start();
    CHECK(w->window.close());
    delete w;
    CHECK(closing.elapsed() < 5000);
    // QThread and std::thread are joined by then; the kernel may take a
    // moment to drop an exited thread from the count.
    CHECK(wait_until([&] { return thread_count() <= threads_before; }, 5000));
    INFO("threads before " << threads_before << ", after " << thread_count());
}

TEST_CASE("robustness: the profiler dock cancels mid-run while the simulation plays, and runs again",
          "[robustness][window][profiler]")
{
    QuietWindow w;
    REQUIRE(w.window.openTopology(kLongProfileMachine));
    w.window.show();
    w.window.showDocks({QStringLiteral("profiler")});
    SimulationController *c = w.window.comparisonPage()->controller();
    REQUIRE(c->waitLoaded());
    c->setSpeed(1.0);
    c->play();

    ProfilerPanel *profiler = w.window.analysisDocks().profiler;
    QSignalSpy ready(profiler, &ProfilerPanel::profileReady);
    for (int round = 0; round < 2; ++round) {
        INFO("round " << round);
        ready.clear();
        profiler->start();
        REQUIRE(profiler->isRunning());
        // At once: the model does a quarter million pairs in a fraction of a
        // second, so any wait could let the whole run finish first.
        profiler->cancel();
        REQUIRE((ready.count() == 1 || ready.wait(20000)));
        CHECK_FALSE(profiler->isRunning());
        REQUIRE(profiler->profile());
        CHECK_FALSE(profiler->profile()->complete);
    }
    // The simulation kept going throughout.
    CHECK(c->isPlaying());
    const SimTime t = c->time();
    CHECK(wait_until([&] { return c->time() > t; }, 10000));
    c->pause();
    CHECK(w.errors.isEmpty());
}

TEST_CASE("robustness: the window, every dock and every pane paint at 1x1, 10x10 and 50x30, playing and paused",
          "[robustness][window][render]")
{
    QtWarningCounter warnings;
    QuietWindow w;
    REQUIRE(w.window.openTopology("sample:numa-8node-64"));
    w.window.resize(1200, 800);
    w.window.show();
    CHECK(w.window
              .showDocks({QStringLiteral("charts"), QStringLiteral("explain"), QStringLiteral("profiler"),
                          QStringLiteral("lessons"), QStringLiteral("tree"), QStringLiteral("distances")})
              .isEmpty());
    SimulationController *c = w.window.comparisonPage()->controller();
    REQUIRE(c->waitLoaded());

    SECTION("playing")
    {
        c->setSpeed(0.5);
        c->play();
        const SimTime start = c->time();
        shrink_everything(w.window);
        CHECK(c->isPlaying());
        CHECK(c->time() > start); // frames arrived while the panes were tiny
        c->pause();
    }
    SECTION("paused")
    {
        REQUIRE(c->runTo(300'000'000));
        const SimTime paused_at = c->time();
        shrink_everything(w.window);
        CHECK(c->time() == paused_at);
    }
    const QStringList bad = geometry_warnings(warnings.messages());
    INFO("Qt warnings: " << bad.join(QStringLiteral("\n")).toStdString());
    CHECK(bad.isEmpty());
    CHECK(w.errors.isEmpty());
}
