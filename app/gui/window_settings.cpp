#include "window_settings.h"

#include <QMainWindow>
#include <QSettings>

#include <algorithm>

namespace schedscope::gui {

namespace {
const char *const kGeometryKey = "window/geometry";
const char *const kStateKey = "window/state";
const char *const kLastSampleKey = "samples/last";
// The size the window opens at when the screen has room: the panes and the
// charts dock side by side at a readable size.
constexpr int kPreferredWidthPx = 1400;
constexpr int kPreferredHeightPx = 900;
// A window manager's title bar and borders, outside the size asked for
// (a typical decorated frame; the frame is unknown until the window shows).
constexpr int kFrameAllowanceWidthPx = 8;
constexpr int kFrameAllowanceHeightPx = 36;
} // namespace

QSize first_launch_size(const QRect &available)
{
    if (!available.isValid())
        return {kPreferredWidthPx, kPreferredHeightPx};
    return {std::min(kPreferredWidthPx, available.width() - kFrameAllowanceWidthPx),
            std::min(kPreferredHeightPx, available.height() - kFrameAllowanceHeightPx)};
}

void save_window_layout(QSettings &settings, const QMainWindow &window)
{
    settings.setValue(QString::fromLatin1(kGeometryKey), window.saveGeometry());
    settings.setValue(QString::fromLatin1(kStateKey), window.saveState(kWindowStateVersion));
}

bool restore_window_layout(QSettings &settings, QMainWindow &window)
{
    const QByteArray geometry = settings.value(QString::fromLatin1(kGeometryKey)).toByteArray();
    const QByteArray state = settings.value(QString::fromLatin1(kStateKey)).toByteArray();
    bool applied = false;
    if (!geometry.isEmpty())
        applied |= window.restoreGeometry(geometry);
    if (!state.isEmpty())
        applied |= window.restoreState(state, kWindowStateVersion);
    return applied;
}

QString last_sample(QSettings &settings) { return settings.value(QString::fromLatin1(kLastSampleKey)).toString(); }

void set_last_sample(QSettings &settings, const QString &sample)
{
    settings.setValue(QString::fromLatin1(kLastSampleKey), sample);
}

} // namespace schedscope::gui
