// Parser for the text printed by `numactl --hardware`. It knows nodes, their
// CPUs, memory sizes and the SLIT table, nothing about packages, SMT or
// caches: each CPU becomes its own Core and the model says caches are unknown.

#include "topology/import.h"
#include "topology/text_parse.h"

#include "util/input_error.h"

#include <algorithm>
#include <map>
#include <set>

namespace schedscope {

namespace {

constexpr std::uint64_t kBytesPerMiB = 1ull << 20; // numactl prints sizes in MB meaning MiB

struct NodeInfo {
    int cpus_line = 0;
    std::vector<int> cpus;
    bool has_size = false;
    std::uint64_t memory_bytes = 0;
};

class NumactlParser {
public:
    NumactlParser(const std::string &text, const std::string &source) : lines_(split_lines(text)), source_(source) {}

    Topology run()
    {
        parse();
        return build();
    }

private:
    [[noreturn]] void fail(int line, const std::string &what) const { throw InputError(source_, line, {}, what); }

    void parse()
    {
        size_t i = 0;
        auto skip_blank = [&] {
            while (i < lines_.size() && trim(lines_[i].text).empty())
                ++i;
        };
        skip_blank();
        if (i == lines_.size())
            fail(0, "empty numactl output");
        parse_available(lines_[i]);
        ++i;
        for (; i < lines_.size(); ++i) {
            const auto &l = lines_[i];
            std::string t = trim(l.text);
            if (t.empty())
                continue;
            if (t == "node distances:") {
                parse_distances(i + 1);
                return;
            }
            parse_node_line(l, t);
        }
    }

    void parse_available(const TextLine &l)
    {
        // "available: 2 nodes (0-1)"
        auto tok = split_ws(l.text);
        if (tok.size() < 4 || tok[0] != "available:" || (tok[2] != "nodes" && tok[2] != "node"))
            fail(l.number, "expected 'available: N nodes (LIST)', the first line of numactl --hardware");
        auto n = parse_int(tok[1]);
        std::string list = trim(l.text.substr(l.text.find('(') == std::string::npos ? 0 : l.text.find('(')));
        if (!n || list.size() < 2 || list.front() != '(' || list.back() != ')')
            fail(l.number, "expected 'available: N nodes (LIST)'");
        auto ids = parse_int_list(list.substr(1, list.size() - 2));
        if (!ids || static_cast<int>(ids->size()) != *n)
            fail(l.number, "node list " + list + " does not name " + tok[1] + " nodes");
        if (ids->empty())
            fail(l.number, "no NUMA node available");
        // Before the table: its parse grows with the square of this.
        if (static_cast<int>(ids->size()) > kMaxNumaNodes)
            fail(l.number,
                 tok[1] + " NUMA nodes, more than the " + std::to_string(kMaxNumaNodes) + " schedscope models");
        for (int id : *ids)
            if (!nodes_.emplace(id, NodeInfo{}).second)
                fail(l.number, "node " + std::to_string(id) + " listed twice");
        available_line_ = l.number;
    }

    NodeInfo &node(int line, const std::string &id_text)
    {
        auto id = parse_int(id_text);
        if (!id)
            fail(line, "'" + id_text + "' is not a node number");
        auto it = nodes_.find(*id);
        if (it == nodes_.end())
            fail(line, "node " + id_text + " is not in the 'available:' list");
        return it->second;
    }

    void parse_node_line(const TextLine &l, const std::string &t)
    {
        auto tok = split_ws(t);
        if (tok.size() < 3 || tok[0] != "node")
            fail(l.number, "unexpected line '" + t + "'");
        NodeInfo &n = node(l.number, tok[1]);
        if (tok[2] == "cpus:") {
            if (n.cpus_line)
                fail(l.number, "second 'cpus' line for node " + tok[1]);
            n.cpus_line = l.number;
            for (size_t k = 3; k < tok.size(); ++k) {
                auto cpu = parse_int(tok[k]);
                if (!cpu)
                    fail(l.number, "'" + tok[k] + "' is not a CPU number");
                if (!cpus_seen_.insert(*cpu).second)
                    fail(l.number, "CPU " + tok[k] + " appears in more than one place");
                n.cpus.push_back(*cpu);
            }
        } else if (tok[2] == "size:" || tok[2] == "free:") {
            if (tok.size() != 5 || tok[4] != "MB")
                fail(l.number, "expected 'node N " + tok[2] + " X MB'");
            auto mb = parse_int(tok[3]);
            if (!mb)
                fail(l.number, "'" + tok[3] + "' is not a size in MB");
            if (tok[2] == "size:") {
                n.has_size = true;
                n.memory_bytes = static_cast<std::uint64_t>(*mb) * kBytesPerMiB;
            }
        } else {
            fail(l.number, "unexpected line '" + t + "'");
        }
    }

