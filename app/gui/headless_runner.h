#pragma once
// The --screenshot mode: load, lay out, render the whole window offscreen,
// write a PNG, exit. Later steps (the engine's --scenario/--run-to) slot in
// between loading and grabbing.

#include "app_options.h"

#include <QSize>
#include <QString>

class QWidget;

namespace schedscope::gui {

class MainWindow;

// Resizes and shows the widget, lets Qt lay it out, grabs it into a PNG.
// Returns an empty string on success, else the reason.
QString save_widget_png(QWidget &widget, QSize size, const QString &path);

// Exit codes: 0 written, 2 bad input (reported on stderr), 1 cannot write.
int run_headless(MainWindow &window, const AppOptions &options);

} // namespace schedscope::gui
