#pragma once
// Internal to core/topology: turning a loaded hwloc topology into ours.
// Only the hwloc-based importers include this; nothing outside core needs
// to see hwloc types.

#include "topology/topology.h"

#include <hwloc.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

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

// Environment variables one hwloc load should see: name and value, or
// nullopt to hide a variable the user has set.
using HwlocEnv = std::vector<std::pair<std::string, std::optional<std::string>>>;

// hwloc_topology_load() for every importer. hwloc 2.9 takes some settings
// only from the environment (HWLOC_FSROOT, HWLOC_COMPONENTS, read during the
// load); the snapshot importer sets them for its one load and they are put
// back as they were afterwards. Loads are serialised so that no other load
// (detect, XML, synthetic) runs while they are set.
int load_hwloc(hwloc_topology_t topo, const HwlocEnv &env = {});

// Maps Machine, Package, Die/Group (as Group), NUMANode, data/unified L1-L3,
// Core and PU; skips I/O, Misc, instruction caches, L4/L5 and memory-side
// caches (their NUMA children are kept). Reads the NUMA latency matrix if the
// topology has one. Calls finalize(). `source` names the input in errors.
Topology convert_hwloc(hwloc_topology_t topo, const std::string &source);

} // namespace schedscope
