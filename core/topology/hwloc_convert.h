#pragma once
// Internal to core/topology: turning a loaded hwloc topology into ours.
// Only the hwloc-based importers include this; nothing outside core needs
// to see hwloc types.

#include "topology/topology.h"

#include <hwloc.h>

#include <string>

namespace schedscope {

// Owns an hwloc_topology_t so every error path destroys it.
class HwlocHandle {
public:
    HwlocHandle();
    ~HwlocHandle();
    HwlocHandle(const HwlocHandle &) = delete;
    HwlocHandle &operator=(const HwlocHandle &) = delete;
    hwloc_topology_t get() const { return topo_; }

private:
    hwloc_topology_t topo_ = nullptr;
};

// Maps Machine, Package, Die/Group (as Group), NUMANode, data/unified L1-L3,
// Core and PU; skips I/O, Misc, instruction caches, L4/L5 and memory-side
// caches (their NUMA children are kept). Reads the NUMA latency matrix if the
// topology has one. Calls finalize(). `source` names the input in errors.
Topology convert_hwloc(hwloc_topology_t topo, const std::string &source);

} // namespace schedscope
