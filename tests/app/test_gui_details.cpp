// The smaller things a new user trips over: the explain view's count and a
// stale task after another scenario, docks that open out of sight, axis
// labels that repeat, chart titles that lag, the profiler's idle read-out,
// clipped parameter errors, export folders, the status bar, the frame rate
// while paused, the menu order and the first-launch hint.
#include "export_location.h"
#include "main_window.h"
#include "object_text.h"
#include "panels/chart_data.h"
#include "panels/charts_panel.h"
#include "panels/cursor_chart_view.h"
#include "panels/decision_log_model.h"
#include "panels/explain_panel.h"
#include "panels/profiler_panel.h"
#include "sim/comparison_page.h"
#include "sim/playback_bar.h"
#include "sim/policy_dialog.h"
#include "sim/simulation_controller.h"
#include "window_test_support.h"

#include "topology/import.h"

#include <catch2/catch.hpp>

#include <QAction>
#include <QChart>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QXYSeries>

#include <set>

using namespace schedscope;
using namespace schedscope::gui;
using schedscope::test::QuietWindow;
using schedscope::test::wait_until;

namespace {

Scenario numa_scenario(const char *workload_memory = "32")
{
    Scenario s;
    s.name = "details";
    s.topology = "synthetic:pack:2 [numa] l3:1 core:2 pu:2";
    s.workload = {"numa01", {{"memory_mb", workload_memory}, {"loops", "2"}}};
    s.policies = {{"sched-domains", {}, {}}, {"autonuma", {}, {}}};
    return s;
}

std::vector<std::string> tick_labels(const AxisScale &a)
{
    std::vector<std::string> out;
    for (double v = 0; v <= a.top + a.step * 1e-6; v += a.step) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.*f", a.decimals, v);
        out.push_back(buf);
    }
    return out;
}

} // namespace

TEST_CASE("details: the explain count follows the log, and another scenario forgets the task", "[details][explain]")
{
    QuietWindow w;
    w.window.resize(1280, 720);
    w.window.show();
    ExplainPanel *explain = w.window.analysisDocks().explain;
    // The dock stays hidden: the count must not wait for a filter to be touched.
    REQUIRE(w.window.showScenario(numa_scenario(), {}));
    SimulationController *c = w.window.comparisonPage()->controller();
    REQUIRE(c->runTo(300'000'000));
    const int rows = explain->logModel()->rowCount();
    REQUIRE(rows > 0);
    CHECK(explain->countText() == QStringLiteral("%1 of %1 decisions shown").arg(rows));

    explain->selectTask(0, 1);
    DecisionFilter f;
    f.task = 1;
    explain->setFilter(f);
    REQUIRE(wait_until([&] { return explain->detailText().contains(QStringLiteral("Task 1")); }));

    // A re-run with other parameters keeps the task...
    PolicySpec changed{"sched-domains", {{"cache_hot_time_ms", "1"}}, {}};
    w.window.comparisonPage()->applyPolicies({{0, changed}});
    REQUIRE(c->waitLoaded());
    CHECK(explain->filter().task == std::optional<TaskId>(1));
    // ...another scenario does not: its task 1 is someone else.
    REQUIRE(w.window.showScenario(numa_scenario("16"), {}));
    REQUIRE(c->waitLoaded());
    CHECK_FALSE(explain->filter().task.has_value());
    CHECK_FALSE(explain->detailText().contains(QStringLiteral("Task 1")));
}

TEST_CASE("details: a dock opened by its shortcut comes to the front of its tab group", "[details][docks]")
{
    QuietWindow w;
    w.window.resize(1280, 720);
    w.window.show();
    const AnalysisDocks &d = w.window.analysisDocks();
    w.window.showDocks({QStringLiteral("charts"), QStringLiteral("explain")});
    QCoreApplication::processEvents();
    d.profiler_dock->toggleViewAction()->trigger();
    QCoreApplication::processEvents();
    CHECK(d.profiler_dock->isVisible());
    CHECK_FALSE(d.profiler_dock->visibleRegion().isEmpty());
    CHECK(d.charts_dock->visibleRegion().isEmpty()); // behind it now
}

TEST_CASE("details: value axes print distinct labels and zoom in on small percentages", "[details][charts]")
{
    for (double y_max : {0.012, 0.0004, 0.37, 2.4, 7.0, 13.0, 480.0, 12345.0}) {
        INFO(y_max);
        const AxisScale a = value_axis_scale(y_max, false);
        CHECK(a.top >= y_max);
        CHECK(a.top <= y_max * 2.5);
        const auto labels = tick_labels(a);
        CHECK(labels.size() >= 3);
        CHECK(std::set<std::string>(labels.begin(), labels.end()).size() == labels.size());
    }
    // Idle between 0 and 1 %: the axis is about that wide, not 0-100.
    CHECK(value_axis_scale(0.8, true).top <= 1.0);
    // A line at 100 % sits below the frame, not on it.
    CHECK(value_axis_scale(100, true).top > 100);
    CHECK(decimals_for_step(0.002) == 3);
    CHECK(decimals_for_step(0.25) == 2);
    CHECK(decimals_for_step(20) == 0);
}

