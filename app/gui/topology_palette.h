#pragma once
// lstopo's colours (hwloc 2.x, utils/lstopo/lstopo-draw.c, checked against
// `lstopo-no-graphics --of svg`): a user who knows lstopo reads our view at
// a glance.

#include "canvas.h"

namespace schedscope::gui {

struct TopologyPalette {
    Rgb background{255, 255, 255};
    Rgb machine{255, 255, 255};
    Rgb package{210, 231, 164};
    Rgb group{255, 255, 255};
    Rgb numa_node{239, 223, 222};
    Rgb cache{255, 255, 255};
    Rgb core{190, 190, 190};
    Rgb pu{255, 255, 255};
    Rgb stroke{0, 0, 0};
    Rgb text{0, 0, 0};
    Rgb fold_text{60, 60, 60};
    Rgb highlight{30, 110, 220};

    Rgb fill(ObjType type) const;
};

} // namespace schedscope::gui
