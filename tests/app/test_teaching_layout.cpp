// Issue 35, the layout pass: pane headers of one height across a
// comparison, small node charts ending just above their data, a workload
// without memory saying so in place of empty charts, a charts grid that
// keeps the node legend and the whole overlap note in view at 1280x720 and
// 1920x1080 (All charts on and off), the profiler's Mode box showing its
// whole text, and --run-to saying it is still running, with no time limit.
#include "headless_runner.h"
#include "main_window.h"
#include "panels/chart_data.h"
#include "panels/charts_panel.h"
#include "panels/cursor_chart_view.h"
#include "panels/lesson.h"
#include "panels/node_multiples_view.h"
#include "panels/profiler_panel.h"
#include "sim/analysis_hookup.h"
#include "sim/comparison_page.h"
#include "sim/comparison_view.h"
#include "sim/policy_dialog.h"
#include "sim/simulation_controller.h"
#include "sim/simulation_pane.h"
#include "window_test_support.h"

#include "topology/topology.h"

#include <catch2/catch.hpp>

#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>

#include <algorithm>
#include <cmath>
#include <utility>

using namespace schedscope;
using namespace schedscope::gui;
using schedscope::test::QuietWindow;
using schedscope::test::scenario_path;

namespace {

void settle(MainWindow &window)
{
    window.analysisDocks().charts->redraw();
    for (int i = 0; i < 6; ++i)
        QCoreApplication::processEvents();
}

// A window of `size` with the charts dock, a scenario run to `t_ns`.
struct ChartsWindow {
    QuietWindow w;
    ChartsPanel *charts = nullptr;
    ChartsWindow(QSize size, const char *scenario, SimTime t_ns)
    {
        w.window.resize(size);
        w.window.show();
        w.window.showDocks({QStringLiteral("charts")});
        REQUIRE(w.window.openScenarioFile(scenario_path(scenario)));
        REQUIRE(w.window.comparisonPage()->controller()->runTo(t_ns, -1));
        charts = w.window.analysisDocks().charts;
        settle(w.window);
    }
};

// The visible label of `view` whose text contains `needle`, or null.
QLabel *label_with(const QWidget *view, const QString &needle)
{
    for (QLabel *l : view->findChildren<QLabel *>())
        if (l->isVisible() && l->text().contains(needle))
            return l;
    return nullptr;
}

// The node legend ("■ node 0  ■ node 1 ..."), when shown.
QLabel *node_legend(const QWidget *view) { return label_with(view, QStringLiteral("node&nbsp;0")); }

// Whether `w` lies wholly inside the scroll area's viewport as scrolled now.
bool in_view(const QScrollArea *scroll, const QWidget *w)
{
    const QRect r(w->mapTo(scroll->viewport(), QPoint(0, 0)), w->size());
    return scroll->viewport()->rect().contains(r);
}

} // namespace

// Item a: with four panes in a row one title wraps ("autonuma" over
// "scan_sleep_pass_ms=1250") and the others do not; every header is as
// tall as the tallest, so the four machine drawings start at one height.
TEST_CASE("layout: the panes of a comparison have headers of one height", "[teaching][headers][window]")
{
    ChartsWindow at(QSize(1280, 720), "autonuma-4node-numa01.json", 500'000'000);
    ComparisonView *view = at.w.window.comparisonPage()->view();
    REQUIRE(view->paneCount() == 4);
    int tallest = 0;
    std::vector<int> title_lines;
    for (int i = 0; i < 4; ++i) {
        tallest = std::max(tallest, view->pane(i)->naturalHeaderHeight());
        title_lines.push_back(view->pane(i)->headerTitleLines());
    }
    // The case the item is about: titles of different line counts.
    INFO("columns " << view->columns() << ", pane width " << view->pane(0)->width());
    REQUIRE(*std::max_element(title_lines.begin(), title_lines.end()) == 2);
    REQUIRE(*std::min_element(title_lines.begin(), title_lines.end()) == 1);
    const QPointF first_top = view->pane(0)->toLayout(QPointF(0, 0));
    for (int i = 0; i < 4; ++i) {
        const SimulationPane *pane = view->pane(i);
        INFO("pane " << i << ": " << pane->headerTitle().toStdString());
        CHECK(pane->headerHeight() == tallest);
        // The drawings line up: the same layout point at the same pixel.
        CHECK(pane->toLayout(QPointF(0, 0)).y() == Approx(first_top.y()).margin(0.01));
        CHECK(pane->geometry().layout.height() == Approx(view->pane(0)->geometry().layout.height()).margin(0.01));
    }
    // Wide enough for every title on one line: the headers shrink together.
    at.w.window.resize(1920, 1080);
    settle(at.w.window);
    for (int i = 0; i < 4; ++i)
        CHECK(view->pane(i)->headerHeight() == view->pane(0)->headerHeight());
}

