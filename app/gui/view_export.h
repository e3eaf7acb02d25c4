#pragma once
// "Export view" for widgets that paint themselves (the comparison's panes):
// PNG from a grab at the widget's size, SVG by rendering the widget through
// QSvgGenerator (its QPainter drawing becomes vector shapes and text).
// The topology view has its own layout-based export (topology_export.h).

#include <QString>

class QWidget;

namespace schedscope::gui {

// Empty on success, else the reason.
QString export_widget_png(QWidget &widget, const QString &path);
QString export_widget_svg(QWidget &widget, const QString &path);

} // namespace schedscope::gui
