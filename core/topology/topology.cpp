#include "topology/topology.h"

#include "util/input_error.h"

#include <algorithm>
#include <functional>

namespace schedscope {

const char *obj_type_name(ObjType t)
{
    switch (t) {
    case ObjType::Machine: return "Machine";
    case ObjType::Package: return "Package";
    case ObjType::Group: return "Group";
    case ObjType::NUMANode: return "NUMANode";
    case ObjType::L3: return "L3";
    case ObjType::L2: return "L2";
    case ObjType::L1: return "L1";
    case ObjType::Core: return "Core";
    case ObjType::PU: return "PU";
    }
    return "?";
}

bool is_cache(ObjType t) { return t == ObjType::L1 || t == ObjType::L2 || t == ObjType::L3; }

int cache_level(ObjType t)
{
    switch (t) {
    case ObjType::L1: return 1;
    case ObjType::L2: return 2;
    case ObjType::L3: return 3;
    default: return 0;
    }
}

const char *distance_class_name(DistanceClass c)
{
    switch (c) {
    case DistanceClass::Self: return "self";
    case DistanceClass::SameCore: return "smt";
    case DistanceClass::SharedL2: return "shared-l2";
    case DistanceClass::SharedL3: return "shared-l3";
    case DistanceClass::SamePackage: return "same-package";
    case DistanceClass::SameNode: return "same-node";
    case DistanceClass::RemoteNode: return "remote-node";
    }
    return "?";
}

ObjId Topology::add(TopoObject obj, ObjId parent, bool as_memory_child)
{
    ObjId id = static_cast<ObjId>(objects_.size());
    obj.id = id;
    obj.parent = parent;
    obj.children.clear();
    obj.memory_children.clear();
    if (parent == kNoObj && !objects_.empty())
        throw InputError(source_, "topology has more than one root object");
    if (parent != kNoObj && (parent < 0 || parent >= id))
        throw InputError(source_, "object attached to an unknown parent");
    objects_.push_back(std::move(obj));
    if (parent != kNoObj) {
        auto &p = objects_[parent];
        (as_memory_child ? p.memory_children : p.children).push_back(id);
    }
    return id;
}

void Topology::set_distances(std::vector<std::vector<int>> node_distances) { distances_ = std::move(node_distances); }

void Topology::finalize()
{
    if (objects_.empty())
        throw InputError(source_, "topology is empty");
    if (objects_[0].type != ObjType::Machine)
        throw InputError(source_, "topology root is not a Machine");

    pus_.clear();
    numa_.clear();
    pu_node_.clear();

    // Logical indices per type in tree order; a node's memory children come
    // before its CPU children so NUMA nodes are numbered like hwloc numbers them
    // (by position of their attachment point).
    int next_logical[static_cast<int>(ObjType::PU) + 1] = {};
    std::function<void(ObjId)> number = [&](ObjId id) {
        auto &o = objects_[id];
        o.logical_index = next_logical[static_cast<int>(o.type)]++;
        if (o.type == ObjType::PU) {
            pus_.push_back(id);
            if (!o.children.empty())
                throw InputError(source_, "a PU has children");
        }
        if (o.type == ObjType::NUMANode)
            numa_.push_back(id);
        for (ObjId m : o.memory_children) {
            if (objects_[m].type != ObjType::NUMANode)
                throw InputError(source_, "only NUMA nodes may be memory children");
            number(m);
        }
        for (ObjId c : o.children) {
            if (objects_[c].type == ObjType::NUMANode)
                throw InputError(source_, "a NUMA node must be attached as a memory child");
            number(c);
        }
    };
    number(root());
    if (pus_.empty())
        throw InputError(source_, "topology has no PU");

    // Cpusets bottom-up: objects were added parent-first, so a reverse sweep
    // over ids sees every child before its parent.
    for (auto &o : objects_)
        o.cpuset = CpuSet(pu_count());
    for (auto it = objects_.rbegin(); it != objects_.rend(); ++it) {
        auto &o = *it;
        if (o.type == ObjType::PU)
            o.cpuset.set(o.logical_index);
        if (o.type != ObjType::NUMANode && o.parent != kNoObj)
            objects_[o.parent].cpuset |= o.cpuset;
    }
    // A NUMA node serves the PUs of the object it hangs from.
    for (ObjId n : numa_)
        objects_[n].cpuset = objects_[objects_[n].parent].cpuset;

    // Each PU's node: the first NUMA node attached on its way to the root.
    pu_node_.assign(pus_.size(), 0);
    for (int p = 0; p < pu_count(); ++p) {
        for (ObjId a = pus_[p]; a != kNoObj; a = objects_[a].parent) {
            const auto &mc = objects_[a].memory_children;
            if (!mc.empty()) {
                pu_node_[p] = objects_[mc.front()].logical_index;
                break;
            }
        }
    }
    // The engine asks for ancestors and distances on every wakeup and
    // balancing pass: each PU's closest ancestor of every type, computed once.
    pu_ancestor_.assign(pus_.size(), {});
    for (int p = 0; p < pu_count(); ++p) {
        pu_ancestor_[p].fill(kNoObj);
        for (ObjId a = pus_[p]; a != kNoObj; a = objects_[a].parent) {
            auto &slot = pu_ancestor_[p][static_cast<size_t>(objects_[a].type)];
            if (slot == kNoObj)
                slot = a;
        }
    }
    // Asked for on every balancing pass: computed once.
    node_pus_.assign(static_cast<size_t>(std::max(1, numa_count())), CpuSet(pu_count()));
    if (numa_count() > 0)
        for (int p = 0; p < pu_count(); ++p)
            node_pus_[pu_node_[p]].set(p);

    if (!distances_.empty()) {
        const auto n = static_cast<size_t>(numa_count());
        if (distances_.size() != n)
            throw InputError(source_, "distance matrix has " + std::to_string(distances_.size()) + " rows for " +
                                          std::to_string(n) + " NUMA nodes");
        for (const auto &row : distances_)
            if (row.size() != n)
                throw InputError(source_, "distance matrix row has " + std::to_string(row.size()) + " columns for " +
                                              std::to_string(n) + " NUMA nodes");
    }
}

std::vector<ObjId> Topology::objects_of(ObjType t) const
{
    std::vector<ObjId> out;
    for (const auto &o : objects_)
        if (o.type == t)
            out.push_back(o.id);
    std::sort(out.begin(), out.end(),
              [this](ObjId a, ObjId b) { return objects_[a].logical_index < objects_[b].logical_index; });
    return out;
}

int Topology::count(ObjType t) const
{
    return static_cast<int>(
        std::count_if(objects_.begin(), objects_.end(), [t](const TopoObject &o) { return o.type == t; }));
}

std::uint64_t Topology::total_memory_bytes() const
{
    std::uint64_t total = 0;
    for (ObjId n : numa_)
        total += objects_[n].memory_bytes;
    return total;
}

int Topology::node_of_pu(int pu_logical) const { return pu_node_.at(pu_logical); }

const CpuSet &Topology::pus_of_node(int numa_logical) const { return node_pus_.at(numa_logical); }

ObjId Topology::ancestor_of_pu(int pu_logical, ObjType type) const
{
    if (type == ObjType::NUMANode)
        return numa_count() > 0 ? numa_.at(node_of_pu(pu_logical)) : kNoObj;
    return pu_ancestor_.at(pu_logical)[static_cast<size_t>(type)];
}

CpuSet Topology::pus_sharing_cache(int pu_logical, int level) const
{
    for (ObjId a = pu(pu_logical); a != kNoObj; a = objects_[a].parent)
        if (cache_level(objects_[a].type) == level)
            return objects_[a].cpuset;
    return CpuSet(pu_count());
}

ObjId Topology::lowest_common_ancestor(int pu_a, int pu_b) const
{
    const CpuSet &target = obj(pu(pu_b)).cpuset;
    for (ObjId a = pu(pu_a); a != kNoObj; a = objects_[a].parent)
        if (objects_[a].cpuset.contains(target))
            return a;
    return root();
}

std::vector<ObjId> Topology::caches_of_pu(int pu_logical) const
{
    std::vector<ObjId> out;
    for (ObjId a = pu(pu_logical); a != kNoObj; a = objects_[a].parent)
        if (is_cache(objects_[a].type))
            out.push_back(a);
    return out;
}

int Topology::last_cache_level() const
{
    int level = 0;
    for (const auto &o : objects_)
        level = std::max(level, cache_level(o.type));
    return level;
}

} // namespace schedscope
