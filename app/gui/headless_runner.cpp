#include "headless_runner.h"

#include "catalog/catalog.h"
#include "main_window.h"
#include "panels/charts_panel.h"
#include "scene_export.h"
#include "sim/comparison_page.h"
#include "sim/comparison_view.h"
#include "sim/simulation_controller.h"
#include "sim/simulation_pane.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QPixmap>
#include <QSaveFile>
#include <QTimer>
#include <QWidget>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <vector>

namespace schedscope::gui {

namespace {
// --export-charts draws each chart alone at 16:9, a slide's shape, large
// enough for the legend of four panes on one or two rows.
constexpr QSize kExportedChartSize(960, 540);
} // namespace

QString save_widget_png(QWidget &widget, QSize size, const QString &path)
{
    widget.resize(size);
    widget.show();
    // Two rounds: the first delivers show/resize events (docks and the view
    // learn their size and fit), the second the repaints they trigger.
    for (int i = 0; i < 2; ++i)
        QCoreApplication::processEvents();
    const QPixmap pixmap = widget.grab();
    if (pixmap.isNull())
        return QStringLiteral("%1: the window could not be rendered").arg(path);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !pixmap.save(&file, "PNG") || !file.commit())
        return QStringLiteral("%1: %2").arg(path, file.errorString());
    return {};
}

QString save_scene_svg(MainWindow &window, QSize size, const QString &path)
{
    window.resize(size);
    window.show();
    for (int i = 0; i < 2; ++i)
        QCoreApplication::processEvents();
    return export_scene_svg(window, path);
}

namespace {

bool open_document(MainWindow &window, const AppOptions &options)
{
    if (!options.scenario.isEmpty())
        return window.openScenarioFile(options.scenario);
    if (options.workload.empty())
        return window.openTopology(options.topology);
    Scenario s;
    s.name = "command line";
    s.topology = options.topology;
    s.duration_s = options.duration_s;
    try {
        auto [wname, wparams] = parse_name_params(options.workload, "--workload");
        s.workload = {wname, wparams};
        for (const std::string &p : options.policies) {
            auto [pname, pparams] = parse_name_params(p, "--policy");
            s.policies.push_back({pname, pparams});
        }
    } catch (const std::exception &e) {
        std::fprintf(stderr, "schedscope: %s\n", e.what());
        return false;
    }
    if (s.policies.empty())
        s.policies = {{"sched-domains", {}}};
    return window.showScenario(s, {});
}
} // namespace

bool open_from_options(MainWindow &window, const AppOptions &options)
{
    const bool opened = open_document(window, options);
    // --speed, 0 (as fast as possible) included, shows on the slider too.
    if (options.speed >= 0)
        window.comparisonPage()->setSpeed(options.speed);
    return opened;
}

namespace {

// Plays for the given wall time and prints what the panes managed: frames
// painted per second (all panes repaint once per frame), the time a paint
// and a simulation request took, and how far the simulation got.
int run_benchmark(MainWindow &window, const AppOptions &options)
{
    SimulationController *c = window.comparisonPage()->controller();
    ComparisonView *view = window.comparisonPage()->view();
    window.resize(options.size);
    window.show();
    if (!c->waitLoaded())
        return 2;
    window.comparisonPage()->setSpeed(options.speed >= 0 ? options.speed : 1.0);
    std::vector<int> paints0;
    for (int i = 0; i < view->paneCount(); ++i)
        paints0.push_back(view->pane(i)->paintCount());
    std::vector<double> paint_ms, sim_ms;
    QObject::connect(c, &SimulationController::frameReady, &window, [&](const FrameSetPtr &f) {
        sim_ms.push_back(f->wall_ms);
        double ms = 0;
        for (int i = 0; i < view->paneCount(); ++i)
            ms += view->pane(i)->lastPaintMs();
        paint_ms.push_back(ms);
    });
    // The measured run sits in an event loop as the application does: a
    // loop that polled processEvents() would keep the GUI thread busy and
    // take a core from the simulation worker and the display server.
    QEventLoop loop;
    // A timer of its own rather than QTimer::singleShot, whose functor
    // overload clang-analyzer reads as a leak.
    QTimer measured;
    measured.setSingleShot(true);
    measured.setTimerType(Qt::PreciseTimer);
    QObject::connect(&measured, &QTimer::timeout, &loop, &QEventLoop::quit);
    measured.start(static_cast<int>(options.benchmark_s * 1000));
    QObject::connect(c, &SimulationController::playingChanged, &loop, [&](bool playing) {
        if (!playing)
            loop.quit(); // the run finished
    });
    QElapsedTimer wall;
    wall.start();
    c->play();
    if (c->isPlaying())
        loop.exec();
    c->pause();
    const double secs = static_cast<double>(wall.elapsed()) / 1000.0;
    int min_paints = 1 << 30;
    for (int i = 0; i < view->paneCount(); ++i)
        min_paints = std::min(min_paints, view->pane(i)->paintCount() - paints0[i]);
    auto mean = [](const std::vector<double> &v) {
        double s = 0;
        for (double x : v)
            s += x;
        return v.empty() ? 0.0 : s / static_cast<double>(v.size());
    };
    auto p95 = [](std::vector<double> v) {
        if (v.empty())
            return 0.0;
        std::sort(v.begin(), v.end());
        return v[static_cast<size_t>(0.95 * static_cast<double>(v.size() - 1))];
    };
    const RunSetupPtr setup = c->setup();
    std::printf("benchmark-render: %d pane(s), %d PUs, window %dx%d, %.1f s wall\n", view->paneCount(),
                setup ? setup->topology->pu_count() : 0, options.size.width(), options.size.height(), secs);
    std::printf("  fps %.1f (frames painted per second, every pane; %.1f frames computed per second)\n",
                min_paints / secs, static_cast<double>(sim_ms.size()) / secs);
    std::printf("  paint ms per frame, all panes: mean %.2f p95 %.2f\n", mean(paint_ms), p95(paint_ms));
    std::printf("  simulation ms per frame (worker thread): mean %.2f p95 %.2f\n", mean(sim_ms), p95(sim_ms));
    std::printf("  simulated time reached %.3f s%s\n", static_cast<double>(c->time()) / 1e9,
                c->frame() && c->frame()->all_finished ? " (finished)" : "");
    std::fflush(stdout);
    return 0;
}

} // namespace

