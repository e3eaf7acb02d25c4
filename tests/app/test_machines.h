#pragma once
// Topologies built by hand through Topology::add, so layout and model tests
// do not depend on hwloc or the importers.

#include "topology/topology.h"

namespace schedscope::test {

struct MachineShape {
    int packages = 2;
    int cores_per_package = 6;
    int pus_per_core = 2;
    bool numa_per_package = true;
    bool l3_per_package = true;
    std::uint64_t node_memory_bytes = std::uint64_t{16} << 30;
    int odd_node = -1; // this NUMA node has odd_node_memory_bytes instead
    std::uint64_t odd_node_memory_bytes = std::uint64_t{8} << 30;
};

Topology make_machine(const MachineShape &shape);

} // namespace schedscope::test
