#include "topology/hwloc_xml_export.h"

#include <hwloc.h>

#include <cstdlib>
#include <memory>
#include <new>
#include <set>
#include <sstream>
#include <vector>

namespace schedscope {

namespace {

// hwloc's distances kind bits (hwloc/distances.h): FROM_OS | MEANS_LATENCY,
// what the Linux backend gives the SLIT it reads.
constexpr int kSlitDistancesKind = 1 | 4;
// hwloc writes long value lists in chunks of this many numbers per element.
constexpr std::size_t kValuesPerElement = 10;

std::string escape(const std::string &text)
{
    std::string out;
    for (char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&apos;"; break;
        default: out += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
        }
    }
    return out;
}

// Indices as hwloc should see them: the OS indices when they are all known
// and distinct, else the logical ones.
std::vector<int> exported_indices(const Topology &t, const std::vector<ObjId> &objs)
{
    std::vector<int> os;
    std::set<int> seen;
    for (ObjId id : objs) {
        const int i = t.obj(id).os_index;
        if (i < 0 || !seen.insert(i).second) {
            os.clear();
            for (int n = 0; n < static_cast<int>(objs.size()); ++n)
                os.push_back(n);
            return os;
        }
        os.push_back(i);
    }
    return os;
}

class XmlWriter {
public:
    explicit XmlWriter(const Topology &t)
        : t_(t), pu_index_(exported_indices(t, t.objects_of(ObjType::PU))),
          node_index_(exported_indices(t, t.objects_of(ObjType::NUMANode)))
    {
    }

    std::string run()
    {
        out_ << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
             << "<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">\n"
             << "<topology version=\"2.0\">\n";
        if (t_.root() != kNoObj)
            object(t_.root(), 1);
        distances();
        out_ << "</topology>\n";
        return out_.str();
    }

private:
    static std::string bitmap(const std::vector<int> &members)
    {
        std::unique_ptr<hwloc_bitmap_s, void (*)(hwloc_bitmap_t)> b(hwloc_bitmap_alloc(), hwloc_bitmap_free);
        if (!b)
            throw std::bad_alloc();
        for (int m : members)
            hwloc_bitmap_set(b.get(), static_cast<unsigned>(m));
        char *text = nullptr;
        if (hwloc_bitmap_asprintf(&text, b.get()) < 0 || !text)
            throw std::bad_alloc();
        std::string s(text);
        std::free(text);
        return s;
    }

    std::string cpuset(const CpuSet &pus) const
    {
        std::vector<int> m;
        for (int p = pus.first(); p >= 0; p = pus.next(p))
            m.push_back(pu_index_.at(static_cast<std::size_t>(p)));
        return bitmap(m);
    }

    // hwloc's nodeset of an object: the nodes whose PUs it shares, and any
    // node attached at or below it (a node without PUs has an empty cpuset).
    std::string nodeset(const TopoObject &o) const
    {
        std::vector<int> m;
        if (t_.numa_count() == 0)
            return bitmap({0});
        for (int n = 0; n < t_.numa_count(); ++n) {
            const TopoObject &node = t_.obj(t_.numa_node(n));
            bool in = o.id == node.id || o.id == t_.root() || t_.pus_of_node(n).intersects(o.cpuset);
            for (ObjId a = node.parent; !in && a != kNoObj; a = t_.obj(a).parent)
                in = a == o.id;
            if (in)
                m.push_back(node_index_.at(static_cast<std::size_t>(n)));
        }
        return bitmap(m);
    }

    static const char *type_name(const TopoObject &o)
    {
        switch (o.type) {
        case ObjType::Machine: return "Machine";
        case ObjType::Package: return "Package";
        case ObjType::Group: return o.subtype == "Die" ? "Die" : "Group";
        case ObjType::NUMANode: return "NUMANode";
        case ObjType::L3: return "L3Cache";
        case ObjType::L2: return "L2Cache";
        case ObjType::L1: return "L1Cache";
        case ObjType::Core: return "Core";
        case ObjType::PU: return "PU";
        }
        return "Group";
    }

