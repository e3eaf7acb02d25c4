#pragma once
// Draws a TopologyLayout onto any Canvas. Plain C++: the same code paints the
// screen, PNG and SVG exports, and a recording canvas in tests.

#include "canvas.h"
#include "topology_layout.h"
#include "topology_palette.h"

#include <optional>

namespace schedscope::gui {

struct RenderOptions {
    TopologyPalette palette;
    // Device pixels per layout unit; decides what is too small to draw.
    double scale = 1.0;
    // Only boxes intersecting this rectangle (layout units) are drawn.
    std::optional<LayoutRect> visible;
    // Below this height in device pixels text is an unreadable smear; the
    // boxes alone still show the structure (level of detail for big machines).
    double min_text_px = 6.0;
    // Below this size in device pixels a box is drawn by its parent's fill only.
    double min_box_px = 1.5;
    ObjId highlighted = kNoObj;
};

void render_topology(const TopologyLayout &layout, Canvas &canvas, const RenderOptions &options = {});

} // namespace schedscope::gui
