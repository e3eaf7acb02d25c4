// The analysis docks as the window wires them: they exist with their View
// actions, get data from the running comparison, the explain view's task
// detail comes from the simulation thread and matches the engine, a lesson
// opens its scenario (after the unsaved-changes prompt), and the profiler's
// "Use for sched-domains" re-runs the sched-domains panes.
#include "main_window.h"
#include "panels/chart_data.h"
#include "panels/charts_panel.h"
#include "panels/decision_log_model.h"
#include "panels/explain_panel.h"
#include "panels/lesson_panel.h"
#include "panels/profiler_panel.h"
#include "panels/task_snapshot.h"
#include "sim/analysis_hookup.h"
#include "sim/comparison_page.h"
#include "sim/scenario_document.h"
#include "sim/simulation_controller.h"
#include "window_test_support.h"

#include "scenario/run.h"
#include "scenario/scenario.h"

#include <catch2/catch.hpp>

#include <QAction>
#include <QCoreApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSignalSpy>

using namespace schedscope;
using namespace schedscope::gui;
using schedscope::test::QuietWindow;
using schedscope::test::wait_until;

namespace {

Scenario small_numa_scenario()
{
    Scenario s;
    s.name = "docks";
    s.topology = "synthetic:pack:2 [numa] l3:1 core:4 pu:2";
    s.workload = {"numa01", {{"memory_mb", "64"}, {"loops", "4"}}};
    s.policies = {{"sched-domains", {}}, {"autonuma", {}}};
    return s;
}

QAction *find_action(const QList<QAction *> &actions, const QString &text)
{
    for (QAction *a : actions) {
        if (a->text().remove(QLatin1Char('&')) == text)
            return a;
        if (a->menu())
            if (QAction *found = find_action(a->menu()->actions(), text))
                return found;
    }
    return nullptr;
}

QAction *find_action(QMenuBar *bar, const QString &text) { return find_action(bar->actions(), text); }

} // namespace

TEST_CASE("integration: the four analysis docks exist with View actions and shortcuts", "[integration][docks]")
{
    QuietWindow w;
    const AnalysisDocks &d = w.window.analysisDocks();
    const std::pair<QDockWidget *, const char *> expected[] = {{d.charts_dock, "chartsDock"},
                                                               {d.explain_dock, "explainDock"},
                                                               {d.profiler_dock, "profilerDock"},
                                                               {d.lessons_dock, "lessonsDock"}};
    for (const auto &[dock, name] : expected) {
        REQUIRE(dock);
        CHECK(dock->objectName() == QLatin1String(name)); // saveState needs it
        CHECK_FALSE(dock->toggleViewAction()->shortcut().isEmpty());
    }
    CHECK(find_action(w.window.menuBar(), QStringLiteral("Profiler")));
    CHECK(find_action(w.window.menuBar(), QStringLiteral("Lessons")));
    CHECK(find_action(w.window.menuBar(), QStringLiteral("Export trace...")));
    CHECK(find_action(w.window.menuBar(), QStringLiteral("Export charts as CSV...")));
    CHECK(w.window.showDocks({QStringLiteral("profiler"), QStringLiteral("nonsense")}) ==
          QStringList{QStringLiteral("nonsense")});
    CHECK_FALSE(d.profiler_dock->isHidden());
}

TEST_CASE("integration: charts and profiler get data after stepping", "[integration][docks]")
{
    QuietWindow w;
    w.window.resize(1400, 900);
    w.window.show();
    w.window.showDocks({QStringLiteral("charts"), QStringLiteral("profiler"), QStringLiteral("explain")});
    REQUIRE(w.window.showScenario(small_numa_scenario(), {}));
    SimulationController *c = w.window.comparisonPage()->controller();
    REQUIRE(c->runTo(600'000'000));
    const AnalysisDocks &d = w.window.analysisDocks();

    d.charts->redraw();
    const std::vector<ChartData> charts = d.charts->charts();
    REQUIRE_FALSE(charts.empty());
    CHECK(charts.front().t_max_s > 0.3);

    // The profiler shows the machine and, once the paused comparison's copy
    // arrived, the selected pane's run with the core's analysis.
    REQUIRE(wait_until([&] { return d.profiler->analysis().has_value(); }));
    CHECK_FALSE(d.profiler->totalsText().isEmpty());
    CHECK(d.explain->logModel()->rowCount() > 0);
    CHECK(w.errors.isEmpty());
}

