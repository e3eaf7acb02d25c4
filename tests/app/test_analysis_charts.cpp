// Chart data derived from a small real simulation against the recording it
// came from; the CSV layout; the charts panel's cursor and exports.
#include "panels/chart_csv.h"
#include "panels/chart_data.h"
#include "panels/charts_panel.h"
#include "panels/cursor_chart_view.h"
#include "scenario/run.h"
#include "test_analysis_support.h"

#include <catch2/catch.hpp>

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <set>

using namespace schedscope;
using namespace schedscope::gui;

namespace {

std::vector<RunSamples> as_runs(const test::SmallRuns &runs)
{
    std::vector<RunSamples> out;
    for (int r = 0; r < static_cast<int>(runs.sims.size()); ++r)
        out.push_back({runs.names[r].toStdString(), runs.sims[r].recording().samples});
    return out;
}

const ChartLine *find_line(const ChartData &d, int run, int group = -1)
{
    for (const ChartLine &l : d.lines)
        if (l.run == run && l.group == group)
            return &l;
    return nullptr;
}

} // namespace

TEST_CASE("chart series derived from a real simulation match its recording", "[analysis][charts]")
{
    const test::SmallRuns runs = test::run_small_numa01();
    const std::vector<RunSamples> input = as_runs(runs);
    for (int r = 0; r < 2; ++r) {
        const Simulation &sim = runs.sims[r];
        const auto &samples = sim.recording().samples;
        REQUIRE(samples.size() > 5);

        SECTION("idle % is the window's idle share of all PU time, " + runs.names[r].toStdString())
        {
            const ChartData idle_chart = derive_chart(ChartKind::IdlePct, input);
            const ChartLine *idle = find_line(idle_chart, r);
            REQUIRE(idle);
            // Windows are measured from the previous sample (from zero for
            // the first); an empty window (a sample at t=0) has no share.
            std::vector<double> expected_t, expected_y;
            MetricsSample prev{};
            for (const MetricsSample &m : samples) {
                const double busy = (m.user_ns - prev.user_ns) + (m.sys_ns - prev.sys_ns);
                const double idle_ns = m.idle_ns - prev.idle_ns;
                if (busy + idle_ns > 0) {
                    expected_t.push_back(m.time_ns / 1e9);
                    expected_y.push_back(100.0 * idle_ns / (busy + idle_ns));
                }
                prev = m;
            }
            REQUIRE(idle->y.size() == expected_y.size());
            CHECK(expected_y.size() + 1 >= samples.size());
            for (std::size_t i = 0; i < expected_y.size(); ++i) {
                CHECK(idle->y[i] == Approx(expected_y[i]));
                CHECK(idle->t_s[i] == Approx(expected_t[i]));
            }
        }
        SECTION("system time ends at the summary's system time")
        {
            const ChartData sys_chart = derive_chart(ChartKind::SystemTime, input);
            const ChartLine *sys = find_line(sys_chart, r);
            REQUIRE(sys);
            CHECK(sys->y.back() == Approx(samples.back().sys_ns / 1e9));
        }
        SECTION("migration rates integrate back to the recorded migrations per class")
        {
            const ChartData rates = derive_chart(ChartKind::MigrationRate, input);
            std::array<std::int64_t, kDistanceClassCount> from_records{};
            for (const MigrationRecord &m : sim.recording().migrations)
                if (m.time_ns <= samples.back().time_ns)
                    ++from_records[static_cast<int>(m.cls)];
            for (int c = 1; c < kDistanceClassCount; ++c) {
                const ChartLine *line = find_line(rates, r, c);
                double integral = 0;
                if (line)
                    for (std::size_t i = 0; i < line->y.size(); ++i) {
                        const double prev_t = i == 0 ? 0.0 : line->t_s[i - 1];
                        integral += line->y[i] * (line->t_s[i] - prev_t);
                    }
                CHECK(integral == Approx(static_cast<double>(samples.back().migrations_by_class[c])).margin(1e-6));
                CHECK(samples.back().migrations_by_class[c] == from_records[c]);
            }
        }
        SECTION("memory per node is each process's resident bytes in MiB")
        {
            const std::vector<double> now = sim.process_node_bytes(0);
            const ChartData mem = derive_chart(ChartKind::NodeMemory, input, 0);
            for (int node = 0; node < static_cast<int>(now.size()); ++node) {
                const ChartLine *line = find_line(mem, r, node);
                if (now[node] == 0 && !line)
                    continue;
                REQUIRE(line);
                // The last sample is at most one interval old: compare with it.
                double expected = 0;
                for (const NodeBytes &nb : samples.back().proc_node_bytes[0])
                    if (nb.node == node)
                        expected = nb.bytes;
                CHECK(line->y.back() == Approx(expected / (1024.0 * 1024.0)));
            }
        }
        SECTION("local-access % is the process's window figure, gaps where it did not access")
        {
            const ChartData local_chart = derive_chart(ChartKind::LocalAccess, input, 1);
            const ChartLine *local = find_line(local_chart, r);
            REQUIRE(local);
            std::size_t k = 0;
            for (const MetricsSample &m : samples)
                if (m.proc_local_pct.size() > 1 && m.proc_local_pct[1] >= 0) {
                    REQUIRE(k < local->y.size());
                    CHECK(local->y[k] == Approx(m.proc_local_pct[1]));
                    ++k;
                }
            CHECK(k == local->y.size());
        }
    }
    SECTION("a fixed-work workload charts progress, not throughput")
    {
        CHECK(work_chart_kind(input) == ChartKind::Progress);
        const ChartData p = derive_chart(ChartKind::Progress, input);
        for (const ChartLine &l : p.lines)
            CHECK(std::is_sorted(l.y.begin(), l.y.end()));
    }
}

