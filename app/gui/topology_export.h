#pragma once
// Whole-layout exports, independent of what the window currently shows:
// the full machine at a fixed scale, through the same renderer as the screen.

#include "topology_renderer.h"

#include <QString>

class QImage;

namespace schedscope::gui {

// Margin around the machine box in exports and on screen, in layout units.
inline constexpr double kViewMargin = 10.0;

QImage render_topology_image(const TopologyLayout &layout, double scale, const RenderOptions &options = {});
// Returns an empty string on success, else a message naming the path.
QString export_topology_png(const TopologyLayout &layout, const QString &path, double scale = 2.0);
QString export_topology_svg(const TopologyLayout &layout, const QString &path);

} // namespace schedscope::gui
