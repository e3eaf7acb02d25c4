// schedscope's sample format (samples/topologies/*.topo, documented in
// samples/topologies/README.md): an hwloc synthetic string for the tree,
// plus what synthetic strings cannot say (per-node memory, a SLIT matrix)
// and a header separating reported figures from assumptions.

#include "topology/import.h"
#include "topology/text_parse.h"

#include "util/input_error.h"

#include <cmath>
#include <cstdlib>
#include <optional>

namespace schedscope {

namespace {

constexpr const char *kSampleMagic = "# schedscope-topology v1";
constexpr const char *kSampleMagicPrefix = "# schedscope-topology";

// Synthetic strings give every NUMA node the same memory; a sample may
// override them one by one. The tree is rebuilt because Topology's objects
// are only writable through add().
Topology with_node_memory(const Topology &in, const std::vector<std::uint64_t> &bytes)
{
    Topology out;
    out.set_source(in.source());
    out.set_name(in.name());
    out.set_caches_known(in.caches_known());
    for (const auto &n : in.notes())
        out.add_note(n);
    for (const auto &f : in.figures())
        out.add_figure(f);
    for (const auto &o : in.objects()) {
        TopoObject copy = o;
        if (o.type == ObjType::NUMANode)
            copy.memory_bytes = bytes.at(o.logical_index);
        out.add(std::move(copy), o.parent, o.type == ObjType::NUMANode);
    }
    if (in.has_distances())
        out.set_distances(in.distances());
    out.finalize();
    return out;
}

struct SampleFile {
    std::string name;
    std::string synthetic;
    int synthetic_line = 0;
    std::vector<std::string> assumptions;
    std::vector<std::uint64_t> node_memory;
    int node_memory_line = 0;
    std::vector<std::vector<int>> distances;
    std::vector<int> distance_lines; // line of each row, for errors
    int distances_line = 0;
    int uniform_local = 0, uniform_remote = 0; // "distances: uniform 10 20"
    std::vector<MachineFigure> figures;        // "model: NAME VALUE SOURCE"
};

class SampleParser {
public:
    SampleParser(const std::string &text, const std::string &source) : lines_(split_lines(text)), source_(source) {}

    SampleFile parse()
    {
        size_t i = 0;
        while (i < lines_.size() && trim(lines_[i].text).empty())
            ++i;
        if (i == lines_.size())
            fail(0, "empty sample file");
        std::string magic = trim(lines_[i].text);
        if (magic != kSampleMagic)
            fail(lines_[i].number, starts_with(magic, kSampleMagicPrefix)
                                       ? "unsupported sample format version '" + magic + "' (this build reads v1)"
                                       : "expected '" + std::string(kSampleMagic) + "' as the first line");
        for (++i; i < lines_.size(); ++i) {
            const auto &l = lines_[i];
            std::string t = trim(l.text);
            if (t.empty())
                continue;
            if (t[0] == '#') {
                header(t);
                continue;
            }
            auto colon = t.find(':');
            if (colon == std::string::npos) {
                if (in_distance_rows_) {
                    distance_row(l, t);
                    continue;
                }
                fail(l.number, "expected 'key: value', found '" + t + "'");
            }
            in_distance_rows_ = false;
            std::string key = trim(t.substr(0, colon)), value = trim(t.substr(colon + 1));
            if (key == "synthetic") {
                set_once(f_.synthetic_line, l.number, key);
                f_.synthetic = value;
            } else if (key == "node_memory")
                node_memory(l, value);
            else if (key == "distances")
                distances(l, value);
            else if (key == "model")
                figure(l, value);
            else
                fail(l.number, "unknown key '" + key + "' (expected synthetic, node_memory, distances or model)");
        }
        if (f_.synthetic.empty())
            fail(f_.synthetic_line, "no 'synthetic:' line describing the machine");
        return f_;
    }

private:
    [[noreturn]] void fail(int line, const std::string &what) const { throw InputError(source_, line, {}, what); }

    void set_once(int &seen, int line, const std::string &key)
    {
        if (seen)
            fail(line, "second '" + key + ":' line (first on line " + std::to_string(seen) + ")");
        seen = line;
    }

    void header(const std::string &t)
    {
        std::string body = trim(t.substr(1));
        if (starts_with(body, "name:"))
            f_.name = trim(body.substr(5));
        else if (starts_with(body, "assumed:"))
            f_.assumptions.push_back(trim(body.substr(8)));
    }

    void node_memory(const TextLine &l, const std::string &value)
    {
        set_once(f_.node_memory_line, l.number, "node_memory");
        for (const auto &tok : split_ws(value)) {
            auto b = parse_size_bytes(tok);
            if (!b)
                fail(l.number, "'" + tok + "' is not a size (e.g. 32GiB, 512MiB)");
            f_.node_memory.push_back(*b);
        }
        if (f_.node_memory.empty())
            fail(l.number, "node_memory needs one size per NUMA node");
    }

