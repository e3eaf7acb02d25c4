#pragma once
// The headless modes: --screenshot (load, optionally run the comparison to
// --run-to, render the whole window offscreen, write a PNG, or an SVG of
// the panes and charts when the file ends in .svg, exit) and
// --benchmark-render (play for a while on whatever display there is and
// report frames per second).

#include "app_options.h"

#include <QSize>
#include <QString>

#include <cstdint>
#include <functional>
#include <optional>

class QWidget;

namespace schedscope {
struct Scenario;
}

namespace schedscope::gui {

class MainWindow;

// Resizes and shows the widget, lets Qt lay it out, grabs it into a PNG.
// Returns an empty string on success, else the reason.
QString save_widget_png(QWidget &widget, QSize size, const QString &path);

// The same for a vector picture of the scene (scene_export.h): the panes and
// the charts shown, as shapes and text.
QString save_scene_svg(MainWindow &window, QSize size, const QString &path);

// Opens what the options name in the window: a scenario file, a
// --workload/--policy comparison, or a machine with the default comparison,
// at the --speed given. Errors go to the window's error sink. Returns
// whether it opened.
bool open_from_options(MainWindow &window, const AppOptions &options);

// Exit codes: 0 written, 2 bad input (reported on stderr), 1 cannot write.
int run_headless(MainWindow &window, const AppOptions &options);

// How often a headless --run-to says it is still running, in wall ms.
inline constexpr int kRunToProgressIntervalMs = 10'000;

// The line --run-to writes on stderr while it waits: it has no wall-clock
// limit, and says so. `waited_s`: wall seconds so far.
QString run_to_progress_text(long long waited_s);

// Runs the window's comparison to `t_ns` (simulated) or its end, however
// long that takes in wall time, calling `report` with the progress text
// every `interval_ms` meanwhile. Returns false only if the comparison
// cannot run (no comparison loaded, or it failed).
bool run_to_reporting(MainWindow &window, std::int64_t t_ns, int interval_ms,
                      const std::function<void(const QString &)> &report);

} // namespace schedscope::gui
