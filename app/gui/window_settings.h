#pragma once
// What the window remembers between sessions (QSettings): its geometry and
// dock layout, and the last sample opened from the Samples menu. Recent
// scenario files are ScenarioDocument's. Every function takes the QSettings
// to use, so tests pass one backed by a temporary file.

#include <QRect>
#include <QSize>
#include <QString>

class QMainWindow;
class QSettings;

namespace schedscope::gui {

// Bump when the docks change so an old layout is not restored onto new docks.
inline constexpr int kWindowStateVersion = 2;

void save_window_layout(QSettings &settings, const QMainWindow &window);
// Returns whether a stored layout was applied.
bool restore_window_layout(QSettings &settings, QMainWindow &window);

// The window's size on a first launch (no stored layout): 1400x900, or the
// screen's available area less the window frame where that is smaller, so
// that a 1280x720 screen shows the whole window, status bar included.
QSize first_launch_size(const QRect &available);

// "sample:NAME" or a scenario file path; empty if none yet.
QString last_sample(QSettings &settings);
void set_last_sample(QSettings &settings, const QString &sample);

} // namespace schedscope::gui
