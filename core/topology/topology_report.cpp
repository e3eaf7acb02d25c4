#include "topology/topology_report.h"

#include <map>
#include <sstream>

namespace schedscope {

namespace {

// Matrices larger than this are summarised: a 512-node table is 262144
// numbers nobody reads on a terminal.
constexpr int kMaxPrintedDistanceNodes = 16;
constexpr int kIndentSpaces = 2;
// Two identical siblings read fine with their indices; from three on a run
// is printed once ("12 x Core ...").
constexpr size_t kMinFactorisedRun = 3;

class TreePrinter {
public:
    explicit TreePrinter(const Topology &t) : t_(t), shape_(t.objects().size()) {}

    std::string run()
    {
        print(t_.root(), 0, true);
        return out_.str();
    }

private:
    // A structural fingerprint without indices, so that identical siblings
    // compare equal.
    const std::string &shape(ObjId id)
    {
        auto &s = shape_[id];
        if (!s.empty())
            return s;
        const auto &o = t_.obj(id);
        s = object_label(t_, id, false) + "{";
        for (ObjId m : o.memory_children)
            s += shape(m) + ";";
        s += "|";
        for (ObjId c : o.children)
            s += shape(c) + ";";
        s += "}";
        return s;
    }

    void print(ObjId id, int depth, bool with_indices, const std::string &prefix = {})
    {
        // Follow a chain of single CPU children without memory: "L2 + L1 + Core".
        std::string line = prefix + object_label(t_, id, with_indices);
        ObjId cur = id;
        while (t_.obj(cur).children.size() == 1 && t_.obj(cur).memory_children.empty()) {
            cur = t_.obj(cur).children.front();
            line += " + " + object_label(t_, cur, with_indices);
        }
        out_ << std::string(static_cast<size_t>(depth * kIndentSpaces), ' ') << line << "\n";
        const auto &o = t_.obj(cur);
        for (ObjId m : o.memory_children)
            print(m, depth + 1, with_indices);
        const auto &kids = o.children;
        for (size_t i = 0; i < kids.size();) {
            size_t j = i + 1;
            while (j < kids.size() && shape(kids[j]) == shape(kids[i]))
                ++j;
            if (j - i >= kMinFactorisedRun)
                print(kids[i], depth + 1, false, std::to_string(j - i) + " x ");
            else
                print(kids[i], depth + 1, with_indices);
            i = j;
        }
    }

