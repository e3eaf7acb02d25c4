#pragma once
// The drawing interface of the topology view, after lstopo's draw_methods:
// the renderer only ever asks for boxes, lines and text, and each backend
// (QPainter on screen or into a PNG, QSvgGenerator for SVG, a recorder in
// tests) implements these three calls.

#include "topology_layout.h"

#include <cstdint>
#include <string>

namespace schedscope::gui {

struct Rgb {
    std::uint8_t r = 0, g = 0, b = 0;
    friend bool operator==(const Rgb &, const Rgb &) = default;
};

// Highlight is an outline only (the fill is ignored): it is drawn over a box
// whose children are already painted.
enum class Stroke { Solid, Dashed, Highlight };

class Canvas {
public:
    virtual ~Canvas() = default;
    virtual void box(const LayoutRect &rect, Rgb fill, Rgb stroke, Stroke style) = 0;
    virtual void line(double x1, double y1, double x2, double y2, Rgb color) = 0;
    // `top` is the top of the text line, not its baseline: the layout thinks
    // in lines of TextMetrics::line_height.
    virtual void text(double x, double top, const std::string &utf8, Rgb color) = 0;
};

} // namespace schedscope::gui
