#pragma once
// The machine as hwloc models it: a tree of objects, PUs at the leaves, NUMA
// nodes attached as memory children beside the CPU side. Everything else in
// schedscope (engine, policies, profiler, views) asks its questions here.
//
// Indices: every object lives in Topology::objects() and is referred to by its
// position there (ObjId). PUs are additionally numbered by logical index
// 0..pu_count()-1, which is what CpuSet members and the engine use.

#include "topology/cpuset.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace schedscope {

enum class ObjType { Machine, Package, Group, NUMANode, L3, L2, L1, Core, PU };

const char *obj_type_name(ObjType t); // "Machine", "Package", "Group", "NUMANode", "L3", ...
bool is_cache(ObjType t);
int cache_level(ObjType t); // 1, 2, 3 for caches, 0 otherwise

using ObjId = int;
inline constexpr ObjId kNoObj = -1;

// Most NUMA nodes an imported machine may have: Linux's MAX_NUMNODES at its
// largest (CONFIG_NODES_SHIFT=10). Keeps the n x n distance work bounded.
inline constexpr int kMaxNumaNodes = 1024;
// Largest machine hwloc may be asked to build (from a synthetic string or an
// XML file) and most children of one object: hwloc 2.9 inserts each object
// by comparing cpusets with its siblings, so its loading time grows with
// fan-out squared times PUs (measurements in import_hwloc.cpp). These keep
// any accepted input within the 10 s bound of docs/reliability.md.
inline constexpr int kMaxHwlocPus = 8192;
inline constexpr int kMaxHwlocFanout = 1024;
// SLIT convention (ACPI): 10 is local; without a matrix a remote node is
// assumed to cost twice the local latency, the most common two-level value.
inline constexpr int kSlitLocalDistance = 10;
inline constexpr int kSlitDefaultRemoteDistance = 20;

struct TopoObject {
    ObjType type = ObjType::Machine;
    ObjId id = kNoObj;     // position in Topology::objects()
    int logical_index = 0; // among objects of the same type, in tree order
    int os_index = -1;     // PU: OS CPU number; NUMANode: OS node number; -1 if none
    CpuSet cpuset;         // PUs (logical indices) below or served by this object
    ObjId parent = kNoObj;
    std::vector<ObjId> children;        // CPU-side children, in order
    std::vector<ObjId> memory_children; // NUMA nodes attached here
    std::uint64_t cache_size_bytes = 0; // caches only; 0 = unknown
    int cache_line_bytes = 0;           // caches only; 0 = unknown
    std::uint64_t memory_bytes = 0;     // NUMANode only; 0 = unknown
    std::string subtype;                // e.g. "Die" for a Group made from an hwloc Die
};

// How far apart two PUs are, from closest to farthest. Used for migration
// accounting, the profiler's classes and the views' colours.
enum class DistanceClass { Self, SameCore, SharedL2, SharedL3, SamePackage, SameNode, RemoteNode };
const char *distance_class_name(DistanceClass c); // "self", "smt", "shared-l2", ...

struct PuDistance {
    DistanceClass cls = DistanceClass::Self;
    int numa_distance = 10; // SLIT distance between the PUs' nodes (10 = local)
    friend bool operator==(const PuDistance &, const PuDistance &) = default;
};

// A physical figure of the machine (clock, latency, bandwidth...) named as
// the model constant it sets, with where the value comes from. Samples carry
// them; a scenario's "model" may still override any of them.
struct MachineFigure {
    std::string name; // a ModelParams field, e.g. "mem_latency_local_ns"
    double value = 0;
    std::string source; // datasheet, published measurement
    int line = 0;       // in the file it came from (0 = not from a file)
    friend bool operator==(const MachineFigure &, const MachineFigure &) = default;
};

class Topology {
public:
    // Building (used by the importers). add() returns the new object's id;
    // finalize() numbers logical indices, computes cpusets upwards and checks
    // the tree. Importers call it once, last.
    ObjId add(TopoObject obj, ObjId parent, bool as_memory_child = false);
    void set_distances(std::vector<std::vector<int>> node_distances); // NUMA logical order
    void set_name(std::string name) { name_ = std::move(name); }
    void set_source(std::string source) { source_ = std::move(source); }
    void set_caches_known(bool known) { caches_known_ = known; }
    void add_note(std::string note) { notes_.push_back(std::move(note)); }
    void add_figure(MachineFigure f) { figures_.push_back(std::move(f)); }
    void finalize();