    const Topology &t_;
    std::vector<std::string> shape_;
    std::ostringstream out_;
};

std::string plural(int n, const std::string &word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

} // namespace

std::string format_bytes(std::uint64_t bytes)
{
    static const char *units[] = {"B", "KB", "MB", "GB", "TB", "PB"};
    constexpr std::uint64_t kStep = 1024;
    constexpr std::uint64_t kSwitchAt = 10; // lstopo moves up a unit at 10 of it
    int u = 0;
    double v = static_cast<double>(bytes);
    while (u < 5 && v >= kSwitchAt * kStep) {
        v /= kStep;
        ++u;
    }
    return std::to_string(static_cast<std::uint64_t>(v + 0.5)) + units[u];
}

std::string object_label(const Topology &t, ObjId id, bool with_indices)
{
    const auto &o = t.obj(id);
    std::string s = o.type == ObjType::Group && !o.subtype.empty() ? o.subtype : obj_type_name(o.type);
    if (with_indices && o.type != ObjType::Machine)
        s += " L#" + std::to_string(o.logical_index);
    std::string attrs;
    switch (o.type) {
    case ObjType::Machine:
        if (t.total_memory_bytes())
            attrs = format_bytes(t.total_memory_bytes()) + " total";
        break;
    case ObjType::NUMANode:
        if (with_indices && o.os_index >= 0)
            attrs = "P#" + std::to_string(o.os_index);
        if (o.memory_bytes)
            attrs += (attrs.empty() ? "" : " ") + format_bytes(o.memory_bytes);
        break;
    case ObjType::PU:
        if (with_indices && o.os_index >= 0)
            attrs = "P#" + std::to_string(o.os_index);
        break;
    default:
        if (is_cache(o.type) && o.cache_size_bytes)
            attrs = format_bytes(o.cache_size_bytes);
        break;
    }
    return attrs.empty() ? s : s + " (" + attrs + ")";
}

std::string render_tree(const Topology &t) { return TreePrinter(t).run(); }

std::string render_distances(const Topology &t)
{
    const int n = t.numa_count();
    if (n < 2)
        return {};
    std::ostringstream out;
    if (!t.has_distances())
        out << "NUMA distances: none in the source (10 local, 20 remote assumed)\n";
    if (n > kMaxPrintedDistanceNodes) {
        int lo = 0, hi = 0;
        for (int a = 0; a < n; ++a)
            for (int b = 0; b < n; ++b)
                if (a != b) {
                    int d = t.node_distance(a, b);
                    lo = lo ? std::min(lo, d) : d;
                    hi = std::max(hi, d);
                }
        out << "NUMA distances: " << n << " x " << n << " matrix, remote " << lo << ".." << hi
            << " (full matrix with --json)\n";
        return out.str();
    }
    if (t.has_distances())
        out << "NUMA distances (SLIT, 10 = local):\n";
    out << "node";
    for (int b = 0; b < n; ++b)
        out << (b < 10 ? "   " : "  ") << b;
    out << "\n";
    for (int a = 0; a < n; ++a) {
        out << (a < 10 ? "  " : " ") << a << ":";
        for (int b = 0; b < n; ++b) {
            std::string v = std::to_string(t.node_distance(a, b));
            out << std::string(v.size() < 4 ? 4 - v.size() : 1, ' ') << v;
        }
        out << "\n";
    }
    return out.str();
}

std::string summary_line(const Topology &t)
{
    std::ostringstream out;
    out << plural(t.count(ObjType::Package), "package") << ", " << plural(t.numa_count(), "NUMA node") << ", "
        << plural(t.count(ObjType::Core), "core") << ", " << plural(t.pu_count(), "PU");
    if (!t.caches_known()) {
        out << ", caches unknown";
    } else {
        std::string caches;
        for (ObjType c : {ObjType::L1, ObjType::L2, ObjType::L3})
            if (int k = t.count(c))
                caches += std::string(caches.empty() ? "" : " ") + obj_type_name(c) + " x" + std::to_string(k);
        out << ", " << (caches.empty() ? "no caches" : "caches " + caches);
    }
    if (t.total_memory_bytes())
        out << ", " << format_bytes(t.total_memory_bytes()) << " memory";
    return out.str();
}

nlohmann::json topology_json(const Topology &t)
{
    nlohmann::json j;
    j["name"] = t.name();
    j["source"] = t.source();
    j["packages"] = t.count(ObjType::Package);
    j["groups"] = t.count(ObjType::Group);
    j["numa_nodes"] = t.numa_count();
    j["cores"] = t.count(ObjType::Core);
    j["pus"] = t.pu_count();
    j["caches_known"] = t.caches_known();
    nlohmann::json caches = nlohmann::json::object();
    for (ObjType c : {ObjType::L1, ObjType::L2, ObjType::L3})
        if (int k = t.count(c))
            caches[obj_type_name(c)] = k;
    j["caches"] = caches;
    j["memory_bytes"] = t.total_memory_bytes();
    // Always a full matrix so consumers need no special case; distances_known
    // says whether it came from the source or is the 10/20 default.
    nlohmann::json d = nlohmann::json::array();
    for (int a = 0; a < t.numa_count(); ++a) {
        nlohmann::json row = nlohmann::json::array();
        for (int b = 0; b < t.numa_count(); ++b)
            row.push_back(t.node_distance(a, b));
        d.push_back(row);
    }
    j["distances"] = d;
    j["distances_known"] = t.has_distances();
    j["notes"] = t.notes();
    return j;
}

} // namespace schedscope
