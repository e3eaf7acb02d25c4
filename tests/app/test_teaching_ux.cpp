// The second teaching pass (issue 35): a finished run at "max" stops at its
// end, --speed shows on the slider, lesson 1's profile step keeps the
// comparison, one name per parameter in headers and legends (wakeup's
// default is each policy's own), node charts with distinct colours and
// tight axes, and a first window that fits the screen.
#include "../core/scoped_env.h"
#include "app_options.h"
#include "headless_runner.h"
#include "main_window.h"
#include "panels/chart_data.h"
#include "panels/charts_panel.h"
#include "panels/cursor_chart_view.h"
#include "panels/decision_filter.h"
#include "panels/decision_filter_model.h"
#include "panels/explain_panel.h"
#include "panels/lesson.h"
#include "panels/lesson_panel.h"
#include "panels/node_multiples_view.h"
#include "panels/profiler_panel.h"
#include "sim/analysis_hookup.h"
#include "sim/compact_scene.h"
#include "sim/comparison_page.h"
#include "sim/comparison_view.h"
#include "sim/playback_bar.h"
#include "sim/run_setup.h"
#include "sim/scenario_document.h"
#include "sim/sim_legend.h"
#include "sim/simulation_controller.h"
#include "sim/simulation_pane.h"
#include "sim/simulation_worker.h"
#include "window_settings.h"
#include "window_test_support.h"

#include "catalog/catalog.h"
#include "engine/policy.h"
#include "scenario/pane_label.h"
#include "scenario/run.h"
#include "scenario/scenario.h"

#include <catch2/catch.hpp>

#include <QAbstractItemModel>
#include <QAction>
#include <QChart>
#include <QCheckBox>
#include <QCoreApplication>
#include <QDir>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSlider>
#include <QTemporaryDir>
#include <QValueAxis>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <set>

using namespace schedscope;
using namespace schedscope::gui;
using schedscope::test::QuietWindow;
using schedscope::test::scenario_path;

namespace {

Scenario small_fixed_work()
{
    Scenario s;
    s.name = "teaching";
    s.topology = "synthetic:pack:2 [numa] l3:1 core:4 pu:2";
    s.workload = {"numa01", {{"memory_mb", "16"}, {"loops", "1"}}};
    s.policies = {{"sched-domains", {}}, {"autonuma", {}}};
    return s;
}

std::vector<std::string> labels(std::vector<PolicySpec> p) { return pane_labels(p); }

} // namespace

TEST_CASE("teaching: a run played at max speed stops at its end, not an hour later", "[teaching][playback]")
{
    QuietWindow w;
    const Scenario s = small_fixed_work();
    REQUIRE(w.window.showScenario(s, {}));
    SimulationController *c = w.window.comparisonPage()->controller();
    REQUIRE(c->waitLoaded());
    w.window.comparisonPage()->setSpeed(0);
    c->play();
    REQUIRE(c->isPlaying());
    REQUIRE(schedscope::test::wait_until([&] { return !c->isPlaying(); }, 120000));
    REQUIRE(c->frame()->all_finished);
    // Where the runs end, as `schedscope-cli run` reports it: the last of
    // them to finish.
    double last_end_s = 0;
    const auto topo = scenario_topology(s);
    for (const PolicySpec &p : effective_policies(s)) {
        const RunResult r = run_policy(s, p, s.seed, topo, {}, kDefaultMaxSimulatedS, false);
        REQUIRE(r.finished);
        last_end_s = std::max(last_end_s, r.elapsed_s);
    }
    const double shown_s = static_cast<double>(c->time()) / 1e9;
    INFO("clock at " << shown_s << " s, last run ended at " << last_end_s << " s");
    CHECK(shown_s == Approx(last_end_s).margin(0.001));
    CHECK(c->furthest() == c->time()); // the timeline ends there too
    CHECK(c->time() < SimulationWorker::time_limit(*c->setup()));
    CHECK(w.window.comparisonPage()->bar()->timeline()->maximum() == static_cast<int>(c->furthest() / kTimelineUnitNs));
    // A seek still lands where asked, past the end too (--run-to T shows T;
    // test_simulation.cpp's "a seek past the end ... lands exactly").
}

TEST_CASE("teaching: --speed 0 shows as max on the slider", "[teaching][playback]")
{
    QuietWindow w;
    AppOptions options;
    options.topology = "synthetic:pack:2 [numa] core:2 pu:1";
    options.speed = 0;
    REQUIRE(open_from_options(w.window, options));
    PlaybackBar *bar = w.window.comparisonPage()->bar();
    CHECK(w.window.comparisonPage()->controller()->speed() == 0);
    CHECK(bar->speedSlider()->value() == PlaybackBar::kSpeedSteps);
    bool says_max = false;
    for (const QLabel *l : bar->findChildren<QLabel *>())
        says_max = says_max || l->text() == QStringLiteral("max");
    CHECK(says_max);

    options.speed = 2;
    REQUIRE(open_from_options(w.window, options));
    CHECK(PlaybackBar::speedForPosition(bar->speedSlider()->value()) == Approx(2).epsilon(0.1));
}