    // Whole-tree facts
    const std::string &name() const { return name_; }
    const std::string &source() const { return source_; }                  // where it came from, for messages
    const std::vector<std::string> &notes() const { return notes_; }       // assumptions, omissions
    const std::vector<MachineFigure> &figures() const { return figures_; } // in file order
    bool caches_known() const { return caches_known_; }
    bool has_distances() const { return !distances_.empty(); }
    const std::vector<TopoObject> &objects() const { return objects_; }
    const TopoObject &obj(ObjId id) const { return objects_.at(id); }
    ObjId root() const { return objects_.empty() ? kNoObj : 0; }
    std::vector<ObjId> objects_of(ObjType t) const; // in logical order
    int count(ObjType t) const;
    std::uint64_t total_memory_bytes() const;

    // PUs and nodes
    int pu_count() const { return static_cast<int>(pus_.size()); }
    ObjId pu(int logical) const { return pus_.at(logical); }
    int pu_os_index(int logical) const { return obj(pu(logical)).os_index; }
    int numa_count() const { return static_cast<int>(numa_.size()); }
    ObjId numa_node(int logical) const { return numa_.at(logical); }
    int node_of_pu(int pu_logical) const; // NUMA logical index; 0 if the machine has none
    const CpuSet &pus_of_node(int numa_logical) const;
    // SLIT distance; when no matrix is known: 10 on the diagonal, 20 elsewhere.
    int node_distance(int a, int b) const
    {
        if (!distances_.empty())
            return distances_.at(a).at(b);
        return a == b ? kSlitLocalDistance : kSlitDefaultRemoteDistance;
    }
    const std::vector<std::vector<int>> &distances() const { return distances_; }

    // Queries
    // The closest ancestor of the PU of the given type (e.g. L2, Core, Package), or kNoObj.
    ObjId ancestor_of_pu(int pu_logical, ObjType type) const;
    // PUs sharing the PU's cache of that level (including itself); empty if it has none.
    CpuSet pus_sharing_cache(int pu_logical, int level) const;
    ObjId lowest_common_ancestor(int pu_a, int pu_b) const;
    // Inline: the engine asks on every runqueue lock and wakeup.
    PuDistance distance(int pu_a, int pu_b) const
    {
        PuDistance d;
        if (pu_a == pu_b)
            return d;
        const int node_a = pu_node_.at(pu_a), node_b = pu_node_.at(pu_b); // checks both PUs exist
        const auto &anc_a = pu_ancestor_[static_cast<size_t>(pu_a)], &anc_b = pu_ancestor_[static_cast<size_t>(pu_b)];
        // Node indices come from finalize(), which checked the matrix size.
        d.numa_distance = numa_count() == 0    ? kSlitLocalDistance
                          : distances_.empty() ? (node_a == node_b ? kSlitLocalDistance : kSlitDefaultRemoteDistance)
                                               : distances_[static_cast<size_t>(node_a)][static_cast<size_t>(node_b)];
        auto shared = [&](ObjType t) {
            const ObjId x = anc_a[static_cast<size_t>(t)];
            return x != kNoObj && x == anc_b[static_cast<size_t>(t)];
        };
        if (shared(ObjType::Core))
            d.cls = DistanceClass::SameCore;
        // Sharing an L1 is at least as close as sharing an L2 for migration cost.
        else if (shared(ObjType::L1) || shared(ObjType::L2))
            d.cls = DistanceClass::SharedL2;
        else if (shared(ObjType::L3))
            d.cls = DistanceClass::SharedL3;
        // Node before package: a package split in several nodes (Magny-Cours,
        // sub-NUMA clustering) pays the remote distance within the package.
        else if (node_a != node_b)
            d.cls = DistanceClass::RemoteNode;
        else if (shared(ObjType::Package))
            d.cls = DistanceClass::SamePackage;
        else
            d.cls = DistanceClass::SameNode;
        return d;
    }
    // Caches above a PU from L1 outwards.
    std::vector<ObjId> caches_of_pu(int pu_logical) const;
    // The last level of cache on the machine (3, 2, 1) or 0 if none is known.
    int last_cache_level() const;

private:
    std::string name_, source_;
    std::vector<std::string> notes_;
    std::vector<MachineFigure> figures_;
    bool caches_known_ = true;
    std::vector<TopoObject> objects_;
    std::vector<ObjId> pus_;
    std::vector<ObjId> numa_;
    std::vector<int> pu_node_;
    std::vector<CpuSet> node_pus_;                                                     // per NUMA node
    std::vector<std::array<ObjId, static_cast<size_t>(ObjType::PU) + 1>> pu_ancestor_; // per PU, by type
    std::vector<std::vector<int>> distances_;
};

} // namespace schedscope