TEST_CASE("value_at holds a window's value until the next sample", "[analysis][charts]")
{
    ChartLine l{"x", 0, -1, {0.1, 0.2, 0.3}, {5, 7, 9}};
    CHECK_FALSE(value_at(l, 0.05));
    CHECK(*value_at(l, 0.1) == 5);
    CHECK(*value_at(l, 0.25) == 7);
    CHECK(*value_at(l, 10) == 9);
}

TEST_CASE("the CSV has a time column and one column per line, units in the header", "[analysis][charts]")
{
    ChartData idle{
        ChartKind::IdlePct, {{"a", 0, -1, {0.1, 0.2}, {10, 20}}, {"b, quoted", 1, -1, {0.2}, {30}}}, 0.2, 30, {}};
    ChartData mem{ChartKind::NodeMemory, {{"a node 0", 0, 0, {0.1}, {64}}}, 0.1, 64, {}};
    const std::string csv = charts_to_csv({idle, mem});
    CHECK(csv == "time_s,Idle time: a [%],\"Idle time: b, quoted [%]\",Memory per node: a node 0 [MiB]\n"
                 "0.1,10,,64\n"
                 "0.2,20,30,\n");
}

TEST_CASE("the charts panel shows the runs, shares its cursor and exports", "[analysis][charts]")
{
    const test::SmallRuns runs = test::run_small_numa01();
    ChartsPanel panel;
    panel.resize(1000, 800);
    panel.setShowAll(true); // by default only the charts that matter are on screen
    panel.setRuns(runs.names, runs.recordings(), {"numa01 p0", "numa01 p1"});
    panel.show();
    QCoreApplication::processEvents();

    const auto charts = panel.charts();
    REQUIRE(charts.size() == panel.views().size());
    for (std::size_t i = 0; i < charts.size(); ++i)
        CHECK(panel.views()[i]->chartData().lines.size() == charts[i].lines.size());

    SECTION("setCursorTime moves the cursor of every chart")
    {
        panel.setCursorTime(500'000'000);
        for (CursorChartView *v : panel.views())
            CHECK(v->cursorTime() == Approx(0.5));
    }
    SECTION("dragging on a chart moves the shared cursor and says so")
    {
        QSignalSpy moved(&panel, &ChartsPanel::cursorMoved);
        CursorChartView *view = panel.views()[3];
        const QRectF area = view->chart()->plotArea();
        const QPoint p = view->mapFromScene(view->chart()->mapToScene(area.center()));
        QTest::mousePress(view->viewport(), Qt::LeftButton, {}, p);
        QTest::mouseMove(view->viewport(), p + QPoint(40, 0));
        QTest::mouseRelease(view->viewport(), Qt::LeftButton, {}, p + QPoint(40, 0));
        REQUIRE(moved.count() >= 1);
        const SimTime t = moved.last().at(0).value<SimTime>();
        CHECK(t > 0);
        for (CursorChartView *v : panel.views())
            CHECK(v->cursorTime() == Approx(t / 1e9));
        CHECK(!view->valuesText(t / 1e9).isEmpty());
    }
    SECTION("appended samples show up after the redraw")
    {
        ChartsPanel incremental;
        incremental.setRuns(runs.names, {nullptr, nullptr});
        const auto &s = runs.sims[0].recording().samples;
        incremental.appendSamples(0, std::span(s).first(3));
        incremental.appendSamples(0, std::span(s).subspan(3));
        incremental.redraw();
        // The system-time chart has one point per sample.
        CHECK(incremental.views()[4]->chartData().lines[0].y.size() == s.size());
        incremental.truncateRun(0, s[4].time_ns);
        incremental.redraw();
        CHECK(incremental.views()[4]->chartData().lines[0].y.size() == 5);
    }
    SECTION("PNG and CSV exports write real files")
    {
        QTemporaryDir dir;
        const QString png = dir.filePath("charts.png"), csv = dir.filePath("charts.csv");
        REQUIRE(panel.exportPng(png));
        REQUIRE(panel.exportCsv(csv));
        CHECK(test::distinct_colours(png) > 20);
        QFile f(csv);
        REQUIRE(f.open(QIODevice::ReadOnly));
        const QByteArray header = f.readLine();
        CHECK(header.startsWith("time_s,"));
        CHECK(header.contains("[MiB]"));
        CHECK(header.contains("[migrations/s]"));
    }
}