TEST_CASE("teaching: a label compares the wakeup a policy really runs with", "[teaching][label][unit]")
{
    // cfs and the policies built on it queue by default, the others lock.
    CHECK(labels({{"cfs", {{"wakeup", "queued"}}, {}}, {"cfs", {}, {}}}) ==
          std::vector<std::string>{"cfs", "cfs #2"}); // the same run twice
    CHECK(labels({{"cfs", {{"wakeup", "locked"}}, {}}, {"cfs", {}, {}}}) ==
          std::vector<std::string>{"cfs wakeup=locked", "cfs wakeup=queued"});
    CHECK(labels({{"autonuma", {{"wakeup", "queued"}}, {}}, {"autonuma", {}, {}}})[1] == "autonuma #2");
    CHECK(labels({{"sched-domains", {{"wakeup", "locked"}}, {}}, {"sched-domains", {}, {}}})[1] == "sched-domains #2");
    CHECK(labels({{"sched-domains", {{"wakeup", "queued"}}, {}}, {"sched-domains", {}, {}}}) ==
          std::vector<std::string>{"sched-domains wakeup=queued", "sched-domains wakeup=locked"});
    CHECK(param_is_default({"cfs", {{"wakeup", "queued"}}, {}}, "wakeup"));
    CHECK_FALSE(param_is_default({"cfs", {{"wakeup", "locked"}}, {}}, "wakeup"));
    CHECK(param_is_default({"sched-domains", {{"wakeup", "locked"}}, {}}, "wakeup"));
}

TEST_CASE("teaching: a pane left at the default of the one differing parameter shows its value",
          "[teaching][label][unit]")
{
    CHECK(labels({{"sched-domains", {{"cache_hot_time_ms", "0"}}, {}}, {"sched-domains", {}, {}}}) ==
          std::vector<std::string>{"sched-domains cache_hot_time=0ms", "sched-domains cache_hot_time=2.5ms"});
}

TEST_CASE("teaching: pane headers name parameters as the legends do", "[teaching][label][window]")
{
    QuietWindow w;
    REQUIRE(w.window.openScenarioFile(scenario_path("lesson-cache-hotness.json")));
    SimulationController *c = w.window.comparisonPage()->controller();
    REQUIRE(c->waitLoaded());
    QCoreApplication::processEvents();
    const QStringList names = pane_label_list(*c->setup());
    REQUIRE(names.size() == 4);
    for (int i = 0; i < 4; ++i) {
        const SimulationPane *pane = w.window.comparisonPage()->view()->pane(i);
        INFO(pane->headerTitle().toStdString());
        // "sched-domains  cache_hot_time=2.5ms" for the label
        // "sched-domains cache_hot_time=2.5ms": the same name and value,
        // the 2.5 ms default included.
        const QString param = names[i].section(QLatin1Char(' '), 1);
        CHECK(param.startsWith(QStringLiteral("cache_hot_time=")));
        CHECK(pane->headerTitle().contains(param));
        CHECK(pane->headerTitle() == names[i]); // nothing else set: the header is the label
        CHECK_FALSE(pane->headerTitle().contains(QStringLiteral("cache_hot_time_ms")));
    }
    CHECK(names[1] == QStringLiteral("sched-domains cache_hot_time=2.5ms"));
}

TEST_CASE("teaching: Use for sched-domains re-runs one pane and keeps the others", "[teaching][profiler][unit]")
{
    RunSetup setup;
    setup.policies = {{"sched-domains", {{"cache_hot_time_ms", "0"}}},
                      {"sched-domains", {{"cache_hot_time_ms", "2.5"}}},
                      {"sched-domains", {{"cache_hot_time_ms", "10"}}}};
    const auto changes = profile_policy_changes(setup, 1, QStringLiteral("/tmp/p.json"), {});
    REQUIRE(changes.size() == 1);
    CHECK(changes[0].first == 1);
    // The profile replaces the pane's own value: a label keeping 2.5 ms would lie.
    CHECK(changes[0].second.params == ParamMap{{"autotune", "profile"}, {"profile", "/tmp/p.json"}});
    // Nothing selected that runs sched-domains: the first that does.
    setup.policies.insert(setup.policies.begin(), PolicySpec{"autonuma", {}});
    const auto first = profile_policy_changes(setup, 0, QStringLiteral("/tmp/p.json"), {});
    REQUIRE(first.size() == 1);
    CHECK(first[0].first == 1);
}

// Lesson 1, step 6, as written: pick the 2.5 ms pane in Explain, run the
// Profiler, press "Use for sched-domains". That pane alone re-runs with
// autotune=profile and its header says so; the other three keep theirs.
TEST_CASE("teaching: lesson 1 step 6 keeps the comparison", "[teaching][lessons][profiler]")
{
    QTemporaryDir data;
    const schedscope::testing::ScopedEnv xdg("XDG_DATA_HOME", data.path().toStdString());
    QuietWindow w;
    w.window.resize(1280, 720);
    w.window.show();
    w.window.showDocks({QStringLiteral("explain"), QStringLiteral("profiler")});
    REQUIRE(w.window.openScenarioFile(scenario_path("lesson-cache-hotness.json")));
    SimulationController *c = w.window.comparisonPage()->controller();
    REQUIRE(c->runTo(500'000'000));
    const std::vector<PolicySpec> before = c->setup()->policies;
    const AnalysisDocks &d = w.window.analysisDocks();

    // "In Explain, pick the cache_hot_time=2.5ms pane."
    const int pick = static_cast<int>(
        d.explain->paneNames().indexOf(QStringLiteral("sched-domains cache_hot_time=2.5ms")));
    REQUIRE(pick == 1);
    d.explain->setCurrentPane(pick);
    // "Open the Profiler and run it on this machine."
    QSignalSpy ready(d.profiler, &ProfilerPanel::profileReady);
    d.profiler->start();
    REQUIRE((ready.count() > 0 || ready.wait(60000)));
    // "Press Use for sched-domains."
    QPushButton *use = nullptr;
    for (QPushButton *b : d.profiler->findChildren<QPushButton *>())
        if (b->text().startsWith(QStringLiteral("Use for")))
            use = b;
    REQUIRE(use);
    REQUIRE(use->isEnabled());
    use->click();
    REQUIRE(schedscope::test::wait_until([&] { return c->setup()->policies[1].params.count("autotune") == 1; }));
    REQUIRE(c->waitLoaded());

    // "that pane alone re-runs with autotune=profile"
    const std::vector<PolicySpec> &after = c->setup()->policies;
    CHECK(after[1].params.at("autotune") == "profile");
    for (int i : {0, 2, 3})
        CHECK(after[static_cast<std::size_t>(i)].params == before[static_cast<std::size_t>(i)].params);
    // "and its header says so"
    CHECK(w.window.comparisonPage()->view()->pane(1)->headerTitle().contains(QStringLiteral("autotune=profile")));
    // "The other three keep their settings": four different panes, named apart.
    const QStringList names = pane_label_list(*c->setup());
    CHECK(std::set<QString>(names.begin(), names.end()).size() == 4);
    CHECK(names[0] == QStringLiteral("sched-domains cache_hot_time=0ms"));
    CHECK(names[2] == QStringLiteral("sched-domains cache_hot_time=10ms"));
    CHECK(w.window.comparisonPage()->view()->pane(2)->headerTitle().contains(QStringLiteral("cache_hot_time=10ms")));
    CHECK(c->time() == 500'000'000); // back where it was
    CHECK(w.errors.isEmpty());
}

