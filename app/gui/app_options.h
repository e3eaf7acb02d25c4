#pragma once
// Command line of the `schedscope` GUI. Every option lands in AppOptions so
// that new ones (the engine's --scenario FILE and --run-to 5s) are one field
// and one QCommandLineOption each, and headless runs stay a plain data path.

#include <QSize>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace schedscope::gui {

struct AppOptions {
    std::string topology = "detect"; // a load_topology spec
    QString screenshot;              // non-empty: render offscreen to this PNG (or .svg) and exit
    QSize size{1600, 1000};          // window size in screenshot mode
    QString scenario;                // a scenario file to open instead of the default comparison
    // A comparison from the command line, as schedscope-cli run takes it
    // (NAME[:k=v,...]); used when no scenario file is given.
    std::string workload;
    std::vector<std::string> policies;
    double duration_s = 0;
    std::int64_t run_to_ns = -1; // >= 0: run the comparison to this instant before the screenshot
    double benchmark_s = 0;      // > 0: play for this long, report frames per second, exit
    double speed = -1;           // simulated s per real s for play/benchmark; 0 = max; <0 default
    QStringList docks;           // docks to show at start (MainWindow::showDocks names)
    QString export_charts;       // non-empty: write each chart as PNG, SVG and CSV into this directory and exit

    bool headless() const { return !screenshot.isEmpty() || !export_charts.isEmpty() || benchmark_s > 0; }
};

// "5s", "250ms", "2.5", "1m" -> nanoseconds; nullopt if malformed.
std::optional<std::int64_t> parse_duration_ns(const QString &text);

struct ParsedOptions {
    std::optional<AppOptions> options; // empty: exit with exit_code
    int exit_code = 0;
    QString message; // for stdout (help, version) or stderr (errors)
};

// args as QCoreApplication::arguments() gives them, program name first.
ParsedOptions parse_app_options(const QStringList &args);

// Before the QApplication exists: --help and --version are answered without
// one, so they work with no display. Returns the exit code if the program
// should stop there.
std::optional<int> handle_info_options(int argc, char **argv);

// Before the QApplication exists: headless runs default to Qt's offscreen
// platform so they work without a display (QT_QPA_PLATFORM still wins).
void prepare_platform(int argc, char **argv);

} // namespace schedscope::gui
