// The window's File > Export trace path (the same calls the dialog makes,
// without the modal), settings round trips through a QSettings on a
// temporary file, the About text and the panes' PNG/SVG export.
#include "about_text.h"
#include "main_window.h"
#include "sim/comparison_page.h"
#include "sim/comparison_view.h"
#include "sim/simulation_controller.h"
#include "trace_export_dialog.h"
#include "trace_export_job.h"
#include "view_export.h"
#include "window_settings.h"

#include "scenario/scenario.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <hwloc.h>

#include <filesystem>
#include <fstream>
#include <set>

using namespace schedscope;
using namespace schedscope::gui;

namespace {

Scenario short_scenario()
{
    Scenario s;
    s.name = "export";
    s.topology = "synthetic:pack:2 [numa] l3:1 core:2 pu:2";
    s.workload = {"numa01", {{"memory_mb", "32"}, {"loops", "2"}}};
    s.policies = {{"sched-domains", {}}, {"autonuma", {}}};
    s.duration_s = 0.5;
    return s;
}

RunSetupPtr short_setup() { return make_run_setup(short_scenario()); }

// Threads of this process whose name (/proc/self/task/N/comm) is `name`.
int threads_named(const std::string &name)
{
    int n = 0;
    for (const auto &task : std::filesystem::directory_iterator("/proc/self/task")) {
        std::ifstream comm(task.path() / "comm");
        std::string line;
        if (std::getline(comm, line) && line == name)
            ++n;
    }
    return n;
}

} // namespace

