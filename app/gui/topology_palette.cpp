#include "topology_palette.h"

namespace schedscope::gui {

Rgb TopologyPalette::fill(ObjType type) const
{
    switch (type) {
    case ObjType::Machine: return machine;
    case ObjType::Package: return package;
    case ObjType::Group: return group;
    case ObjType::NUMANode: return numa_node;
    case ObjType::L3:
    case ObjType::L2:
    case ObjType::L1: return cache;
    case ObjType::Core: return core;
    case ObjType::PU: return pu;
    }
    return machine;
}

} // namespace schedscope::gui
