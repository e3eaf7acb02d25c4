#pragma once
// Writing a topology as hwloc v2 XML, whatever it was read from (detect, a
// snapshot, numactl text, a sample), so that `lstopo -i FILE.xml` and
// schedscope itself read the same machine back: the tree of packages, groups,
// caches, cores and PUs, the NUMA nodes with their memory and the SLIT.
//
// Written from schedscope's model, not by hwloc's exporter: only what the
// model holds goes out, so no host name, DMI serial or OS release of the
// machine it was detected on ends up in a shared file.

#include "topology/topology.h"

#include <string>

namespace schedscope {

// PUs and NUMA nodes keep their OS indices when every one has a distinct
// index (otherwise their logical indices are used). A machine without NUMA
// nodes gets one covering all PUs: hwloc 2 requires at least one.
std::string topology_to_hwloc_xml(const Topology &t);

} // namespace schedscope