TEST_CASE("integration: export trace through the dialog's job writes a valid Chrome trace of every pane",
          "[integration][trace]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    TraceExportDialog dialog(short_setup());
    dialog.setFormat(TraceFormat::Chrome);
    dialog.setWindowText(QStringLiteral("0"), QStringLiteral("300ms"));
    dialog.setPath(dir.filePath(QStringLiteral("t.json")));
    const auto job = dialog.job();
    REQUIRE(job);
    CHECK(job->options.window.end_ns == 300'000'000);

    // The estimate comes first, off the GUI thread.
    QSignalSpy shown(&dialog, &TraceExportDialog::estimateShown);
    REQUIRE((shown.count() > 0 || shown.wait(20000)));
    CHECK_FALSE(dialog.estimateText().contains(QStringLiteral("estimating")));
    // SCHEDSCOPE_ANALYSIS_PNG_DIR=/some/dir keeps a picture of the dialog to look at.
    if (const QString keep = qEnvironmentVariable("SCHEDSCOPE_ANALYSIS_PNG_DIR"); !keep.isEmpty()) {
        dialog.show();
        CHECK(dialog.grab().save(keep + QStringLiteral("/trace_export_dialog.png")));
    }
    const TraceSizeEstimate estimate = estimate_trace_job(*job);
    CHECK(estimate.bytes > 0);

    const TraceExportResult result = run_trace_job(*job);
    REQUIRE(result.files.size() == 1);
    CHECK_FALSE(result.cancelled);
    std::ifstream in(result.files.front());
    const nlohmann::json trace = nlohmann::json::parse(in);
    REQUIRE(trace.contains("traceEvents"));
    std::set<std::string> processes;
    std::size_t slices = 0;
    for (const auto &e : trace["traceEvents"]) {
        if (e["ph"] == "M" && e["name"] == "process_name")
            processes.insert(e["args"]["name"].get<std::string>());
        if (e["ph"] == "X") {
            ++slices;
            CHECK(e["ts"].get<double>() < 300'000.0 + 1e-6); // microseconds, inside the window
        }
    }
    CHECK(slices > 0);
    // One process per pane, named after its policy.
    CHECK(processes.size() == 2);
    CHECK(std::any_of(processes.begin(), processes.end(),
                      [](const std::string &p) { return p.find("autonuma") != std::string::npos; }));
}

TEST_CASE("integration: an ftrace export of two panes writes one file each, a bad window is refused",
          "[integration][trace]")
{
    QTemporaryDir dir;
    TraceExportDialog dialog(short_setup());
    dialog.setFormat(TraceFormat::Ftrace);
    dialog.setPath(dir.filePath(QStringLiteral("t.txt")));
    dialog.setWindowText(QString(), QStringLiteral("200ms"));
    auto job = dialog.job();
    REQUIRE(job);
    const TraceExportResult result = run_trace_job(*job);
    REQUIRE(result.files.size() == 2);
    for (const std::string &f : result.files) {
        QFile file(QString::fromStdString(f));
        REQUIRE(file.open(QIODevice::ReadOnly));
        CHECK(file.readAll().contains("sched_switch"));
    }

    // A cancel through the progress callback writes nothing.
    job->options.progress = [](double) { return false; };
    job->path = dir.filePath(QStringLiteral("cancelled.txt")).toStdString();
    CHECK(run_trace_job(*job).cancelled);
    CHECK_FALSE(QFileInfo::exists(dir.filePath(QStringLiteral("cancelled.1-sched-domains.txt"))));

    dialog.setWindowText(QStringLiteral("nonsense"), QString());
    CHECK_FALSE(dialog.job());
}

TEST_CASE("integration: closing the trace dialog stops its size estimate", "[integration][trace]")
{
    // An hour of simulated time: its pre-run takes far longer than the test
    // waits below, unless the dialog stops it.
    Scenario s = short_scenario();
    s.workload = {"numa01", {{"memory_mb", "32"}, {"loops", "100000"}}};
    s.duration_s = 3600;
    QObject waiter;
    QSignalSpy never(&waiter, &QObject::destroyed); // only for its wait()
    {
        TraceExportDialog dialog(make_run_setup(s)); // the default file name is set: an estimate starts
        for (int i = 0; i < 100 && threads_named("ss-estimate") == 0; ++i)
            never.wait(50);
        REQUIRE(threads_named("ss-estimate") == 1);
        CHECK(dialog.estimateText().contains(QStringLiteral("estimating")));
    }
    // The thread may take a moment to leave the process after its last line.
    for (int i = 0; i < 20 && threads_named("ss-estimate") > 0; ++i)
        never.wait(100);
    CHECK(threads_named("ss-estimate") == 0);
}

TEST_CASE("integration: the window's threaded export reports through status and the error sink", "[integration][trace]")
{
    QTemporaryDir dir;
    QWidget parent;
    parent.show();
    TraceExportJob job{short_setup(), dir.filePath(QStringLiteral("bg.json")).toStdString(), {}};
    job.options.window.end_ns = 200'000'000;
    QStringList status, errors;
    const ErrorSink sink = [&](const QString &, const QString &m) { errors << m; };
    start_trace_export(
        &parent, job, [&](const QString &m) { status << m; }, sink);
    QSignalSpy never(&parent, &QObject::destroyed); // only for its wait()
    for (int i = 0; i < 200 && status.isEmpty(); ++i)
        never.wait(100);
    REQUIRE(status.size() == 1);
    CHECK(status.front().contains(QStringLiteral("bg.json")));
    CHECK(errors.isEmpty());
    CHECK(QFileInfo(dir.filePath(QStringLiteral("bg.json"))).size() > 0);

    job.path = dir.filePath(QStringLiteral("no/such/dir/x.json")).toStdString();
    start_trace_export(
        &parent, job, [&](const QString &m) { status << m; }, sink);
    for (int i = 0; i < 200 && status.size() < 2; ++i)
        never.wait(100);
    REQUIRE(status.size() == 2);
    CHECK(errors.size() == 1);
}

TEST_CASE("integration: trace run names are the pane labels", "[integration][trace][label]")
{
    RunSetup setup;
    setup.policies = {{"bind", {}, {}}, {"bind", {{"mode", "inverse"}}, {}}, {"autonuma", {}, "mine"}};
    // One parameter sets the bind panes apart: the pane at its default says
    // the default's value.
    CHECK(trace_run_names(setup) == std::vector<std::string>{"bind mode=hard", "bind mode=inverse", "mine"});
}

TEST_CASE("integration: window layout and last sample survive a settings round trip", "[integration][settings]")
{
    QTemporaryDir dir;
    const QString ini = dir.filePath(QStringLiteral("schedscope.ini"));
    QSize saved_size;
    {
        MainWindow w;
        w.resize(1234, 777);
        w.show();
        w.showDocks({QStringLiteral("profiler"), QStringLiteral("charts")});
        w.analysisDocks().explain_dock->hide();
        saved_size = w.size(); // the docks' minimum sizes may have grown it
        QSettings s(ini, QSettings::IniFormat);
        w.saveSettings(s);
        set_last_sample(s, QStringLiteral("sample:dell-r910-4node"));
    }
    MainWindow w;
    QSettings s(ini, QSettings::IniFormat);
    REQUIRE(w.restoreSettings(s));
    w.show();
    CHECK(w.size() == saved_size);
    CHECK(w.analysisDocks().profiler_dock->isVisible());
    CHECK(w.analysisDocks().charts_dock->isVisible());
    CHECK_FALSE(w.analysisDocks().explain_dock->isVisible());
    CHECK_FALSE(w.analysisDocks().lessons_dock->isVisible());
    CHECK(last_sample(s) == QLatin1String("sample:dell-r910-4node"));

    // Nothing stored: nothing applied.
    QSettings empty(dir.filePath(QStringLiteral("none.ini")), QSettings::IniFormat);
    MainWindow fresh;
    CHECK_FALSE(fresh.restoreSettings(empty));
}

TEST_CASE("integration: About names the program, Qt and hwloc versions it runs with", "[integration][about]")
{
    const QString text = about_text();
    CHECK(text.contains(QStringLiteral(SCHEDSCOPE_VERSION)));
    CHECK(text.contains(QString::fromLatin1(qVersion())));
    const unsigned v = hwloc_get_api_version();
    CHECK(text.contains(QStringLiteral("%1.%2").arg(v >> 16 & 0xff).arg(v >> 8 & 0xff)));
    CHECK(hwloc_runtime_version().count(QLatin1Char('.')) == 2);
}

TEST_CASE("integration: the panes export as PNG and SVG", "[integration][export]")
{
    QTemporaryDir dir;
    MainWindow w;
    w.setErrorSink([](const QString &, const QString &) {});
    w.resize(1200, 800);
    w.show();
    REQUIRE(w.showScenario(short_scenario(), {}));
    REQUIRE(w.comparisonPage()->controller()->runTo(100'000'000));
    QWidget &panes = *w.comparisonPage()->view();
    const QString png = dir.filePath(QStringLiteral("panes.png"));
    const QString svg = dir.filePath(QStringLiteral("panes.svg"));
    CHECK(export_widget_png(panes, png).isEmpty());
    CHECK(export_widget_svg(panes, svg).isEmpty());
    const QImage image(png);
    CHECK(image.width() == panes.width());
    QFile f(svg);
    REQUIRE(f.open(QIODevice::ReadOnly));
    const QByteArray content = f.readAll();
    CHECK(content.contains("<svg"));
    CHECK(content.contains("autonuma")); // the pane headers are text in the SVG
    CHECK(export_widget_png(panes, dir.filePath(QStringLiteral("no/such/dir/x.png"))).size() > 0);
}