    void distances(const TextLine &l, const std::string &value)
    {
        set_once(f_.distances_line, l.number, "distances");
        auto tok = split_ws(value);
        if (tok.empty()) {
            in_distance_rows_ = true; // rows follow on the next lines
            return;
        }
        if (tok.size() != 3 || tok[0] != "uniform")
            fail(l.number, "expected 'distances: uniform LOCAL REMOTE' or 'distances:' followed by matrix rows");
        auto local = parse_int(tok[1]), remote = parse_int(tok[2]);
        if (!local || !remote || *local == 0 || *remote == 0)
            fail(l.number, "uniform distances must be positive integers");
        f_.uniform_local = *local;
        f_.uniform_remote = *remote;
    }

    // "model: mem_latency_local_ns 135 Intel MLC on a 4-socket Xeon E7-4800":
    // a model constant, its value, and where the value comes from (required).
    void figure(const TextLine &l, const std::string &value)
    {
        const auto tok = split_ws(value);
        if (tok.size() < 3)
            fail(l.number, "expected 'model: NAME VALUE SOURCE' (the source of the figure is required)");
        char *end = nullptr;
        const double parsed = std::strtod(tok[1].c_str(), &end);
        if (end == tok[1].c_str() || *end != '\0' || !std::isfinite(parsed))
            fail(l.number, "'" + tok[1] + "' is not a number");
        const std::optional<double> v = parsed;
        // The name and the range are the engine's to check (ModelParams,
        // above this module): apply_machine_figures names this line.
        for (const auto &f : f_.figures)
            if (f.name == tok[0])
                fail(l.number, "second 'model: " + tok[0] + "' line");
        const size_t at = value.find(tok[1], tok[0].size()) + tok[1].size();
        f_.figures.push_back(MachineFigure{tok[0], *v, trim(value.substr(at)), l.number});
    }

    void distance_row(const TextLine &l, const std::string &t)
    {
        std::vector<int> row;
        for (const auto &tok : split_ws(t)) {
            auto v = parse_int(tok);
            if (!v || *v == 0)
                fail(l.number, "distance '" + tok + "' is not a positive integer");
            row.push_back(*v);
        }
        f_.distances.push_back(std::move(row));
        f_.distance_lines.push_back(l.number);
    }

    std::vector<TextLine> lines_;
    std::string source_;
    SampleFile f_;
    bool in_distance_rows_ = false;
};

} // namespace

Topology import_sample_text(const std::string &text, const std::string &source)
{
    SampleFile f = SampleParser(text, source).parse();

    Topology t;
    try {
        t = import_synthetic(f.synthetic);
    } catch (const InputError &e) {
        throw InputError(source, f.synthetic_line, {}, "synthetic description: " + e.message());
    }
    t.set_source(source);
    t.set_name(f.name.empty() ? source : f.name);
    for (const auto &a : f.assumptions)
        t.add_note("assumed: " + a);
    for (auto &fig : f.figures)
        t.add_figure(std::move(fig));

    const int n = t.numa_count();
    if (!f.node_memory.empty()) {
        if (static_cast<int>(f.node_memory.size()) != n)
            throw InputError(source, f.node_memory_line, {},
                             "node_memory gives " + std::to_string(f.node_memory.size()) + " sizes for " +
                                 std::to_string(n) + " NUMA nodes");
        t = with_node_memory(t, f.node_memory);
    }

    if (f.uniform_local) {
        std::vector<std::vector<int>> m(n, std::vector<int>(n, f.uniform_remote));
        for (int a = 0; a < n; ++a)
            m[a][a] = f.uniform_local;
        t.set_distances(std::move(m));
    } else if (f.distances_line) {
        if (static_cast<int>(f.distances.size()) != n)
            throw InputError(source, f.distances.empty() ? f.distances_line : f.distance_lines.back(), {},
                             "distance matrix has " + std::to_string(f.distances.size()) + " rows for " +
                                 std::to_string(n) + " NUMA nodes");
        for (size_t r = 0; r < f.distances.size(); ++r)
            if (static_cast<int>(f.distances[r].size()) != n)
                throw InputError(source, f.distance_lines[r], {},
                                 "distance row has " + std::to_string(f.distances[r].size()) + " values for " +
                                     std::to_string(n) + " NUMA nodes");
        t.set_distances(f.distances);
    } else if (n > 1) {
        t.add_note("no distances in the sample: remote distance assumed 20");
    }
    t.finalize();
    return t;
}

} // namespace schedscope