TEST_CASE("integration: the explain snapshot comes from the simulation thread and matches the engine",
          "[integration][explain]")
{
    QuietWindow w;
    const Scenario s = small_numa_scenario();
    REQUIRE(w.window.showScenario(s, {}));
    SimulationController *c = w.window.comparisonPage()->controller();
    constexpr SimTime kAt = 500'000'000;
    REQUIRE(c->runTo(kAt));
    REQUIRE(c->time() == kAt);

    QSignalSpy spy(c, &SimulationController::taskSnapshotReady);
    const TaskId task = 3;
    const int pane = 1; // autonuma: memory moves, so placement is worth comparing
    c->requestTaskSnapshot(pane, task);
    REQUIRE(wait_until([&] { return spy.count() > 0; }));
    const auto got = spy.takeFirst().at(0).value<TaskSnapshot>();

    // The same run in this thread, straight to the same instant.
    RunSetupPtr setup = c->setup();
    Simulation sim = build_simulation(setup->scenario, setup->policies[pane], setup->scenario.seed, setup->topology);
    sim.run_until(kAt);
    const TaskSnapshot want = take_task_snapshot(sim, task, pane);
    INFO("tasks " << sim.tasks().size() << " state '" << want.state << "' proc " << want.proc << " name '" << want.name
                  << "' process '" << want.process << "'");
    CHECK(got.pane == pane);
    CHECK(got.task == task);
    CHECK(got.at_ns == want.at_ns);
    CHECK(got.cpu == want.cpu);
    CHECK(got.state == want.state);
    CHECK(got.path.size() == want.path.size());
    REQUIRE(got.warmth.size() == want.warmth.size());
    for (std::size_t i = 0; i < got.warmth.size(); ++i) {
        CHECK(got.warmth[i].cache == want.warmth[i].cache);
        CHECK(got.warmth[i].bytes == Approx(want.warmth[i].bytes));
    }
    CHECK(got.process_node_bytes == want.process_node_bytes);

    // Through the explain view: the provider asks, the detail fills in.
    ExplainPanel *explain = w.window.analysisDocks().explain;
    // The log alone knows no process, state or warmth: those mark the
    // simulation thread's answer.
    REQUIRE_FALSE(want.process.empty());
    explain->selectTask(pane, task);
    REQUIRE(wait_until([&] {
        const QString text = explain->detailText();
        return text.contains(QStringLiteral("Warmth per cache")) &&
               text.contains(QString::fromStdString(want.process)) && text.contains(QString::fromStdString(want.state));
    }));
    if (!want.warmth.empty())
        CHECK(explain->detailText().contains(QString::fromStdString(want.warmth.front().label)));
    // SCHEDSCOPE_ANALYSIS_PNG_DIR=/some/dir keeps a picture of the detail to look at.
    if (const QString keep = qEnvironmentVariable("SCHEDSCOPE_ANALYSIS_PNG_DIR"); !keep.isEmpty()) {
        explain->resize(1200, 500);
        explain->show();
        QCoreApplication::processEvents();
        CHECK(explain->grab().save(keep + QStringLiteral("/integration_explain_detail.png")));
    }
}

TEST_CASE("integration: a lesson opens its scenario after the unsaved-changes prompt", "[integration][lessons]")
{
    QuietWindow w;
    LessonPanel *lessons = w.window.analysisDocks().lessons;
    REQUIRE(lessons->lessons().size() >= 4);
    lessons->setScenarioDirectory(QStringLiteral(SCHEDSCOPE_SOURCE_SAMPLES_DIR "/scenarios"));
    REQUIRE(w.window.showScenario(small_numa_scenario(), {}));
    w.window.document()->modify(w.window.document()->scenario()); // unsaved changes

    lessons->setCurrentLesson(0);
    const QString path = lessons->scenarioPath(0);
    REQUIRE(QFileInfo::exists(path));

    w.answer = QMessageBox::Cancel; // the user keeps the current scenario
    lessons->openCurrentScenario();
    CHECK(w.prompts == 1);
    CHECK(w.window.document()->path().isEmpty());

    w.answer = QMessageBox::Discard;
    lessons->openCurrentScenario();
    CHECK(w.prompts == 2);
    CHECK(QFileInfo(w.window.document()->path()) == QFileInfo(path));
    CHECK(w.window.comparisonPage()->controller()->waitLoaded());
    CHECK(w.errors.isEmpty());

    // Help > Lessons lists every lesson by title.
    QMenu *lessons_menu = nullptr;
    for (QMenu *m : w.window.menuBar()->findChildren<QMenu *>())
        if (m->title().remove(QLatin1Char('&')) == QLatin1String("Lessons"))
            lessons_menu = m;
    REQUIRE(lessons_menu);
    CHECK(lessons_menu->actions().size() == static_cast<int>(lessons->lessons().size()));
    CHECK(lessons_menu->actions().front()->text() == QString::fromStdString(lessons->lessons().front().title));
}

TEST_CASE("integration: Use for sched-domains re-runs the sched-domains panes", "[integration][profiler]")
{
    QuietWindow w;
    REQUIRE(w.window.showScenario(small_numa_scenario(), {}));
    SimulationController *c = w.window.comparisonPage()->controller();
    REQUIRE(c->runTo(200'000'000));

    // Per-level values (no saved file): the panel's signal as it would come.
    const QMap<QString, double> levels{{QStringLiteral("NUMA"), 7.5}, {QStringLiteral("overall"), 3.0}};
    emit w.window.analysisDocks().profiler->useForSchedDomains(QString(), levels);
    REQUIRE(c->waitLoaded());
    const RunSetupPtr setup = c->setup();
    CHECK(setup->policies[0].params.at("cache_hot_time_ms.NUMA") == "7.5");
    CHECK(setup->policies[1].params.empty()); // autonuma untouched
    CHECK(c->time() == 200'000'000);          // back where it was
    CHECK(w.window.document()->isDirty());
    CHECK(w.errors.isEmpty());
}

TEST_CASE("integration: profile changes target sched-domains panes, else the selected one", "[integration][profiler]")
{
    RunSetup setup;
    setup.policies = {{"autonuma", {}}, {"sched-domains", {{"cache_hot_time_ms.SMT", "1"}}}};
    auto changes = profile_policy_changes(setup, 0, QStringLiteral("/tmp/p.json"), {});
    REQUIRE(changes.size() == 1);
    CHECK(changes[0].first == 1);
    CHECK(changes[0].second.params ==
          ParamMap{{"autotune", "profile"}, {"profile", "/tmp/p.json"}}); // explicit level dropped

    setup.policies = {{"autonuma", {}}, {"simple", {}}};
    changes = profile_policy_changes(setup, 1, {}, {{QStringLiteral("SMT"), 0.5}});
    REQUIRE(changes.size() == 1);
    CHECK(changes[0].first == 1);
    CHECK(changes[0].second.params == ParamMap{{"cache_hot_time_ms.SMT", "0.5"}});
}
