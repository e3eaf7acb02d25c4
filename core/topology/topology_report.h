#pragma once
// Text and JSON views of a Topology shared by the CLI and the GUI: the
// lstopo-like tree, the distance matrix, a one-line summary and the JSON
// counts object.

#include "topology/topology.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace schedscope {

// "256KB", "12MB", "18GB": lstopo's rule, the next unit once a value reaches
// 10 of it, so 8 GiB prints as 8192MB like lstopo does.
std::string format_bytes(std::uint64_t bytes);
// "L2 L#3 (256KB)", "PU L#5 (P#9)", "NUMANode L#1 (P#1 12GB)".
std::string object_label(const Topology &t, ObjId id, bool with_indices = true);
// Indented tree; single-child chains joined with " + " and runs of identical
// sibling subtrees printed once as "N x ...".
std::string render_tree(const Topology &t);
// SLIT matrix in numactl's layout; big machines get a one-line digest.
std::string render_distances(const Topology &t);
// "2 packages, 2 NUMA nodes, 12 cores, 24 PUs, caches L1 x12 L2 x12 L3 x2, 24GB memory"
std::string summary_line(const Topology &t);
// packages, numa_nodes, cores, pus, caches, memory_bytes, distances, ...
nlohmann::json topology_json(const Topology &t);

} // namespace schedscope
