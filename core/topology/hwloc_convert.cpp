#include "topology/hwloc_convert.h"

#include "util/input_error.h"

#include <hwloc/distances.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <map>
#include <mutex>
#include <new>
#include <optional>

namespace schedscope {

HwlocHandle::HwlocHandle()
{
    if (hwloc_topology_init(&topo_) != 0)
        throw std::bad_alloc();
}

HwlocHandle::~HwlocHandle()
{
    if (topo_)
        hwloc_topology_destroy(topo_);
}

int load_hwloc(hwloc_topology_t topo, const HwlocEnv &env)
{
    static std::mutex load_mutex;
    const std::lock_guard<std::mutex> lock(load_mutex);
    HwlocEnv saved;
    for (const auto &[name, value] : env) {
        const char *old = std::getenv(name.c_str());
        saved.emplace_back(name, old ? std::optional<std::string>(old) : std::nullopt);
        if (value)
            setenv(name.c_str(), value->c_str(), 1);
        else
            unsetenv(name.c_str());
    }
    const int status = hwloc_topology_load(topo);
    for (auto it = saved.rbegin(); it != saved.rend(); ++it) {
        if (it->second)
            setenv(it->first.c_str(), it->second->c_str(), 1);
        else
            unsetenv(it->first.c_str());
    }
    return status;
}

namespace {

// hwloc marks an unknown OS index with all bits set.
constexpr unsigned kHwlocUnknownIndex = static_cast<unsigned>(-1);
// ACPI SLIT value of a node to itself.
constexpr hwloc_uint64_t kLocalSlit = 10;

std::optional<ObjType> map_cpu_side_type(hwloc_obj_t o, bool is_root)
{
    switch (o->type) {
    case HWLOC_OBJ_MACHINE: return is_root ? ObjType::Machine : ObjType::Group;
    case HWLOC_OBJ_PACKAGE: return ObjType::Package;
    case HWLOC_OBJ_DIE:
    case HWLOC_OBJ_GROUP: return ObjType::Group;
    // L1CACHE..L3CACHE hold data and unified caches; instruction caches
    // are separate hwloc types and fall through to "skipped".
    case HWLOC_OBJ_L1CACHE: return ObjType::L1;
    case HWLOC_OBJ_L2CACHE: return ObjType::L2;
    case HWLOC_OBJ_L3CACHE: return ObjType::L3;
    case HWLOC_OBJ_CORE: return ObjType::Core;
    case HWLOC_OBJ_PU: return ObjType::PU;
    default: return std::nullopt; // L4/L5, instruction caches: children kept
    }
}

class Converter {
public:
    Converter(hwloc_topology_t topo, const std::string &source) : topo_(topo) { out_.set_source(source); }

    Topology run()
    {
        hwloc_obj_t root = hwloc_get_root_obj(topo_);
        walk(root, kNoObj);
        out_.finalize();
        // Before the n x n distance matrix: hwloc's distance grouping and our
        // matrix grow as n^2 to n^3 (10 000 nodes ran for minutes in GBs).
        if (out_.numa_count() > kMaxNumaNodes)
            throw InputError(out_.source(), std::to_string(out_.numa_count()) + " NUMA nodes, more than the " +
                                                std::to_string(kMaxNumaNodes) + " schedscope models");
        read_numa_latencies();
        return std::move(out_);
    }

private:
    void walk(hwloc_obj_t o, ObjId parent)
    {
        ObjId here = parent;
        if (auto t = map_cpu_side_type(o, parent == kNoObj)) {
            TopoObject obj;
            obj.type = *t;
            obj.os_index = o->os_index == kHwlocUnknownIndex ? -1 : static_cast<int>(o->os_index);
            if (o->type == HWLOC_OBJ_DIE)
                obj.subtype = "Die";
            else if (o->subtype)
                obj.subtype = o->subtype;
            if (is_cache(*t) && o->attr) {
                obj.cache_size_bytes = o->attr->cache.size;
                obj.cache_line_bytes = static_cast<int>(o->attr->cache.linesize);
            }
            here = out_.add(std::move(obj), parent);
        } else if (parent == kNoObj) {
            throw InputError(out_.source(), "hwloc topology root is not a Machine");
        }
        for (hwloc_obj_t m = o->memory_first_child; m; m = m->next_sibling)
            walk_memory(m, here);
        for (hwloc_obj_t c = o->first_child; c; c = c->next_sibling)
            walk(c, here);
        // io_first_child and misc_first_child are deliberately not visited.
    }