// Item b: a small chart's axis ends at a round value a few per cent above
// the data, not at the next multiple of its tick step.
TEST_CASE("layout: a small chart's value axis ends at a finer round value above its data", "[teaching][charts][unit]")
{
    CHECK(tight_axis_scale(520, 5).top == 550);
    CHECK(tight_axis_scale(1010, 5).top == 1050);
    CHECK(tight_axis_scale(1024, 5).top == 1050); // numa02's peak: not 1250 or 2000
    CHECK(tight_axis_scale(384, 5).top == 400);
    // The top does not depend on how many ticks the chart has room for.
    CHECK(tight_axis_scale(520, 2).top == 550);
    const AxisScale a = tight_axis_scale(520, 5);
    CHECK(a.step == 100); // labelled 0, 100 ... 500
    CHECK(a.decimals == 0);
    for (double peak : {0.3, 0.7, 3.0, 17.0, 256.0, 384.0, 520.0, 999.0, 1010.0, 4096.0, 12345.0})
        for (int intervals : {1, 2, 3, 5}) {
            INFO(peak << " MiB, " << intervals << " intervals");
            const AxisScale s = tight_axis_scale(peak, intervals);
            // Above the line, by a few per cent at most.
            CHECK(s.top >= peak * 1.02 * (1 - 1e-9));
            CHECK(s.top <= peak * 1.1);
            // Labelled ticks within the room, the first above 0.
            CHECK(std::floor(s.top / s.step + 1e-9) <= intervals);
            CHECK(std::floor(s.top / s.step + 1e-9) >= 1);
            // A round step: 1, 2, 2.5 or 5 x 10^n.
            const double mantissa = s.step / std::pow(10.0, std::floor(std::log10(s.step) + 1e-12));
            CHECK((std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 || std::abs(mantissa - 2.5) < 1e-9 ||
                   std::abs(mantissa - 5) < 1e-9));
        }
}

// Item c: hackbench's tasks touch no memory of their own. Its memory chart
// area says so rather than drawing four empty plots under a legend with
// no node; numa01's draws its charts and no such note.
TEST_CASE("layout: a workload without memory says so in the memory chart area", "[teaching][charts][window]")
{
    {
        ChartsWindow at(QSize(1280, 720), "hackbench-nec-tx7.json", 200'000'000);
        NodeMultiplesView *m = at.charts->nodeMultiples();
        REQUIRE(m->isVisible());
        CHECK_FALSE(m->workloadMemory());
        CHECK(m->noMemoryText().contains(QStringLiteral("this workload allocates no memory")));
        const QLabel *note = label_with(m, QStringLiteral("allocates no memory"));
        REQUIRE(note);
        CHECK(m->rect().contains(note->geometry()));
        for (const CursorChartView *mini : m->charts())
            CHECK_FALSE(mini->isVisible());
        // No legend of nodes that hold nothing, no "no memory placed" either.
        CHECK(node_legend(m) == nullptr);
        CHECK(label_with(m, QStringLiteral("no memory placed")) == nullptr);
    }
    {
        ChartsWindow at(QSize(1280, 720), "autonuma-4node-numa01.json", 500'000'000);
        NodeMultiplesView *m = at.charts->nodeMultiples();
        CHECK(m->workloadMemory());
        CHECK(m->noMemoryText().isEmpty());
        for (const CursorChartView *mini : m->charts())
            CHECK(mini->isVisible());
    }
}

