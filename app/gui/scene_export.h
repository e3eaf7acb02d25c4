#pragma once
// The scene as a vector picture: what `--screenshot FILE.svg` and File >
// Export view as SVG write. With the Comparison tab in front that is the
// panes with their legend and every chart the Charts dock shows, each where
// it sits in the window; with the Topology tab, the machine's layout. Both
// are painted through QSvgGenerator as shapes and text: no raster inside,
// and no buttons or menus around them.

#include <QString>

#include <vector>

class QWidget;

namespace schedscope::gui {

class MainWindow;

// Empty on success, else a message naming the path.
QString export_scene_svg(MainWindow &window, const QString &path);

// Paints each of `parts` (widgets inside `root`) at its place in `root` into
// one SVG the size of `root`. Hidden parts are left out.
QString export_widgets_svg(QWidget &root, const std::vector<QWidget *> &parts, const QString &path);

} // namespace schedscope::gui