TEST_CASE("teaching: node colours are apart from each other and from the cursor", "[teaching][charts][unit]")
{
    std::set<QRgb> seen;
    for (int node = 0; node < 8; ++node) {
        const QColor c = CursorChartView::groupColour(node);
        seen.insert(c.rgb());
        INFO("node " << node << " " << c.name().toStdString());
        // Far from the cursor's red in hue or in saturation.
        const QColor cursor = CursorChartView::cursorColour();
        const int hue_gap = std::min(std::abs(c.hsvHue() - cursor.hsvHue()),
                                     360 - std::abs(c.hsvHue() - cursor.hsvHue()));
        CHECK((hue_gap > 20 || c.hsvSaturation() < 120));
        CHECK(c.hsvSaturation() > 60); // no grey, the reference marks' colour
    }
    CHECK(seen.size() == 8);
    // No two nodes of the first four read as the same hue family (nodes 2
    // and 3 were both green).
    for (int a = 0; a < 4; ++a)
        for (int b = a + 1; b < 4; ++b) {
            const int ha = CursorChartView::groupColour(a).hsvHue(), hb = CursorChartView::groupColour(b).hsvHue();
            CHECK(std::min(std::abs(ha - hb), 360 - std::abs(ha - hb)) > 25);
        }
}

TEST_CASE("teaching: a small chart's value axis ends just above its data", "[teaching][charts][unit]")
{
    const AxisScale a = tight_axis_scale(384, 5);
    CHECK(a.top == 400);
    CHECK(a.top / a.step <= 5);
    CHECK(tight_axis_scale(1024, 5).top == 1050); // numa02's peak: not 0-1250 or 0-1500
    CHECK(tight_axis_scale(0.3, 5).top < 0.5);
    CHECK(tight_axis_scale(0, 5).top > 0);
    for (double peak : {0.7, 3.0, 17.0, 256.0, 384.0, 999.0, 1024.0, 4096.0, 12345.0}) {
        INFO(peak);
        const AxisScale s = tight_axis_scale(peak, 5);
        CHECK(s.top >= peak);
        CHECK(s.top <= 1.1 * peak); // 3 reads 0-3.1, ticks 0-3
        CHECK(std::floor(s.top / s.step + 1e-9) <= 5);
    }
}

TEST_CASE("teaching: the first window fits the screen it opens on", "[teaching][window][unit]")
{
    CHECK(first_launch_size(QRect(0, 0, 2560, 1440)) == QSize(1400, 900));
    const QSize small = first_launch_size(QRect(0, 0, 1280, 720));
    CHECK(small.width() <= 1280);
    CHECK(small.height() <= 720);
    CHECK(small.height() > 600);
    const QSize panel = first_launch_size(QRect(0, 28, 1366, 740)); // a top panel takes 28 px
    CHECK(panel.height() <= 740);
}