TEST_CASE("details: the work chart's title follows the scenario, the process title follows the pick",
          "[details][charts]")
{
    QuietWindow w;
    w.window.resize(1280, 720);
    w.window.show();
    w.window.showDocks({QStringLiteral("charts")});
    ChartsPanel *charts = w.window.analysisDocks().charts;
    Scenario throughput;
    throughput.name = "tp";
    throughput.topology = "synthetic:pack:2 [numa] core:2 pu:1";
    throughput.workload = {"oltp", {}};
    throughput.duration_s = 1;
    throughput.policies = {{"simple", {}, {}}, {"sched-domains", {}, {}}};
    REQUIRE(w.window.showScenario(throughput, {}));
    REQUIRE(w.window.comparisonPage()->controller()->waitLoaded());
    charts->redraw();
    // Before any sample: the scenario already says it measures throughput.
    CHECK(charts->views()[2]->chartData().kind == ChartKind::Throughput);
    CHECK(charts->views()[2]->chart()->title().startsWith(QStringLiteral("Throughput")));

    REQUIRE(w.window.showScenario(numa_scenario(), {}));
    SimulationController *c = w.window.comparisonPage()->controller();
    REQUIRE(c->waitLoaded());
    charts->redraw();
    CHECK(charts->views()[2]->chart()->title().startsWith(QStringLiteral("Progress")));
    REQUIRE(c->runTo(300'000'000));
    charts->redraw();
    CHECK(charts->views()[0]->chart()->title().contains(QStringLiteral("all processes")));
    // The user picks the second process in the dock's box.
    auto *box = charts->findChild<QComboBox *>();
    REQUIRE(box);
    REQUIRE(box->count() >= 3);
    box->setCurrentIndex(2);
    emit box->activated(2);
    const QString picked = box->itemText(2);
    CHECK(charts->views()[0]->chart()->title().contains(picked));
    CHECK(charts->views()[1]->chart()->title().contains(picked));
    // Frames keep arriving (the process list is refreshed): the pick stays.
    REQUIRE(c->runTo(500'000'000));
    QCoreApplication::processEvents();
    charts->redraw();
    CHECK(charts->views()[0]->chart()->title().contains(picked));
    CHECK_FALSE(charts->views()[0]->chart()->title().contains(QStringLiteral("all processes")));
}

TEST_CASE("details: a one-sample line is drawn as a point", "[details][charts]")
{
    ChartData d;
    d.kind = ChartKind::LocalAccess;
    d.lines.push_back({"autonuma", 0, -1, {0.1}, {100.0}});
    d.t_max_s = 0.1;
    d.y_max = 100;
    CursorChartView view;
    view.setChartData(d);
    auto *series = qobject_cast<QXYSeries *>(view.chart()->series().front());
    REQUIRE(series);
    CHECK(series->pointsVisible());
}

TEST_CASE("details: the profiler shows no stale percentage beside 'No profile yet'", "[details][profiler]")
{
    ProfilerPanel panel;
    panel.setTopology(std::make_shared<const Topology>(load_topology("synthetic:pack:2 core:2 pu:1")), false);
    CHECK(panel.progressText().isEmpty());
}

TEST_CASE("details: a parameter's error message gets the room it needs", "[details][dialog]")
{
    PolicyDialog dialog(PolicySpec{"sched-domains", {}, {}});
    dialog.show();
    QLineEdit *field = dialog.field("cache_hot_time_ms");
    REQUIRE(field);
    field->setText(QStringLiteral("soon"));
    QCoreApplication::processEvents();
    QLabel *error = dialog.fieldErrorLabel("cache_hot_time_ms");
    REQUIRE(error);
    REQUIRE_FALSE(error->text().isEmpty());
    CHECK(error->height() >= error->heightForWidth(error->width()));
    CHECK(error->width() > 0);
}

