#pragma once
// Paints a PaneScene over the topology drawing with a QPainter already set
// to layout coordinates. Kept apart from the widget so the headless
// screenshot, the widget and a future SVG export share it.

#include "pane_scene.h"
#include "sim_palette.h"

#include <QColor>
#include <QPointF>

#include <unordered_map>

class QPainter;

namespace schedscope::gui {

inline QColor to_qcolor(Rgb c, int alpha = 255) { return QColor(c.r, c.g, c.b, alpha); }

// A token on its way from one PU to another: where it is drawn instead of
// its slot, and how far along the trail is (0 just left, 1 arrived).
struct MovingToken {
    QPointF from_centre;
    double progress = 1.0;
    DistanceClass cls = DistanceClass::Self;
};

struct PanePaintOptions {
    SimPalette palette;
    double scale = 1.0; // device pixels per layout unit: level of detail
    const std::unordered_map<TaskId, MovingToken> *moving = nullptr;
};

void paint_pane_scene(QPainter &painter, const PaneGeometry &geometry, const PaneScene &scene,
                      const PanePaintOptions &options);

} // namespace schedscope::gui