TEST_CASE("teaching: four panes at 1280x720 show every header figure", "[teaching][readability][window]")
{
    QuietWindow w;
    w.window.resize(1280, 720);
    w.window.show();
    w.window.showDocks({QStringLiteral("charts")});
    REQUIRE(w.window.openScenarioFile(scenario_path("autonuma-4node-numa01.json")));
    SimulationController *c = w.window.comparisonPage()->controller();
    REQUIRE(c->runTo(1'000'000'000));
    QCoreApplication::processEvents();
    ComparisonView *view = w.window.comparisonPage()->view();
    REQUIRE(view->paneCount() == 4);
    for (int i = 0; i < 4; ++i) {
        const SimulationPane *pane = view->pane(i);
        const QString shown = pane->shownHeaderFigures();
        INFO("pane " << i << " " << pane->width() << " px: " << shown.toStdString());
        CHECK(shown.contains(QStringLiteral("migrations")));
        CHECK(shown.contains(QStringLiteral("local access")));
        CHECK(shown.contains(QStringLiteral("sys ")));
        CHECK_FALSE(shown.contains(QChar(0x2026)));
        // The title whole too: "autonuma scan_sleep_pass_ms=1250" on two
        // lines, not "autonuma…".
        INFO(pane->shownHeaderTitle().toStdString());
        CHECK_FALSE(pane->shownHeaderTitle().contains(QChar(0x2026)));
        CHECK(pane->shownHeaderTitle().simplified() == pane->headerTitle().simplified());
    }
    // The migration key lists this machine's classes, farthest first: the
    // remote moves a NUMA lesson is about are never the ones cut.
    const std::vector<DistanceClass> classes = view->legend()->migrationClasses();
    REQUIRE_FALSE(classes.empty());
    CHECK(classes.front() == DistanceClass::RemoteNode);
    CHECK(std::is_sorted(classes.rbegin(), classes.rend()));
}

TEST_CASE("teaching: every migration class has its own line style", "[teaching][charts][unit]")
{
    std::set<QString> styles;
    for (int c = static_cast<int>(DistanceClass::SameCore); c < kDistanceClassCount; ++c)
        styles.insert(CursorChartView::migrationStyleName(c));
    CHECK(styles.size() == static_cast<std::size_t>(kDistanceClassCount - 1));
}

namespace {

double value_axis_top(const CursorChartView *v)
{
    for (QAbstractAxis *a : v->chart()->axes(Qt::Vertical))
        if (auto *value = qobject_cast<QValueAxis *>(a))
            return value->max();
    return -1;
}

bool time_labels_shown(const CursorChartView *v)
{
    const auto axes = v->chart()->axes(Qt::Horizontal);
    return !axes.isEmpty() && axes.first()->labelsVisible();
}

// The charts dock of a 1280x720 window on numa01/numa02, run to 3 s.
struct ChartsAt720 {
    QuietWindow w;
    ChartsPanel *charts = nullptr;
    explicit ChartsAt720(const char *scenario)
    {
        w.window.resize(1280, 720);
        w.window.show();
        w.window.showDocks({QStringLiteral("charts")});
        REQUIRE(w.window.openScenarioFile(scenario_path(scenario)));
        REQUIRE(w.window.comparisonPage()->controller()->runTo(3'000'000'000));
        charts = w.window.analysisDocks().charts;
        charts->redraw();
        for (int i = 0; i < 3; ++i)
            QCoreApplication::processEvents();
    }
};

} // namespace

TEST_CASE("teaching: node convergence reads at the default dock height", "[teaching][charts][window]")
{
    const char *scenario = GENERATE("autonuma-4node-numa01.json", "autonuma-4node-numa02.json");
    INFO(scenario);
    ChartsAt720 at(scenario);
    NodeMultiplesView *m = at.charts->nodeMultiples();
    REQUIRE(m->isVisible());
    REQUIRE(m->charts().size() == 4);
    double data_max = 0;
    for (const CursorChartView *mini : m->charts())
        for (const ChartLine &l : mini->chartData().lines)
            for (double y : l.y)
                data_max = std::max(data_max, y);
    REQUIRE(data_max > 0);
    for (const CursorChartView *mini : m->charts()) {
        INFO(mini->chart()->title().toStdString() << ": " << mini->width() << "x" << mini->height());
        if (qEnvironmentVariableIsSet("SCHEDSCOPE_DEBUG_AXES"))
            for (QAbstractAxis *a : mini->chart()->axes(Qt::Vertical))
                if (auto *y = qobject_cast<QValueAxis *>(a))
                    std::printf("%s: %dx%d plot %.0f,%.0f %.0fx%.0f y %g..%g step %g fmt %s ticktype %d\n",
                                qPrintable(mini->chart()->title()), mini->width(), mini->height(),
                                mini->chart()->plotArea().x(), mini->chart()->plotArea().y(),
                                mini->chart()->plotArea().width(), mini->chart()->plotArea().height(), y->min(),
                                y->max(), y->tickInterval(), qPrintable(y->labelFormat()), int(y->tickType()));
        // A plot tall enough to read, with time labels under it.
        CHECK(mini->chart()->plotArea().height() >= 60);
        CHECK(time_labels_shown(mini));
        // The value axis ends above the highest line of any pane, at a round
        // value with ticks far enough apart to be written whole (numa01's
        // 384 MiB reads 0-400, numa02's 1024 MiB 0-1050), not at 0-1000 for 384.
        CHECK(value_axis_top(mini) >= data_max);
        CHECK(value_axis_top(mini) <= 1.5 * data_max);
        for (QAbstractAxis *a : mini->chart()->axes(Qt::Vertical))
            if (auto *y = qobject_cast<QValueAxis *>(a))
                CHECK(mini->chart()->plotArea().height() / (y->max() / y->tickInterval()) >= 20);
    }
    // The note on overlapping lines is read whole (two lines at most), not cut.
    if (!m->overlapText().isEmpty()) {
        QLabel *note = nullptr;
        for (QLabel *l : m->findChildren<QLabel *>())
            if (l->toolTip() == m->overlapText())
                note = l;
        REQUIRE(note);
        INFO(note->text().toStdString());
        CHECK_FALSE(note->text().contains(QChar(0x2026)));
        CHECK(note->text().simplified() == m->overlapText().simplified());
        CHECK(note->geometry().bottom() <= m->height());
    }
}

TEST_CASE("teaching: All charts at 1280x720 lays every chart out whole, scrolling if need be",
          "[teaching][charts][window]")
{
    ChartsAt720 at("autonuma-4node-numa01.json");
    at.charts->setShowAll(true);
    for (int i = 0; i < 3; ++i)
        QCoreApplication::processEvents();
    const std::vector<QWidget *> shown = at.charts->shownCharts();
    REQUIRE(shown.size() == 6);
    for (std::size_t a = 0; a < shown.size(); ++a) {
        INFO("chart " << a << ": " << shown[a]->width() << "x" << shown[a]->height());
        // Never squeezed under the height whose tick labels read whole.
        CHECK(shown[a]->height() >= 170);
        for (std::size_t b = a + 1; b < shown.size(); ++b)
            CHECK_FALSE(shown[a]->geometry().intersects(shown[b]->geometry()));
    }
    // The node view's legend and note stay inside the node view.
    NodeMultiplesView *m = at.charts->nodeMultiples();
    for (const QLabel *l : m->findChildren<QLabel *>())
        if (l->isVisible())
            CHECK(m->rect().contains(l->geometry()));
    // The dock itself stays where it was: the charts scroll inside it.
    CHECK(at.w.window.height() <= 720);
}

TEST_CASE("teaching: the bar says when the simulation cannot keep up", "[teaching][playback][unit]")
{
    CHECK(rate_text(0.5, 0.5).isEmpty());
    CHECK(rate_text(0.5, 0.45).isEmpty()); // within a fifth
    CHECK(rate_text(0.5, 0.05).contains(QStringLiteral("0.05x")));
    CHECK(rate_text(0.5, 0.05).contains(QStringLiteral("cannot keep up")));
    CHECK(rate_text(0, 12.5) == QStringLiteral("12.5x real time")); // at max: what it reaches
}

// Item 8: playing altix-1024 at 1/2 real time, the bar says the rate really
// reached, and the time label, that rate and the frame rate sit side by
// side at the width the bar has in a 1280x720 window.
TEST_CASE("teaching: the bar's time, rate and fps labels never overlap", "[teaching][playback][window]")
{
    PlaybackBar bar;
    bar.resize(1000, bar.sizeHint().height());
    bar.show();
    bar.setSpeed(0.5);
    bar.setPlaying(true);
    bar.setTime(3'599'999'000'000, 3'600'000'000'000);
    bar.setActualRate(0.05);
    bar.setFps(58);
    QCoreApplication::processEvents();
    CHECK(bar.rateText().contains(QStringLiteral("0.05x")));
    std::vector<QLabel *> shown;
    for (QLabel *l : bar.findChildren<QLabel *>())
        if (l->isVisible() && !l->text().isEmpty())
            shown.push_back(l);
    for (std::size_t a = 0; a < shown.size(); ++a) {
        INFO(shown[a]->text().toStdString());
        // Each label wide enough for its whole text.
        CHECK(shown[a]->width() >= shown[a]->fontMetrics().horizontalAdvance(shown[a]->text()));
        for (std::size_t b = a + 1; b < shown.size(); ++b) {
            INFO(shown[b]->text().toStdString());
            CHECK_FALSE(shown[a]->geometry().intersects(shown[b]->geometry()));
        }
    }
}

TEST_CASE("teaching: on a 1024-PU machine Ctrl+wheel zooms at the pointer and Ctrl+0 fits again",
          "[teaching][zoom][window]")
{
    QuietWindow w;
    w.window.resize(1280, 720);
    w.window.show();
    REQUIRE(w.window.openTopology("sample:altix-1024"));
    REQUIRE(w.window.comparisonPage()->controller()->waitLoaded());
    QCoreApplication::processEvents();
    SimulationPane *pane = w.window.comparisonPage()->view()->pane(0);
    REQUIRE(pane->mode() == PaneMode::Compact);
    const CompactCell &first = pane->compactGeometry().cells.front();
    REQUIRE(first.node == 0);
    // The pointer on N#0's cell, a quarter in from its corner.
    const QPointF pointer = pane->compactOrigin() +
                            QPointF(first.rect.x + first.rect.w / 4, first.rect.y + first.rect.h / 4);
    QWheelEvent wheel(pointer, pane->mapToGlobal(pointer), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::ControlModifier,
                      Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(pane, &wheel);
    REQUIRE(pane->zoom() > 1.0);
    REQUIRE(pane->mode() == PaneMode::Detail);
    // The same node is under the pointer in the full drawing.
    const QPointF at = pane->toLayout(pointer);
    const int box = pane->geometry().layout.box_of(
        w.window.comparisonPage()->controller()->setup()->topology->numa_node(0));
    REQUIRE(box >= 0);
    CHECK(pane->geometry().layout.boxes()[static_cast<std::size_t>(box)].rect.contains(at.x(), at.y()));

    // One notch out does not stop in the unreadable mesh: back to the cells.
    QWheelEvent out(pointer, pane->mapToGlobal(pointer), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::ControlModifier,
                    Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(pane, &out);
    CHECK(pane->zoom() == 1.0);
    CHECK(pane->mode() == PaneMode::Compact);

    // Ctrl+0 (View > Fit to window) fits the zoomed panes again.
    QCoreApplication::sendEvent(pane, &wheel);
    REQUIRE(pane->zoom() > 1.0);
    QAction *fit = nullptr;
    for (QAction *a : w.window.findChildren<QAction *>())
        if (a->shortcut() == QKeySequence(QStringLiteral("Ctrl+0")))
            fit = a;
    REQUIRE(fit);
    fit->trigger();
    CHECK(pane->zoom() == 1.0);
    CHECK(pane->mode() == PaneMode::Compact);
}

// Every name a lesson's steps put in italics is something on the screen of
// that lesson: an Explain filter, a chart, a button or check box, a pane
// (by its label, or the part of it after the policy), or words of the
// decisions its own run records ("busy tick"). A step naming a filter
// that is called something else ("skipped (hot)") fails here.
TEST_CASE("teaching: every name a lesson step mentions is on screen", "[teaching][lessons][window]")
{
    QStringList ui = {QStringLiteral("All charts"), QStringLiteral("Use for sched-domains")};
    for (int k = 0; k <= static_cast<int>(DecisionKind::Other); ++k)
        ui << QString::fromStdString(kind_words(static_cast<DecisionKind>(k)));
    for (int k = 0; k <= static_cast<int>(ChartKind::MigrationRate); ++k)
        ui << QString::fromUtf8(chart_title(static_cast<ChartKind>(k)));
    for (const Lesson &lesson : builtin_lessons()) {
        INFO(lesson.id);
        QuietWindow w;
        REQUIRE(w.window.openScenarioFile(scenario_path(lesson.scenario.c_str())));
        SimulationController *c = w.window.comparisonPage()->controller();
        // The whole run: a decision a step names may come once, late.
        const double end_s = c->setup()->scenario.duration_s > 0 ? c->setup()->scenario.duration_s : 60.0;
        REQUIRE(c->runTo(static_cast<SimTime>(end_s * 1e9), -1));
        QStringList known = ui;
        for (const QString &label : pane_label_list(*c->setup())) {
            known << label;
            const qsizetype space = label.indexOf(QLatin1Char(' '));
            if (space > 0)
                known << label.mid(space + 1);
        }
        QString reasons;
        for (int pane = 0; pane < c->paneCount(); ++pane)
            for (const Decision &d : c->recording(pane).decisions)
                reasons += QString::fromStdString(describe(d)) + QLatin1Char('\n');
        const QString text = QString::fromStdString(lesson.markdown);
        const QString steps = text.mid(text.indexOf(QStringLiteral("## Try this")));
        // *name*, not **bold**.
        static const QRegularExpression italic(QStringLiteral("(?<![*\\w])\\*([^*\\n]+(?:\\n[^*\\n]+)?)\\*(?![*\\w])"));
        for (auto it = italic.globalMatch(steps); it.hasNext();) {
            const QString name = it.next().captured(1).simplified();
            INFO("*" << name.toStdString() << "*");
            CHECK((known.contains(name) || reasons.contains(name)));
        }
    }
}

namespace {

// Ticks exactly the Explain filters named (by their words on screen), as a
// student clicking the check boxes would, and returns the rows shown.
QStringList explain_rows(ExplainPanel *e, const QStringList &ticked)
{
    for (QCheckBox *box : e->findChildren<QCheckBox *>()) {
        bool is_kind = false;
        for (int k = 0; k <= static_cast<int>(DecisionKind::Other); ++k)
            is_kind = is_kind || box->text() == QString::fromStdString(kind_words(static_cast<DecisionKind>(k)));
        if (is_kind)
            box->setChecked(ticked.contains(box->text()));
    }
    QCoreApplication::processEvents();
    QStringList rows;
    const QAbstractItemModel *m = e->filterModel();
    for (int r = 0; r < m->rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < m->columnCount(); ++c)
            cells << m->data(m->index(r, c)).toString();
        rows << cells.join(QLatin1Char(' '));
    }
    return rows;
}

// Opens a lesson's scenario with the Explain dock shown, as a student
// following its steps would, runs it to `ns` and returns the dock.
ExplainPanel *explain_after(QuietWindow &w, const char *scenario, SimTime ns)
{
    w.window.showDocks({QStringLiteral("explain")});
    REQUIRE(w.window.openScenarioFile(scenario_path(scenario)));
    REQUIRE(w.window.comparisonPage()->controller()->runTo(ns));
    return w.window.analysisDocks().explain;
}

} // namespace

TEST_CASE("teaching: lesson 1 step 5 shows each refusal with the time since the task ran",
          "[teaching][lessons][explain]")
{
    QuietWindow w;
    ExplainPanel *e = explain_after(w, "lesson-cache-hotness.json", 1'000'000'000);
    // "pick the cache_hot_time=10ms pane"
    const int pane = static_cast<int>(e->paneNames().indexOf(QStringLiteral("sched-domains cache_hot_time=10ms")));
    REQUIRE(pane == 2);
    e->setCurrentPane(pane);
    // "untick everything but left (cache hot)"
    const QStringList rows = explain_rows(e, {QStringLiteral("left (cache hot)")});
    REQUIRE_FALSE(rows.isEmpty());
    for (const QString &row : rows.mid(0, 50)) {
        INFO(row.toStdString());
        CHECK(row.contains(QStringLiteral("ran ")));
        CHECK(row.contains(QStringLiteral(" ago")));
    }
    // "(The 0 ms pane has none: nothing is ever hot.)"
    e->setCurrentPane(0);
    CHECK(explain_rows(e, {QStringLiteral("left (cache hot)")}).isEmpty());
}

TEST_CASE("teaching: lesson 3 step 5 and lesson 4 step 4 find what their filters name", "[teaching][lessons][explain]")
{
    {
        QuietWindow w;
        ExplainPanel *e = explain_after(w, "lesson-numa-convergence.json", 3'000'000'000);
        // The AutoNUMA pane: "filter on memory moved and exchanged".
        const int pane = static_cast<int>(e->paneNames().indexOf(QStringLiteral("autonuma")));
        REQUIRE(pane >= 0);
        e->setCurrentPane(pane);
        CHECK_FALSE(explain_rows(e, {QStringLiteral("memory moved"), QStringLiteral("exchanged")}).isEmpty());
    }
    {
        QuietWindow w;
        ExplainPanel *e = explain_after(w, "lesson-wakeup-storms.json", 200'000'000);
        // "filter on woken"
        CHECK_FALSE(explain_rows(e, {QStringLiteral("woken")}).isEmpty());
    }
}

TEST_CASE("teaching: small chart titles too long for their chart still tell the panes apart",
          "[teaching][charts][unit]")
{
    QFont font;
    font.setPixelSize(12);
    const QFontMetrics fm(font);
    const QStringList names = {QStringLiteral("linux-2.5-numa idle_balance_mask=node"),
                               QStringLiteral("linux-2.5-numa idle_balance_mask=cpu")};
    // Room for the whole label: as it is.
    CHECK(mini_title(names, 0, fm, 2000) == names[0]);
    // Too narrow: the shared policy name goes, the difference stays.
    const int narrow = fm.horizontalAdvance(QStringLiteral("idle_balance_mask=node")) + 4;
    CHECK(mini_title(names, 0, fm, narrow) == QStringLiteral("idle_balance_mask=node"));
    CHECK(mini_title(names, 1, fm, narrow) == QStringLiteral("idle_balance_mask=cpu"));
}

TEST_CASE("teaching: a finished run's Progress line ends at 100 % when it ends", "[teaching][charts][unit]")
{
    std::vector<MetricsSample> samples(3);
    for (int i = 0; i < 3; ++i) {
        samples[static_cast<std::size_t>(i)].time_ns = (i + 1) * 100'000'000LL;
        samples[static_cast<std::size_t>(i)].progress = 0.3 * (i + 1) + 0.072; // 97.2 % at 0.3 s
    }
    const ChartData running = derive_chart(ChartKind::Progress, {{"kernbench", samples}}, kAllProcesses);
    REQUIRE(running.lines.size() == 1);
    CHECK(running.lines[0].y.back() == Approx(97.2));
    const ChartData done = derive_chart(ChartKind::Progress, {{"kernbench", samples, 0.34}}, kAllProcesses);
    CHECK(done.lines[0].t_s.back() == Approx(0.34));
    CHECK(done.lines[0].y.back() == Approx(100.0));
    // The run's last sample taken at its end, before the last jobs counted
    // (lesson 2 played to its end in the window): that point reads 100 %.
    const ChartData at_end = derive_chart(ChartKind::Progress, {{"kernbench", samples, 0.3}}, kAllProcesses);
    CHECK(at_end.lines[0].t_s.back() == Approx(0.3));
    CHECK(at_end.lines[0].y.back() == Approx(100.0));
    CHECK(at_end.lines[0].y.size() == 3);
}

// Item 9: the profiler's summary counts a move as hot by the threshold the
// pane's own policy judges pulls by, as its Explain entries say.
TEST_CASE("teaching: each policy states the cache-hot threshold its balancer uses", "[teaching][profiler][unit]")
{
    // 2.5.59's cache_decay_ticks ("ran 3 ms ago < 10 ms" in Explain).
    CHECK(make_policy("linux-2.5-numa", {}, "test")->cache_hot_time_ms() == 10.0);
    // 3.6's sysctl_sched_migration_cost, and what the pane sets.
    CHECK(make_policy("cfs", {}, "test")->cache_hot_time_ms() == 0.5);
    CHECK(make_policy("cfs", {{"sched_migration_cost_ns", "250000"}}, "test")->cache_hot_time_ms() == 0.25);
    CHECK(make_policy("autonuma", {}, "test")->cache_hot_time_ms() == 0.5);
    // 2.6's cache_hot_time, as given.
    CHECK(make_policy("sched-domains", {}, "test")->cache_hot_time_ms() == 2.5);
    CHECK(make_policy("sched-domains", {{"cache_hot_time_ms", "10"}}, "test")->cache_hot_time_ms() == 10.0);
}

TEST_CASE("teaching: lines of two panes on top of each other get a note", "[teaching][charts][unit]")
{
    ChartData d;
    d.kind = ChartKind::IdlePct;
    d.lines = {{"linux-2.5-numa idle_balance_mask=node", 0, -1, {0.1, 0.2, 0.3}, {4.0, 3.5, 3.7}},
               {"linux-2.5-numa idle_balance_mask=cpu", 1, -1, {0.1, 0.2, 0.3}, {4.0, 3.5, 3.7}}};
    d.t_max_s = 0.3;
    d.y_max = 4.0;
    CursorChartView view;
    view.resize(600, 240);
    view.setChartData(d);
    CHECK(view.overlapNote() ==
          QStringLiteral("on top of each other: linux-2.5-numa idle_balance_mask=node = idle_balance_mask=cpu"));
    // Apart by more than a line's width: no note.
    d.lines[1].y = {4.0, 2.5, 3.7};
    view.setChartData(d);
    CHECK(view.overlapNote().isEmpty());
    // Both at zero lie on the axis: nothing to say.
    d.lines[0].y = d.lines[1].y = {0.0, 0.0, 0.0};
    view.setChartData(d);
    CHECK(view.overlapNote().isEmpty());
    // One pane's own lines (two classes at one rate) are not hidden panes.
    d.kind = ChartKind::MigrationRate;
    d.lines = {{"cfs smt", 0, 1, {0.1, 0.2}, {5.0, 6.0}}, {"cfs same package", 0, 2, {0.1, 0.2}, {5.0, 6.0}}};
    view.setChartData(d);
    CHECK(view.overlapNote().isEmpty());
}

// Not run by default ([.]): the screenshots a reviewer looks at, written to
// $SCHEDSCOPE_SHOTS_DIR (default: the temp dir). `gui_tests "[shots]"`.
namespace {

QString shot_path(const char *name)
{
    const QByteArray dir = qgetenv("SCHEDSCOPE_SHOTS_DIR");
    return QDir(dir.isEmpty() ? QDir::tempPath() : QString::fromLocal8Bit(dir)).filePath(QString::fromLatin1(name));
}

void settle(MainWindow &window)
{
    window.analysisDocks().charts->redraw();
    for (int i = 0; i < 10; ++i) {
        QCoreApplication::processEvents();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    }
}

void save_shot(MainWindow &window, const char *name)
{
    settle(window);
    REQUIRE(window.grab().save(shot_path(name), "PNG"));
}

// A machine opened as the default comparison at 1920x1080 with the charts
// dock, run to `run_to_ns` and saved as `name`.
void save_topology_shot(const char *topology, SimTime run_to_ns, const char *name)
{
    QuietWindow w;
    w.window.resize(1920, 1080);
    w.window.show();
    w.window.showDocks({QStringLiteral("charts")});
    REQUIRE(w.window.openTopology(topology));
    REQUIRE(w.window.comparisonPage()->controller()->runTo(run_to_ns, -1));
    save_shot(w.window, name);
}

} // namespace

TEST_CASE("teaching: screenshots for review", "[.][shots]")
{
    SECTION("numa01 and numa02 convergence, All charts, 1920x1080")
    {
        for (const char *s : {"autonuma-4node-numa01.json", "autonuma-4node-numa02.json"}) {
            ChartsAt720 at(s);
            save_shot(at.w.window, QString::fromLatin1(s).startsWith(QLatin1String("autonuma-4node-numa01"))
                                       ? "numa01-1280x720.png"
                                       : "numa02-1280x720.png");
            if (QString::fromLatin1(s).contains(QLatin1String("numa01"))) {
                at.charts->setShowAll(true);
                save_shot(at.w.window, "all-charts-1280x720.png");
                at.charts->setShowAll(false);
                at.w.window.resize(1920, 1080);
                save_shot(at.w.window, "numa01-1920x1080.png");
            }
        }
    }
    SECTION("each lesson at its last step")
    {
        QTemporaryDir data;
        const schedscope::testing::ScopedEnv xdg("XDG_DATA_HOME", data.path().toStdString());
        const std::vector<Lesson> lessons = builtin_lessons();
        for (std::size_t i = 0; i < lessons.size(); ++i) {
            QuietWindow w;
            w.window.resize(1280, 720);
            w.window.show();
            w.window.showDocks({QStringLiteral("charts"), QStringLiteral("lessons")});
            Scenario s = load_scenario(scenario_path(lessons[i].scenario.c_str()).toStdString());
            // The last step's change, as the lesson asks for it.
            if (lessons[i].id.rfind("02", 0) == 0)
                s.policies[1].params["idle_node_rebalance_tick_ms"] = "2";
            if (lessons[i].id.rfind("03", 0) == 0)
                s.topology = "sample:numa-8node-64";
            if (lessons[i].id.rfind("04", 0) == 0) {
                s.workload.params["threads"] = "1024";
                s.workload.params["wake"] = "1024";
            }
            REQUIRE(w.window.showScenario(s, {}));
            w.window.analysisDocks().lessons->setCurrentLesson(static_cast<int>(i));
            SimulationController *c = w.window.comparisonPage()->controller();
            REQUIRE(c->waitLoaded(-1));
            // Played to the end: the clock stops where the last pane ended.
            w.window.comparisonPage()->setSpeed(0);
            c->play();
            REQUIRE(schedscope::test::wait_until([&] { return !c->isPlaying(); }, 600000));
            if (lessons[i].id.rfind("01", 0) == 0) {
                // Step 6: the Profiler on the 2.5 ms pane, Use for sched-domains.
                w.window.showDocks({QStringLiteral("explain"), QStringLiteral("profiler")});
                const AnalysisDocks &d = w.window.analysisDocks();
                d.explain->setCurrentPane(1);
                QSignalSpy ready(d.profiler, &ProfilerPanel::profileReady);
                d.profiler->start();
                REQUIRE((ready.count() > 0 || ready.wait(60000)));
                for (QPushButton *b : d.profiler->findChildren<QPushButton *>())
                    if (b->text().startsWith(QStringLiteral("Use for")))
                        b->click();
                REQUIRE(schedscope::test::wait_until([&] { return c->setup()->policies[1].params.count("autotune"); }));
                REQUIRE(c->waitLoaded(-1));
            }
            save_shot(w.window, ("lesson-" + lessons[i].id + "-last-step.png").c_str());
        }
    }
    SECTION("the start-up comparison and a workload without memory")
    {
        // What `schedscope` opens with no arguments: the detected machine.
        save_topology_shot("detect", 3'000'000'000, "default-1920x1080.png");
        {
            ChartsAt720 at("hackbench-nec-tx7.json");
            save_shot(at.w.window, "hackbench-no-memory-1280x720.png");
        }
    }
    SECTION("a 1024-PU machine at 1920x1080")
    {
        save_topology_shot("sample:altix-1024", 200'000'000, "altix-1024-1920x1080.png");
    }
    SECTION("lesson 2's profiler and All charts at 1280x720")
    {
        QuietWindow w;
        w.window.resize(1280, 720);
        w.window.show();
        w.window.showDocks({QStringLiteral("charts"), QStringLiteral("explain"), QStringLiteral("profiler")});
        REQUIRE(w.window.openScenarioFile(scenario_path("lesson-idle-balancing-2003.json")));
        SimulationController *c = w.window.comparisonPage()->controller();
        REQUIRE(c->runTo(4'000'000'000, -1));
        REQUIRE(
            schedscope::test::wait_until([&] { return w.window.analysisDocks().profiler->analysis().has_value(); }));
        save_shot(w.window, "profiler-lesson-02-1280x720.png");
        w.window.showDocks({QStringLiteral("charts")});
        w.window.analysisDocks().charts->setShowAll(true);
        save_shot(w.window, "all-charts-lesson-02-1280x720.png");
    }
    SECTION("altix-1024 zoomed in on N#0")
    {
        QuietWindow w;
        w.window.resize(1280, 720);
        w.window.show();
        REQUIRE(w.window.openTopology("sample:altix-1024"));
        SimulationController *c = w.window.comparisonPage()->controller();
        REQUIRE(c->runTo(200'000'000, -1));
        QCoreApplication::processEvents();
        save_shot(w.window, "altix-1024-fit.png");
        SimulationPane *pane = w.window.comparisonPage()->view()->pane(0);
        const CompactCell &first = pane->compactGeometry().cells.front();
        const QPointF pointer = pane->compactOrigin() +
                                QPointF(first.rect.x + first.rect.w / 2, first.rect.y + first.rect.h / 2);
        QWheelEvent wheel(pointer, pane->mapToGlobal(pointer), QPoint(), QPoint(0, 120), Qt::NoButton,
                          Qt::ControlModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(pane, &wheel);
        save_shot(w.window, "altix-1024-zoomed.png");
    }
}