TEST_CASE("details: export dialogs start in the last export folder, else Pictures or Documents", "[details][export]")
{
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
    const QString first = export_start_path(settings, QStringLiteral("charts.png"), ExportKind::Image);
    CHECK(QFileInfo(first).fileName() == QLatin1String("charts.png"));
    CHECK(QFileInfo(first).isAbsolute());
    CHECK(QFileInfo(first).absolutePath() != QDir::currentPath());
    remember_export_path(settings, dir.filePath(QStringLiteral("out.svg")));
    CHECK(export_start_path(settings, QStringLiteral("x.csv"), ExportKind::Data) ==
          dir.filePath(QStringLiteral("x.csv")));
    // A folder that has gone away is not offered.
    CHECK(export_start_dir(dir.filePath(QStringLiteral("gone")), ExportKind::Data) !=
          dir.filePath(QStringLiteral("gone")));
}

TEST_CASE("details: status bar counts read in the right number, zoom only on the Topology tab", "[details][status]")
{
    CHECK(machine_summary(load_topology("synthetic:pack:1 core:1 pu:1")) == "1 package, 1 NUMA node, 1 core, 1 PU");
    CHECK(machine_summary(load_topology("synthetic:pack:2 [numa] core:2 pu:2")) ==
          "2 packages, 2 NUMA nodes, 4 cores, 8 PUs");

    QuietWindow w;
    w.window.resize(1280, 720);
    w.window.show();
    QLabel *zoom = nullptr;
    REQUIRE(w.window.openTopology("synthetic:pack:2 core:2 pu:1"));
    w.window.tabs()->setCurrentIndex(1);
    QCoreApplication::processEvents();
    for (QLabel *l : w.window.statusBar()->findChildren<QLabel *>())
        if (l->text().startsWith(QStringLiteral("zoom")))
            zoom = l;
    REQUIRE(zoom);
    CHECK(zoom->isVisible());
    w.window.tabs()->setCurrentWidget(w.window.comparisonPage());
    CHECK_FALSE(zoom->isVisible());
}

TEST_CASE("details: no frame rate while paused, Help is the last menu", "[details][window]")
{
    QuietWindow w;
    REQUIRE(w.window.showScenario(numa_scenario(), {}));
    PlaybackBar *bar = w.window.comparisonPage()->bar();
    bar->setPlaying(true);
    bar->setFps(58);
    CHECK(bar->fpsText() == QStringLiteral("58 fps"));
    bar->setPlaying(false);
    CHECK(bar->fpsText().isEmpty());
    bar->setFps(12); // a frame after pausing (a scrub) is no rate either
    CHECK(bar->fpsText().isEmpty());

    const QList<QAction *> menus = w.window.menuBar()->actions();
    REQUIRE_FALSE(menus.isEmpty());
    CHECK(menus.back()->text().remove(QLatin1Char('&')) == QStringLiteral("Help"));
}

TEST_CASE("details: the first launch says how to start, and offers NUMA on a one-node machine", "[details][hint]")
{
    auto setup_on = [](const char *spec, const char *scenario_topology) {
        auto s = std::make_shared<RunSetup>();
        s->topology = std::make_shared<const Topology>(load_topology(spec));
        s->scenario.topology = scenario_topology;
        return s;
    };
    const auto laptop = setup_on("synthetic:pack:1 core:2 pu:2", "detect");
    CHECK(start_hint_html(laptop.get(), false).contains(QStringLiteral("Space")));
    CHECK(start_hint_html(laptop.get(), false).contains(QStringLiteral("open:numa-sample")));
    CHECK(start_hint_html(laptop.get(), true).contains(QStringLiteral("open:numa-lesson")));
    CHECK_FALSE(start_hint_html(laptop.get(), true).contains(QStringLiteral("Space")));
    // A sample with one node is a choice, not the user's machine: no offer.
    CHECK_FALSE(start_hint_html(setup_on("synthetic:pack:1 core:2 pu:2", "sample:x").get(), false)
                    .contains(QStringLiteral("open:")));
    const auto numa = setup_on("synthetic:pack:2 [numa] core:2 pu:1", "detect");
    CHECK_FALSE(start_hint_html(numa.get(), false).contains(QStringLiteral("open:")));

    QuietWindow w;
    w.window.resize(1280, 720);
    w.window.show();
    REQUIRE(w.window.showScenario(numa_scenario(), {}));
    ComparisonPage *page = w.window.comparisonPage();
    REQUIRE(page->controller()->waitLoaded());
    CHECK(page->hint()->isVisible());
    CHECK(page->hint()->text().contains(QStringLiteral("Space")));
    page->controller()->stepTick();
    REQUIRE(wait_until([&] { return !page->hint()->isVisible(); }));

    // The offer's links open a NUMA machine and the NUMA lesson.
    emit page->hintLinkActivated(QStringLiteral("open:numa-sample"));
    REQUIRE(page->controller()->waitLoaded());
    CHECK(page->controller()->setup()->topology->numa_count() >= 2);
}