    // The table: a header "node   0   1" then one row "  0:  10  20" per node.
    void parse_distances(size_t i)
    {
        const int last_line = lines_.empty() ? 0 : lines_.back().number;
        while (i < lines_.size() && trim(lines_[i].text).empty())
            ++i;
        if (i == lines_.size())
            fail(last_line, "'node distances:' is not followed by a table");
        auto head = split_ws(lines_[i].text);
        if (head.empty() || head[0] != "node")
            fail(lines_[i].number, "expected the distance table header 'node  0  1 ...'");
        std::vector<int> order;
        for (size_t k = 1; k < head.size(); ++k) {
            auto id = parse_int(head[k]);
            if (!id || !nodes_.count(*id))
                fail(lines_[i].number, "distance table header names '" + head[k] + "', not an available node");
            order.push_back(*id);
        }
        for (const auto &[id, info] : nodes_)
            if (std::find(order.begin(), order.end(), id) == order.end())
                fail(lines_[i].number, "node " + std::to_string(id) + " is missing from the distance table header");
        if (order.size() != nodes_.size())
            fail(lines_[i].number, "distance table header repeats a node");
        ++i;
        const size_t n = order.size();
        for (size_t row = 0; row < n; ++row, ++i) {
            const std::string expected = std::to_string(order[row]) + ":";
            if (i >= lines_.size() || trim(lines_[i].text).empty())
                fail(i < lines_.size() ? lines_[i].number : last_line + 1,
                     "distance table row for node " + std::to_string(order[row]) + " is missing");
            auto tok = split_ws(lines_[i].text);
            if (tok[0] != expected)
                fail(lines_[i].number, "expected the distance row '" + expected + "', found '" + tok[0] + "'" +
                                           (tok[0].back() == ':' ? " (a row is missing or out of order)" : ""));
            if (tok.size() != n + 1)
                fail(lines_[i].number, "distance row for node " + std::to_string(order[row]) + " has " +
                                           std::to_string(tok.size() - 1) + " values, expected " + std::to_string(n));
            std::vector<int> values;
            for (size_t k = 1; k < tok.size(); ++k) {
                auto v = parse_int(tok[k]);
                if (!v || *v == 0)
                    fail(lines_[i].number, "distance '" + tok[k] + "' is not a positive integer");
                values.push_back(*v);
            }
            distances_by_id_[order[row]] = {};
            for (size_t k = 0; k < n; ++k)
                distances_by_id_[order[row]][order[k]] = values[k];
        }
        for (; i < lines_.size(); ++i)
            if (!trim(lines_[i].text).empty())
                fail(lines_[i].number, "unexpected line after the distance table: '" + trim(lines_[i].text) + "'");
    }

    Topology build()
    {
        for (const auto &[id, info] : nodes_) {
            if (!info.cpus_line)
                fail(available_line_, "node " + std::to_string(id) + " has no 'cpus' line");
            if (!info.has_size)
                fail(info.cpus_line, "node " + std::to_string(id) + " has no 'size' line");
        }
        if (cpus_seen_.empty())
            fail(available_line_, "no node has any CPU");

        Topology t;
        t.set_source(source_);
        t.set_name(source_);
        t.set_caches_known(false);
        t.add_note("from numactl --hardware: caches are unknown and not modelled");
        t.add_note("from numactl --hardware: packages and SMT siblings are unknown; each CPU is its own core");
        ObjId machine = t.add(TopoObject{}, kNoObj);
        std::map<int, ObjId> node_obj;
        auto make_node = [&](int id, const NodeInfo &info, ObjId parent) {
            TopoObject n;
            n.type = ObjType::NUMANode;
            n.os_index = id;
            n.memory_bytes = info.memory_bytes;
            node_obj[id] = t.add(std::move(n), parent, true);
        };
        // One Group per node, in numactl's order, so that our NUMA logical
        // order is numactl's node order; a memory-only node gets an empty
        // Group, which says "no local CPU" rather than inventing one.
        const bool one_node = nodes_.size() == 1;
        for (const auto &[id, info] : nodes_) {
            ObjId parent = machine;
            if (!one_node) {
                TopoObject g;
                g.type = ObjType::Group;
                g.os_index = id;
                g.subtype = "Node";
                parent = t.add(std::move(g), machine);
            }
            make_node(id, info, parent);
            auto cpus = info.cpus;
            std::sort(cpus.begin(), cpus.end());
            for (int cpu : cpus) {
                TopoObject core;
                core.type = ObjType::Core;
                core.os_index = cpu;
                ObjId c = t.add(std::move(core), parent);
                TopoObject pu;
                pu.type = ObjType::PU;
                pu.os_index = cpu;
                t.add(std::move(pu), c);
            }
        }
        t.finalize();
        if (!distances_by_id_.empty()) {
            // Mapped through OS ids so the table cannot drift from the nodes.
            const int n = t.numa_count();
            std::vector<std::vector<int>> m(n, std::vector<int>(n));
            for (int a = 0; a < n; ++a)
                for (int b = 0; b < n; ++b)
                    m[a][b] = distances_by_id_.at(t.obj(t.numa_node(a)).os_index).at(t.obj(t.numa_node(b)).os_index);
            t.set_distances(std::move(m));
            t.finalize();
        } else if (nodes_.size() > 1) {
            t.add_note("no distance table: remote distance assumed 20");
        }
        return t;
    }

    std::vector<TextLine> lines_;
    std::string source_;
    std::map<int, NodeInfo> nodes_;
    std::set<int> cpus_seen_;
    std::map<int, std::map<int, int>> distances_by_id_;
    int available_line_ = 0;
};

} // namespace

Topology import_numactl(const std::string &text, const std::string &source)
{
    return NumactlParser(text, source).run();
}

} // namespace schedscope
