// Vector and headless chart exports through the real executable:
// `--screenshot FILE.svg` paints the panes and charts as shapes and text
// (no raster inside), and `--export-charts DIR` writes every chart as PNG,
// SVG and CSV with columns named by the pane labels.
#include "app_options.h"
#include "window_test_support.h"

#include <catch2/catch.hpp>

#include <QDir>
#include <QFile>
#include <QImage>
#include <QTemporaryDir>

using namespace schedscope::gui;
using schedscope::test::GuiRun;
using schedscope::test::run_gui;
using schedscope::test::write_file;

namespace {

QString read_all(const QString &path)
{
    QFile f(path);
    REQUIRE(f.open(QIODevice::ReadOnly));
    return QString::fromUtf8(f.readAll());
}

// Two panes running sched-domains: only their labels tell them apart.
const char *kTwoSchedDomains = R"({"schedscope_scenario": 1, "name": "two sched-domains",
  "topology": "synthetic:pack:2 [numa] l3:1 core:2 pu:2",
  "workload": {"name": "numa01", "params": {"memory_mb": "32", "loops": "20", "threads": "5"}},
  "policies": [{"name": "sched-domains", "params": {"cache_hot_time_ms": "2.5"}},
               {"name": "sched-domains", "params": {"cache_hot_time_ms": "10"}}]})";

} // namespace

TEST_CASE("The headless --screenshot FILE.svg is vector: paths and text, no embedded image", "[screenshot][svg]")
{
    QTemporaryDir dir;
    const QString scenario = write_file(dir, QStringLiteral("s.json"), kTwoSchedDomains);
    const QString out = dir.filePath(QStringLiteral("shot.svg"));
    const GuiRun run = run_gui(
        {"--scenario", scenario, "--run-to", "200ms", "--docks", "charts", "--screenshot", out, "--size", "1280x720"});
    INFO(run.err.toStdString());
    REQUIRE(run.exit_code == 0);
    const QString svg = read_all(out);
    CHECK(svg.startsWith(QStringLiteral("<?xml")));
    CHECK(svg.contains(QStringLiteral("<svg")));
    CHECK_FALSE(svg.contains(QStringLiteral("<image")));
    CHECK_FALSE(svg.contains(QStringLiteral("data:image")));
    // Shapes and words: the panes' boxes, their header and the charts' legends.
    CHECK(svg.count(QStringLiteral("<path")) + svg.count(QStringLiteral("<rect")) > 50);
    CHECK(svg.contains(QStringLiteral("<text")));
    CHECK(svg.contains(QStringLiteral("sched-domains cache_hot_time=10ms")));
    // The charts that matter by default: progress (or throughput).
    CHECK((svg.contains(QStringLiteral("Progress")) || svg.contains(QStringLiteral("Throughput"))));
}

TEST_CASE("The headless --export-charts writes every chart as PNG, SVG and CSV named by the pane labels",
          "[export][charts]")
{
    QTemporaryDir dir;
    const QString scenario = write_file(dir, QStringLiteral("s.json"), kTwoSchedDomains);
    const QString out = dir.filePath(QStringLiteral("charts"));
    // To 600 ms: the threads end at about 0.6 s, and only then does the
    // 2.6.9 balancer move any (a 2-against-1 imbalance is under one task's
    // load), so the migration chart has lines to export.
    const GuiRun run = run_gui({"--scenario", scenario, "--run-to", "600ms", "--export-charts", out});
    INFO(run.err.toStdString());
    REQUIRE(run.exit_code == 0);
    for (const char *stem : {"memory-per-node", "local-memory-accesses", "progress", "idle-time", "system-time",
                             "task-migrations-by-distance"}) {
        INFO(stem);
        const QString base = QDir(out).filePath(QString::fromLatin1(stem));
        const QImage png(base + QStringLiteral(".png"));
        CHECK(png.size() == QSize(960, 540));
        const QString svg = read_all(base + QStringLiteral(".svg"));
        CHECK(svg.contains(QStringLiteral("<path")));
        CHECK_FALSE(svg.contains(QStringLiteral("<image")));
        const QString header = read_all(base + QStringLiteral(".csv")).section(QLatin1Char('\n'), 0, 0);
        CHECK(header.startsWith(QStringLiteral("time_s,")));
        CHECK(header.contains(QStringLiteral("sched-domains cache_hot_time=2.5ms")));
        CHECK(header.contains(QStringLiteral("sched-domains cache_hot_time=10ms")));
    }
    // The idle chart has one column per pane, headed by its label.
    const QString idle = read_all(QDir(out).filePath(QStringLiteral("idle-time.csv")));
    CHECK(idle.section(QLatin1Char('\n'), 0, 0) ==
          QStringLiteral("time_s,Idle time: sched-domains cache_hot_time=2.5ms [%],"
                         "Idle time: sched-domains cache_hot_time=10ms [%]"));
    CHECK(idle.count(QLatin1Char('\n')) >= 3); // samples every 100 ms to 600 ms
}

TEST_CASE("The option --export-charts is headless and fails cleanly on an unwritable directory", "[export][charts]")
{
    const auto parsed = parse_app_options({"schedscope", "--export-charts", "out"});
    REQUIRE(parsed.options);
    CHECK(parsed.options->headless());
    CHECK(parsed.options->export_charts == QLatin1String("out"));

    QTemporaryDir dir;
    const QString file = write_file(dir, QStringLiteral("plain"), "x");
    const GuiRun run = run_gui(
        {"--topology", "synthetic:pack:2 [numa] core:2 pu:1", "--export-charts", file + QStringLiteral("/sub")});
    CHECK(run.exit_code == 1);
    CHECK(run.err.contains(QStringLiteral("plain")));
}
