#pragma once
// Paints the compact cells of a big machine (compact_scene.h) in pane
// pixels: the static part (cell boxes, node labels) goes into the pane's
// cached layer, the rest is painted per frame.

#include "compact_scene.h"

#include <QString>

class QFont;
class QPainter;

namespace schedscope::gui {

// "N#5" for a node's cell, "×N more" for a fold.
QString compact_cell_label(const CompactCell &cell);
void paint_compact_static(QPainter &painter, const CompactGeometry &geometry, const QFont &font);
void paint_compact_scene(QPainter &painter, const CompactGeometry &geometry, const CompactScene &scene);

} // namespace schedscope::gui