    // Memory side: NUMA nodes, possibly behind memory-side caches which we skip.
    void walk_memory(hwloc_obj_t m, ObjId parent)
    {
        if (m->type == HWLOC_OBJ_NUMANODE) {
            TopoObject node;
            node.type = ObjType::NUMANode;
            node.os_index = m->os_index == kHwlocUnknownIndex ? -1 : static_cast<int>(m->os_index);
            if (m->attr)
                node.memory_bytes = m->attr->numanode.local_memory;
            node_ids_[m] = out_.add(std::move(node), parent, true);
            return;
        }
        for (hwloc_obj_t c = m->memory_first_child; c; c = c->next_sibling)
            walk_memory(c, parent);
    }

    // A file may carry several NUMA latency matrices (v1 files had one per
    // depth, which hwloc 2 turns into node matrices). Prefer the SLIT-like one:
    // hwloc's "NUMALatency", else one with 10 on the diagonal, else the first.
    int preference(hwloc_distances_s *d) const
    {
        const char *name = hwloc_distances_get_name(topo_, d);
        if (name && std::string(name) == "NUMALatency")
            return 2;
        return d->nbobjs > 0 && d->values[0] == kLocalSlit ? 1 : 0;
    }

    void read_numa_latencies()
    {
        const int n = out_.numa_count();
        if (n < 2)
            return;
        unsigned nr = 0;
        if (hwloc_distances_get_by_type(topo_, HWLOC_OBJ_NUMANODE, &nr, nullptr, HWLOC_DISTANCES_KIND_MEANS_LATENCY,
                                        0) != 0 ||
            nr == 0)
            return; // callers say so if it matters to them
        std::vector<hwloc_distances_s *> all(nr, nullptr);
        if (hwloc_distances_get_by_type(topo_, HWLOC_OBJ_NUMANODE, &nr, all.data(), HWLOC_DISTANCES_KIND_MEANS_LATENCY,
                                        0) != 0)
            return;
        all.resize(std::min<size_t>(nr, all.size()));
        hwloc_distances_s *best = nullptr;
        for (auto *d : all)
            if (d && (!best || preference(d) > preference(best)))
                best = d;
        if (best)
            use_matrix(*best);
        for (auto *d : all)
            if (d)
                hwloc_distances_release(topo_, d);
    }

    void use_matrix(const hwloc_distances_s &dist)
    {
        const int n = out_.numa_count();
        // Start from the default so nodes the matrix does not cover stay sane.
        std::vector<std::vector<int>> m(n, std::vector<int>(n));
        for (int a = 0; a < n; ++a)
            for (int b = 0; b < n; ++b)
                m[a][b] = out_.node_distance(a, b);
        std::vector<int> idx(dist.nbobjs, -1);
        for (unsigned i = 0; i < dist.nbobjs; ++i) {
            auto it = node_ids_.find(dist.objs[i]);
            if (it != node_ids_.end())
                idx[i] = out_.obj(it->second).logical_index;
        }
        // Relative matrices (1, 2, 4...) or nanoseconds are rescaled so the
        // local distance reads 10, as in a SLIT.
        const hwloc_uint64_t local = dist.nbobjs ? dist.values[0] : kLocalSlit;
        bool complete = static_cast<int>(dist.nbobjs) >= n;
        for (unsigned i = 0; i < dist.nbobjs; ++i)
            for (unsigned j = 0; j < dist.nbobjs; ++j) {
                if (idx[i] < 0 || idx[j] < 0) {
                    complete = false;
                    continue;
                }
                hwloc_uint64_t v = dist.values[i * dist.nbobjs + j];
                if (local != kLocalSlit && local != 0)
                    v = (v * kLocalSlit + local / 2) / local;
                m[idx[i]][idx[j]] = static_cast<int>(std::min<hwloc_uint64_t>(v, std::numeric_limits<int>::max()));
            }
        if (local != kLocalSlit)
            out_.add_note("NUMA latency matrix rescaled so that local reads 10");
        if (!complete)
            out_.add_note("NUMA latency matrix covers only some nodes: the rest assumed 10/20");
        out_.set_distances(std::move(m));
        out_.finalize(); // re-checks the matrix shape against the nodes
    }

    hwloc_topology_t topo_;
    Topology out_;
    std::map<hwloc_obj_t, ObjId> node_ids_;
};

} // namespace

Topology convert_hwloc(hwloc_topology_t topo, const std::string &source) { return Converter(topo, source).run(); }

} // namespace schedscope
