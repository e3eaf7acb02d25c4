#pragma once
// The words the views show for a topology object: box labels, tree columns,
// tooltips. One place so that the lstopo-like view, the tree and the tooltips
// never disagree on how a cache or a node is named.

#include "topology/topology.h"

#include <cstdint>
#include <string>
#include <vector>

namespace schedscope::gui {

// lstopo's size style: the largest unit that keeps the number >= 10 of it
// ("32KB", "4096KB", "16MB", "64GB"), so cache sizes stay exact integers.
std::string format_bytes(std::uint64_t bytes);

// "Package L#0", "NUMANode L#1 P#1", "PU P#3", "L2", "Machine".
std::string object_name(const Topology &topo, ObjId id);

// Sizes worth printing next to the name: "16MB" for a cache, "32GB" for a
// node, "64GB total" for the machine; empty when unknown.
std::string object_size_text(const Topology &topo, ObjId id);

// The lines drawn inside the object's box, lstopo style.
std::vector<std::string> object_label(const Topology &topo, ObjId id);

// "1 package, 2 NUMA nodes, 8 cores, 16 PUs": the status bar's summary,
// each count with its noun in the right number.
std::string machine_summary(const Topology &topo);

// Multi-line description for tooltips: name, indices, sizes, PUs.
std::string object_tooltip(const Topology &topo, ObjId id);

} // namespace schedscope::gui
