// The one spelling for "which machine": detect, synthetic:STR, sample:NAME or
// a file whose kind is recognised from its content. Also finds the samples.

#include "topology/archive_extract.h"
#include "topology/import.h"
#include "topology/text_parse.h"

#include "util/input_error.h"
#include "util/json_input.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace fs = std::filesystem;

namespace schedscope {

namespace {

// Topology files are kilobytes; an hwloc XML of a very large machine is a few
// MB. Anything past this is not a topology and would only waste memory.
constexpr std::uintmax_t kMaxTopologyFileBytes = 64ull << 20;
// How much of a file to look at when deciding whether it is text.
constexpr size_t kBinarySniffBytes = 4096;
// A scenario may name another file; a file that names itself must end in an
// error, not a stack overflow.
constexpr int kMaxScenarioNesting = 8;
thread_local int scenario_nesting = 0;

bool looks_binary(const std::string &text)
{
    const size_t n = std::min(text.size(), kBinarySniffBytes);
    size_t control = 0;
    for (size_t i = 0; i < n; ++i) {
        unsigned char c = text[i];
        if (c == 0)
            return true;
        if (c < 0x20 && c != '\n' && c != '\r' && c != '\t')
            ++control;
    }
    return control * 10 > n; // more than 10 % control characters
}

// A machine recorded in the scenario itself: {"hwloc_xml": "<?xml...",
// "recorded_from": "detect"} (what saving a scenario on "detect" writes).
Topology topology_from_recorded_xml(const nlohmann::json &value, const std::string &source)
{
    if (!value["hwloc_xml"].is_string())
        throw InputError(source, 0, "topology.hwloc_xml", "expected a string of hwloc XML");
    if (value.contains("recorded_from") && !value["recorded_from"].is_string())
        throw InputError(source, 0, "topology.recorded_from", "expected a string");
    for (const auto &[key, v] : value.items())
        if (key != "hwloc_xml" && key != "recorded_from")
            throw InputError(source, 0, "topology." + key, "unknown field");
    Topology t;
    try {
        t = import_hwloc_xml(value["hwloc_xml"].get<std::string>(), source);
    } catch (const InputError &e) {
        throw InputError(source, 0, "topology.hwloc_xml", e.message());
    }
    const std::string from = value.value("recorded_from", std::string());
    t.set_name(from == "detect" ? "machine recorded by detect" : "machine recorded in " + source);
    return t;
}

// Scenario hook: today a scenario carries only its topology. The scenario
// format (engine issue) will parse the whole file and call
// topology_from_scenario_json() with its "topology" value.
Topology topology_from_scenario_json(const nlohmann::json &value, const std::string &source)
{
    if (value.is_string()) {
        std::string spec = value.get<std::string>();
        // A relative file path is relative to the scenario file, not the cwd.
        bool is_path = spec != "detect" && !starts_with(spec, "synthetic:") && !starts_with(spec, "sample:");
        if (is_path && fs::path(spec).is_relative() && !source.empty())
            spec = (fs::path(source).parent_path() / spec).string();
        if (scenario_nesting >= kMaxScenarioNesting)
            throw InputError(source, 0, "topology", "scenario files refer to each other in a loop");
        ++scenario_nesting;
        try {
            Topology t = load_topology(spec);
            --scenario_nesting;
            return t;
        } catch (const InputError &e) {
            --scenario_nesting;
            // Inner errors already name their source; keep only the innermost message.
            if (e.field() == "topology")
                throw;
            throw InputError(source, 0, "topology", e.what());
        }
    }
    if (value.is_object() && value.contains("hwloc_xml") && !value.contains("synthetic"))
        return topology_from_recorded_xml(value, source);
    if (!value.is_object() || !value.contains("synthetic") || !value["synthetic"].is_string() ||
        value.contains("hwloc_xml"))
        throw InputError(source, 0, "topology",
                         "expected a topology spec string or an object with a \"synthetic\" string or an "
                         "\"hwloc_xml\" string");
    Topology t;
    try {
        t = import_synthetic(value["synthetic"].get<std::string>());
    } catch (const InputError &e) {
        throw InputError(source, 0, "topology.synthetic", e.message());
    }
    t.set_source(source);
    if (value.contains("distances")) {
        const auto &d = value["distances"];
        std::vector<std::vector<int>> m;
        bool ok = d.is_array();
        for (size_t r = 0; ok && r < d.size(); ++r) {
            ok = d[r].is_array();
            m.emplace_back();
            for (size_t c = 0; ok && c < d[r].size(); ++c) {
                ok = d[r][c].is_number_integer() && d[r][c].get<long long>() > 0 && d[r][c].get<long long>() < 1000000;
                if (ok)
                    m.back().push_back(d[r][c].get<int>());
            }
        }
        if (!ok)
            throw InputError(source, 0, "topology.distances", "expected an array of arrays of positive integers");
        t.set_distances(std::move(m));
        try {
            t.finalize();
        } catch (const InputError &e) {
            throw InputError(source, 0, "topology.distances", e.message());
        }
    }
    return t;
}

Topology import_scenario_json(const std::string &text, const std::string &source)
{
    nlohmann::json doc = parse_json_input(text, source);
    if (!doc.is_object() || !doc.contains("topology"))
        throw InputError(source, 0, "topology", "JSON file has no \"topology\" key");
    return topology_from_scenario_json(doc["topology"], source);
}

std::string read_topology_file(const std::string &path)
{
    std::error_code ec;
    auto status = fs::status(path, ec);
    if (ec || !fs::exists(status))
        throw InputError(path, "no such file (expected detect, synthetic:STRING, sample:NAME, a file or a "
                               "snapshot folder)");
    if (fs::is_directory(status))
        throw InputError(path, "is a directory, not a topology file");
    auto size = fs::file_size(path, ec);
    if (!ec && size > kMaxTopologyFileBytes)
        throw InputError(path, "file is too large to be a topology (" + std::to_string(size) + " bytes)");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path, "cannot open the file for reading");
    std::ostringstream buf;
    buf << in.rdbuf();
    if (in.bad())
        throw InputError(path, "error while reading the file");
    return buf.str();
}

// The first bytes of a file, enough to tell an archive from text; empty
// when it cannot be read (read_topology_file then says why).
std::string read_head(const std::string &path)
{
    constexpr std::size_t kHeadBytes = 512; // one tar header block
    std::ifstream in(path, std::ios::binary);
    std::string head(kHeadBytes, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(in ? head.size() : static_cast<std::size_t>(std::max<std::streamsize>(in.gcount(), 0)));
    return head;
}

std::string sample_summary(const std::string &path)
{
    std::ifstream in(path);
    std::string line, first_comment;
    for (int n = 0; n < 40 && std::getline(in, line); ++n) {
        std::string t = trim(line);
        if (starts_with(t, "# summary:"))
            return trim(t.substr(10));
        if (first_comment.empty() && starts_with(t, "#") && !starts_with(t, "# schedscope-topology") &&
            !starts_with(t, "# name:") && trim(t.substr(1)).size() > 0)
            first_comment = trim(t.substr(1));
    }
    return first_comment;
}

} // namespace

Topology import_text(const std::string &text, const std::string &source)
{
    if (trim(text).empty())
        throw InputError(source, "file is empty");
    if (looks_binary(text))
        throw InputError(source, "binary data, not a topology (expected hwloc XML, numactl --hardware output, "
                                 "a schedscope .topo sample, a scenario JSON or an hwloc-gather-topology "
                                 "tarball)");
    std::string body = text;
    if (starts_with(body, "\xEF\xBB\xBF")) // UTF-8 byte order mark
        body = body.substr(3);
    const std::string head = trim(body.substr(0, 256));
    if (starts_with(head, "<"))
        return import_hwloc_xml(body, source);
    if (starts_with(head, "# schedscope-topology"))
        return import_sample_text(body, source);
    if (starts_with(head, "available:"))
        return import_numactl(body, source);
    if (starts_with(head, "No NUMA available"))
        throw InputError(source, 1, {}, "numactl reports no NUMA on that machine: nothing to import");
    if (starts_with(head, "{"))
        return import_scenario_json(body, source);
    throw InputError(source, 1, {},
                     "unrecognised content (expected hwloc XML, numactl --hardware output, a schedscope "
                     "'# schedscope-topology v1' sample or a scenario JSON with a \"topology\" key)");
}

Topology load_topology(const std::string &spec)
{
    if (spec.empty())
        throw InputError("--topology",
                         "empty topology spec (expected detect, synthetic:STRING, sample:NAME or a file)");
    if (spec == "detect")
        return import_detect();
    if (starts_with(spec, "synthetic:"))
        return import_synthetic(spec.substr(10));
    if (starts_with(spec, "sample:")) {
        const std::string name = spec.substr(7);
        std::string known;
        for (const auto &s : list_sample_topologies()) {
            if (s.name == name) {
                Topology t = import_text(read_topology_file(s.path), s.path);
                t.set_name(name);
                return t;
            }
            known += (known.empty() ? "" : ", ") + s.name;
        }
        throw InputError(
            spec, "no such sample (available: " + (known.empty() ? "none found in " + samples_dir() : known) + ")");
    }
    std::error_code ec;
    if (fs::is_directory(spec, ec))
        return import_snapshot_folder(spec, spec);
    if (fs::is_regular_file(spec, ec) && looks_like_archive(read_head(spec)))
        return import_snapshot_archive(read_archive_file(spec), spec);
    return import_text(read_topology_file(spec), spec);
}

std::string samples_dir()
{
    if (const char *env = std::getenv("SCHEDSCOPE_SAMPLES_DIR"); env && *env)
        return env;
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        fs::path installed = exe.parent_path() / ".." / "share" / "schedscope" / "samples";
        if (fs::is_directory(installed, ec))
            return fs::weakly_canonical(installed, ec).string();
    }
    return SCHEDSCOPE_SOURCE_SAMPLES_DIR;
}

std::vector<SampleInfo> list_sample_topologies()
{
    std::vector<SampleInfo> out;
    std::error_code ec;
    fs::path dir = fs::path(samples_dir()) / "topologies";
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const auto &p = it->path();
        if (p.extension() != ".topo" && p.extension() != ".xml")
            continue;
        out.push_back({p.stem().string(), fs::absolute(p).string(), sample_summary(p.string())});
    }
    std::sort(out.begin(), out.end(), [](const SampleInfo &a, const SampleInfo &b) { return a.name < b.name; });
    return out;
}

Topology import_scenario_topology(const nlohmann::json &value, const std::string &source)
{
    return topology_from_scenario_json(value, source);
}

} // namespace schedscope
