#include "object_text.h"

namespace schedscope::gui {

std::string format_bytes(std::uint64_t bytes)
{
    static const char *const units[] = {"B", "KB", "MB", "GB", "TB", "PB"};
    // Dividing only while the value stays >= 10 units keeps "4096KB" exact
    // instead of a rounded "4MB", which is what lstopo prints too.
    constexpr std::uint64_t keep_below = 10 * 1024;
    int unit = 0;
    while (bytes >= keep_below && unit < 5) {
        bytes = (bytes + 512) / 1024;
        ++unit;
    }
    return std::to_string(bytes) + units[unit];
}

std::string object_name(const Topology &topo, ObjId id)
{
    const TopoObject &o = topo.obj(id);
    const std::string logical = " L#" + std::to_string(o.logical_index);
    switch (o.type) {
    case ObjType::Machine: return "Machine";
    case ObjType::Package: return "Package" + logical;
    case ObjType::Group: return (o.subtype.empty() ? std::string("Group") : o.subtype) + logical;
    case ObjType::NUMANode: return "NUMANode" + logical + (o.os_index >= 0 ? " P#" + std::to_string(o.os_index) : "");
    case ObjType::L3:
    case ObjType::L2:
    case ObjType::L1: return obj_type_name(o.type);
    case ObjType::Core: return "Core" + logical;
    case ObjType::PU:
        // The OS number is what taskset and /proc/cpuinfo call the CPU.
        return o.os_index >= 0 ? "PU P#" + std::to_string(o.os_index) : "PU" + logical;
    }
    return obj_type_name(o.type);
}

std::string object_size_text(const Topology &topo, ObjId id)
{
    const TopoObject &o = topo.obj(id);
    if (is_cache(o.type))
        return o.cache_size_bytes ? format_bytes(o.cache_size_bytes) : std::string();
    if (o.type == ObjType::NUMANode)
        return o.memory_bytes ? format_bytes(o.memory_bytes) : std::string();
    if (o.type == ObjType::Machine) {
        auto total = topo.total_memory_bytes();
        return total ? format_bytes(total) + " total" : std::string();
    }
    return {};
}

std::vector<std::string> object_label(const Topology &topo, ObjId id)
{
    std::string line = object_name(topo, id);
    std::string size = object_size_text(topo, id);
    if (!size.empty())
        line += " (" + size + ")";
    return {line};
}

std::string object_tooltip(const Topology &topo, ObjId id)
{
    const TopoObject &o = topo.obj(id);
    std::string s = object_name(topo, id);
    s += "\ntype: " + std::string(obj_type_name(o.type));
    s += "\nlogical index: " + std::to_string(o.logical_index);
    if (o.os_index >= 0)
        s += "\nOS index: " + std::to_string(o.os_index);
    if (is_cache(o.type)) {
        s += "\nsize: " + (o.cache_size_bytes ? format_bytes(o.cache_size_bytes) : std::string("unknown"));
        if (o.cache_line_bytes)
            s += "\nline: " + std::to_string(o.cache_line_bytes) + " B";
    }
    if (o.type == ObjType::NUMANode)
        s += "\nmemory: " + (o.memory_bytes ? format_bytes(o.memory_bytes) : std::string("unknown"));
    if (o.type == ObjType::Machine && topo.total_memory_bytes())
        s += "\nmemory: " + format_bytes(topo.total_memory_bytes()) + " total";
    if (!o.subtype.empty())
        s += "\nsubtype: " + o.subtype;
    const int n = o.cpuset.count();
    if (n > 0) {
        s += "\nPUs (logical): " + o.cpuset.to_list_string() + " (" + std::to_string(n) + ")";
        if (o.type != ObjType::PU) {
            // OS numbers are what numactl and taskset take; list them when
            // they differ from the logical numbering.
            CpuSet os;
            for (int pu : o.cpuset.members())
                if (topo.pu_os_index(pu) >= 0)
                    os.set(topo.pu_os_index(pu));
            if (!(os == o.cpuset) && !os.empty())
                s += "\nPUs (OS): " + os.to_list_string();
        }
    }
    return s;
}

std::string machine_summary(const Topology &topo)
{
    const auto count = [](int n, const char *one, const char *many) {
        return std::to_string(n) + " " + (n == 1 ? one : many);
    };
    return count(topo.count(ObjType::Package), "package", "packages") + ", " +
           count(topo.numa_count(), "NUMA node", "NUMA nodes") + ", " +
           count(topo.count(ObjType::Core), "core", "cores") + ", " + count(topo.pu_count(), "PU", "PUs");
}

} // namespace schedscope::gui