// Item d: the charts grid asks for the node view's whole height (its rows
// of small charts, the legend and the overlap note), so at 1280x720 and
// 1920x1080, with All charts ticked and unticked again, the legend and the
// whole note are in view, the note wrapped rather than cut.
TEST_CASE("layout: the node legend and overlap note stay in view at 1280x720 and 1920x1080",
          "[teaching][charts][window]")
{
    const char *scenario = GENERATE("autonuma-4node-numa01.json", "autonuma-4node-numa02.json");
    const QSize size = GENERATE(QSize(1280, 720), QSize(1920, 1080));
    INFO(scenario << " at " << size.width() << "x" << size.height());
    ChartsWindow at(size, scenario, 3'000'000'000);
    NodeMultiplesView *m = at.charts->nodeMultiples();
    QScrollArea *scroll = at.charts->scrollArea();
    auto check_in_view = [&](const char *when) {
        INFO(when);
        settle(at.w.window);
        scroll->verticalScrollBar()->setValue(0);
        QCoreApplication::processEvents();
        REQUIRE(m->isVisible());
        INFO("node view " << m->width() << "x" << m->height() << ", needs " << m->neededHeight() << "; viewport "
                          << scroll->viewport()->width() << "x" << scroll->viewport()->height() << "; min "
                          << m->minimumHeight() << ", columns " << m->columns() << ", grid "
                          << scroll->widget()->height() << " (min " << scroll->widget()->minimumSizeHint().height()
                          << ")");
        // The view has the height its parts need: nothing squeezed out.
        CHECK(m->height() >= m->neededHeight());
        const QLabel *legend = node_legend(m);
        REQUIRE(legend);
        CHECK(m->rect().contains(legend->geometry()));
        CHECK(in_view(scroll, legend));
        for (const CursorChartView *mini : m->charts()) {
            CHECK(m->rect().contains(QRect(mini->mapTo(m, QPoint(0, 0)), mini->size())));
            CHECK(mini->height() >= 110); // time labels shown (CursorChartView's short height)
        }
        if (!m->overlapText().isEmpty()) {
            const QLabel *note = nullptr;
            for (const QLabel *l : m->findChildren<QLabel *>())
                if (l->isVisible() && l->toolTip() == m->overlapText())
                    note = l;
            REQUIRE(note);
            INFO(note->text().toStdString());
            // Whole, on at most three lines, each within the width.
            CHECK_FALSE(note->text().contains(QChar(0x2026)));
            CHECK(note->text().simplified() == m->overlapText().simplified());
            CHECK(note->text().count(QLatin1Char('\n')) <= 2);
            for (const QString &line : note->text().split(QLatin1Char('\n')))
                CHECK(note->fontMetrics().horizontalAdvance(line) <= note->width());
            CHECK(m->rect().contains(note->geometry()));
            CHECK(note->height() >= note->sizeHint().height());
            CHECK(in_view(scroll, note));
        }
        // The key beside the charts has the height its wrapped lines need.
        const QLabel *key = label_with(at.charts, QStringLiteral("Panes (line colour)"));
        REQUIRE(key);
        CHECK(key->height() >= key->heightForWidth(key->width()));
        // Whatever is shown lies inside the dock's grid, never over another chart.
        const std::vector<QWidget *> shown = at.charts->shownCharts();
        for (std::size_t a = 0; a < shown.size(); ++a)
            for (std::size_t b = a + 1; b < shown.size(); ++b)
                CHECK_FALSE(shown[a]->geometry().intersects(shown[b]->geometry()));
    };
    check_in_view("default charts");
    at.charts->setShowAll(true);
    check_in_view("All charts ticked");
    at.charts->setShowAll(false);
    check_in_view("All charts unticked again");
    CHECK(at.w.window.height() <= size.height());
    CHECK(at.w.window.width() <= size.width());
}

// Item d, the note's wrapping on its own: a long note under four narrow
// charts takes up to three lines, whole.
TEST_CASE("layout: the overlap note wraps to three lines before it is cut", "[teaching][charts][unit]")
{
    auto line = [](const std::string &label, int run, int node, double y) {
        return ChartLine{label, run, node, {0.1, 0.2, 0.3}, {y, y, y}};
    };
    ChartData d;
    d.kind = ChartKind::NodeMemory;
    // Each pane has its own groups, so the note names every pane.
    for (int run = 0; run < 4; ++run)
        for (int node = 0; node < 4; ++node)
            d.lines.push_back(line("l", run, node, node < 2 + run % 2 ? 64.0 : 16.0 * node));
    d.t_max_s = 0.3;
    d.y_max = 64;
    const QStringList names = {
        QStringLiteral("sched-domains cache_hot_time=0ms"), QStringLiteral("sched-domains cache_hot_time=2.5ms"),
        QStringLiteral("sched-domains cache_hot_time=10ms"), QStringLiteral("sched-domains cache_hot_time=100ms")};
    NodeMultiplesView view;
    view.resize(640, 400);
    view.show();
    view.setChartData(d, names);
    QCoreApplication::processEvents();
    REQUIRE_FALSE(view.overlapText().isEmpty());
    const QLabel *note = nullptr;
    for (const QLabel *l : view.findChildren<QLabel *>())
        if (l->isVisible() && l->toolTip() == view.overlapText())
            note = l;
    REQUIRE(note);
    INFO(note->text().toStdString());
    CHECK(note->text().count(QLatin1Char('\n')) >= 1);
    CHECK(note->text().count(QLatin1Char('\n')) <= 2);
    CHECK_FALSE(note->text().contains(QChar(0x2026)));
    CHECK(view.minimumHeight() >= view.neededHeight());
}

// Item e: the Mode box is as wide as its longest item, which setTopology
// rewrites to say what "auto" does on this machine.
TEST_CASE("layout: the profiler's Mode box shows its whole text", "[teaching][profiler][window]")
{
    QuietWindow w;
    w.window.resize(1280, 720);
    w.window.show();
    w.window.showDocks({QStringLiteral("profiler")});
    REQUIRE(w.window.openTopology("sample:xeon-2node-24"));
    REQUIRE(w.window.comparisonPage()->controller()->waitLoaded());
    ProfilerPanel *profiler = w.window.analysisDocks().profiler;
    QComboBox *mode = nullptr;
    for (QComboBox *box : profiler->findChildren<QComboBox *>())
        if (box->findData(QStringLiteral("measure")) >= 0)
            mode = box;
    REQUIRE(mode);
    for (bool running_machine : {false, true}) {
        profiler->setTopology(w.window.comparisonPage()->controller()->setup()->topology, running_machine);
        for (int i = 0; i < 6; ++i)
            QCoreApplication::processEvents();
        int longest = 0;
        for (int i = 0; i < mode->count(); ++i)
            longest = std::max(longest, mode->fontMetrics().horizontalAdvance(mode->itemText(i)));
        INFO("running machine " << running_machine << ": " << mode->currentText().toStdString() << " in "
                                << mode->width() << " px, text " << longest << " px");
        CHECK(mode->currentText().startsWith(QStringLiteral("auto (")));
        // The text plus the arrow's room: never "auto (mo".
        CHECK(mode->width() >= longest + 16);
        CHECK(mode->width() >= mode->sizeHint().width());
    }
}

// Item 10: --run-to waits as long as the run takes, saying so meanwhile.
TEST_CASE("layout: --run-to reports that it is still running and has no time limit", "[teaching][headless]")
{
    CHECK(
        run_to_progress_text(12) ==
        QStringLiteral("schedscope: still running to the --run-to time (12 s so far; no time limit, Ctrl+C stops it)"));
    QuietWindow w;
    REQUIRE(w.window.openScenarioFile(scenario_path("autonuma-4node-numa01.json")));
    QStringList said;
    // Reported every 20 ms: a run of several hundred ms says it a few times.
    const SimTime target = 3'000'000'000;
    REQUIRE(run_to_reporting(w.window, target, 20, [&](const QString &line) { said << line; }));
    SimulationController *c = w.window.comparisonPage()->controller();
    CHECK((c->time() >= target || c->frame()->all_finished));
    REQUIRE_FALSE(said.isEmpty());
    CHECK(said.front().startsWith(QStringLiteral("schedscope: still running to the --run-to time (")));
    CHECK(said.front().contains(QStringLiteral("no time limit")));
}

// Item 5: the parameters dialog gives wakeup each policy's own default, as
// the labels compare it (cfs and the policies built on it queue, the
// others lock).
TEST_CASE("layout: the parameters dialog shows each policy's own wakeup default", "[teaching][label][unit]")
{
    for (const auto &[policy, mode] : {std::pair{"cfs", "queued"}, std::pair{"autonuma", "queued"},
                                       std::pair{"sched-numa", "queued"}, std::pair{"sched-domains", "locked"}}) {
        INFO(policy);
        PolicyDialog dialog(PolicySpec{policy, {}, {}});
        QLineEdit *wakeup = dialog.field("wakeup");
        REQUIRE(wakeup);
        CHECK(wakeup->placeholderText() == QString::fromLatin1(mode));
        CHECK(wakeup->text().isEmpty());
    }
}

// Item 9: at time 0 the panes already draw the memory placed at start, but
// no sample has come: the memory chart says that, not that there is no
// memory; once samples came and none holds memory, it says so.
TEST_CASE("layout: before the first sample the memory chart says none came yet", "[teaching][charts][unit]")
{
    NodeMultiplesView view;
    view.resize(600, 300);
    ChartData d;
    d.kind = ChartKind::NodeMemory;
    d.lines = {ChartLine{"cfs node 0", 0, 0, {}, {}}};
    view.setChartData(d, {QStringLiteral("cfs")});
    CHECK(view.legendText().contains(QStringLiteral("no sample yet")));
    CHECK_FALSE(view.legendText().contains(QStringLiteral("no memory")));
    d.lines = {ChartLine{"cfs node 0", 0, 0, {0.1, 0.2}, {0.0, 0.0}}};
    d.t_max_s = 0.2;
    view.setChartData(d, {QStringLiteral("cfs")});
    CHECK(view.legendText().contains(QStringLiteral("no memory placed on any node so far")));
}

// Item 9: lesson 1 runs on a modelled Itanium, where the profiler models
// migration costs: its step 6 says so, and calls a measured cost measured
// only on a detected machine.
TEST_CASE("layout: lesson 1 says the profiler models costs on its machine", "[teaching][lessons][unit]")
{
    const std::vector<Lesson> lessons = builtin_lessons();
    const auto first = std::find_if(lessons.begin(), lessons.end(),
                                    [](const Lesson &l) { return l.id.rfind("01", 0) == 0; });
    REQUIRE(first != lessons.end());
    const QString text = QString::fromStdString(first->markdown).simplified();
    const QString step6 = text.mid(text.indexOf(QStringLiteral("6. ")));
    REQUIRE_FALSE(step6.isEmpty());
    CHECK(step6.contains(QStringLiteral("the model's cost")));
    CHECK(step6.contains(QStringLiteral("on a detected machine, the measured one")));
    CHECK_FALSE(text.contains(QStringLiteral("measured cost")));
}