    void object(ObjId id, int depth)
    {
        const TopoObject &o = t_.obj(id);
        const std::string indent(static_cast<std::size_t>(depth) * 2, ' ');
        const std::string cpus = cpuset(o.cpuset), nodes = nodeset(o);
        out_ << indent << "<object type=\"" << type_name(o) << "\"";
        if (!o.subtype.empty() && o.subtype != "Die")
            out_ << " subtype=\"" << escape(o.subtype) << "\"";
        if (o.type == ObjType::Machine)
            out_ << " os_index=\"0\"";
        else if (o.type == ObjType::PU)
            out_ << " os_index=\"" << pu_index_.at(static_cast<std::size_t>(o.logical_index)) << "\"";
        else if (o.type == ObjType::NUMANode)
            out_ << " os_index=\"" << node_index_.at(static_cast<std::size_t>(o.logical_index)) << "\"";
        else if (o.os_index >= 0 && (o.type == ObjType::Package || o.type == ObjType::Core))
            out_ << " os_index=\"" << o.os_index << "\"";
        out_ << " cpuset=\"" << cpus << "\" complete_cpuset=\"" << cpus << "\"";
        if (o.type == ObjType::Machine)
            out_ << " allowed_cpuset=\"" << cpus << "\"";
        out_ << " nodeset=\"" << nodes << "\" complete_nodeset=\"" << nodes << "\"";
        if (o.type == ObjType::Machine)
            out_ << " allowed_nodeset=\"" << nodes << "\"";
        if (o.type == ObjType::NUMANode && o.memory_bytes > 0)
            out_ << " local_memory=\"" << o.memory_bytes << "\"";
        if (is_cache(o.type))
            out_ << " cache_size=\"" << o.cache_size_bytes << "\" depth=\"" << cache_level(o.type)
                 << "\" cache_linesize=\"" << o.cache_line_bytes << "\" cache_associativity=\"0\" cache_type=\"0\"";
        const bool no_numa_at_root = o.type == ObjType::Machine && t_.numa_count() == 0;
        if (o.children.empty() && o.memory_children.empty() && !no_numa_at_root) {
            out_ << "/>\n";
            return;
        }
        out_ << ">\n";
        if (no_numa_at_root)
            out_ << indent << "  <object type=\"NUMANode\" os_index=\"0\" cpuset=\"" << cpus << "\" complete_cpuset=\""
                 << cpus << "\" nodeset=\"0x00000001\" complete_nodeset=\"0x00000001\"/>\n";
        for (ObjId m : o.memory_children)
            object(m, depth + 1);
        for (ObjId c : o.children)
            object(c, depth + 1);
        out_ << indent << "</object>\n";
    }

    // One element of a space-separated list; hwloc reads it by its length.
    void list(const char *element, const std::vector<long long> &values, std::size_t from, std::size_t to)
    {
        std::string text;
        for (std::size_t i = from; i < to; ++i)
            text += std::to_string(values[i]) + " ";
        out_ << "    <" << element << " length=\"" << text.size() << "\">" << text << "</" << element << ">\n";
    }

    void distances()
    {
        const int n = t_.numa_count();
        if (n < 2 || !t_.has_distances())
            return;
        out_ << "  <distances2 type=\"NUMANode\" nbobjs=\"" << n << "\" kind=\"" << kSlitDistancesKind
             << "\" name=\"NUMALatency\" indexing=\"os\">\n";
        std::vector<long long> indexes(node_index_.begin(), node_index_.end());
        list("indexes", indexes, 0, indexes.size());
        std::vector<long long> values;
        for (int a = 0; a < n; ++a)
            for (int b = 0; b < n; ++b)
                values.push_back(t_.node_distance(a, b));
        for (std::size_t i = 0; i < values.size(); i += kValuesPerElement)
            list("u64values", values, i, std::min(values.size(), i + kValuesPerElement));
        out_ << "  </distances2>\n";
    }

    const Topology &t_;
    std::vector<int> pu_index_, node_index_;
    std::ostringstream out_;
};

} // namespace

std::string topology_to_hwloc_xml(const Topology &t) { return XmlWriter(t).run(); }

} // namespace schedscope