QString run_to_progress_text(long long waited_s)
{
    return QStringLiteral("schedscope: still running to the --run-to time (%1 s so far; no time limit, "
                          "Ctrl+C stops it)")
        .arg(waited_s);
}

bool run_to_reporting(MainWindow &window, std::int64_t t_ns, int interval_ms,
                      const std::function<void(const QString &)> &report)
{
    SimulationController *c = window.comparisonPage()->controller();
    if (!c->setup())
        return false;
    // No wall-clock limit: a big machine on a loaded computer can take
    // minutes to reach the --run-to time. Meanwhile the report says that
    // it is still working, so a wait is never mistaken for a hang.
    QElapsedTimer waited;
    waited.start();
    QTimer progress;
    progress.setInterval(interval_ms);
    QObject::connect(&progress, &QTimer::timeout, [&] { report(run_to_progress_text(waited.elapsed() / 1000)); });
    progress.start();
    const bool ok = c->runTo(t_ns, -1);
    progress.stop();
    return ok;
}

int run_headless(MainWindow &window, const AppOptions &options)
{
    window.setErrorSink(stderr_sink());
    window.setSavePrompt({}); // never ask: nothing to save in a headless run
    if (!open_from_options(window, options))
        return 2;
    if (const QStringList unknown = window.showDocks(options.docks); !unknown.isEmpty()) {
        std::fprintf(stderr, "schedscope: --docks: unknown dock '%s'\n", qUtf8Printable(unknown.first()));
        return 2;
    }
    if (options.benchmark_s > 0)
        return run_benchmark(window, options);
    SimulationController *c = window.comparisonPage()->controller();
    if (c->setup()) {
        const bool ok = options.run_to_ns >= 0
                            ? run_to_reporting(window, options.run_to_ns, kRunToProgressIntervalMs,
                                               [](const QString &line) {
                                                   std::fprintf(stderr, "%s\n", qUtf8Printable(line));
                                                   std::fflush(stderr);
                                               })
                            : c->waitLoaded(-1);
        if (!ok) {
            std::fprintf(stderr, "schedscope: the comparison did not reach %s\n",
                         options.run_to_ns >= 0 ? "the --run-to time" : "its first frame");
            return 2;
        }
    }
    // The charts redraw on a timer (at most 5 per second): draw what the run
    // reached now, once the window has its final layout (a chart laid out
    // while small keeps its axes bunched in a corner), and let the new axes'
    // posted layout events run before the grab. The window takes its final
    // size first: charts laid out wider and then squeezed would keep plot
    // areas that run past their right edge.
    window.resize(options.size);
    window.show();
    for (int i = 0; i < 2; ++i)
        QCoreApplication::processEvents();
    window.analysisDocks().charts->redraw();
    for (int i = 0; i < 3; ++i) {
        QCoreApplication::processEvents();
        // Without an event loop running, deleteLater() never happens, and the
        // charts' replaced axis items would still be drawn under the new ones.
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    }
    if (!options.export_charts.isEmpty()) {
        QStringList written;
        const QString error = window.analysisDocks().charts->exportChartFiles(options.export_charts, kExportedChartSize,
                                                                              &written);
        if (!error.isEmpty()) {
            std::fprintf(stderr, "schedscope: %s\n", qUtf8Printable(error));
            return 1;
        }
        std::printf("schedscope: %lld chart files written to %s\n", static_cast<long long>(written.size()),
                    qUtf8Printable(options.export_charts));
    }
    if (options.screenshot.isEmpty())
        return 0;
    const QString error = options.screenshot.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)
                              ? save_scene_svg(window, options.size, options.screenshot)
                              : save_widget_png(window, options.size, options.screenshot);
    if (!error.isEmpty()) {
        std::fprintf(stderr, "schedscope: %s\n", qUtf8Printable(error));
        return 1;
    }
    return 0;
}

} // namespace schedscope::gui
