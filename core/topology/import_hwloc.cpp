// The importers that go through hwloc itself: the running machine, hwloc XML
// and hwloc synthetic descriptions.

#include "topology/hwloc_convert.h"
#include "topology/import.h"
#include "topology/xml_precheck.h"

#include "util/input_error.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <sstream>

namespace schedscope {

namespace {

// Largest machine a synthetic string may describe. altix-1024 is the biggest
// sample; 64K PUs leaves headroom while refusing strings that would make hwloc
// allocate without bound.
constexpr double kMaxSyntheticPus = 65536;

// The release (2.9.0), not hwloc_get_api_version(): the API number of 2.9 is 2.8.
std::string hwloc_version_string() { return HWLOC_VERSION; }

// hwloc only says "invalid"; find the token it could not read so the user
// knows what to fix. Returns an empty string when nothing looks wrong to us.
std::string explain_synthetic_error(const std::string &description)
{
    std::istringstream in(description);
    std::string token;
    int position = 0;
    double pus = 1;
    while (in >> token) {
        ++position;
        std::string t = token;
        // "[numa]" attaches a memory level, "(size=...)" carries attributes.
        if (!t.empty() && t.front() == '[')
            t = t.substr(1);
        if (!t.empty() && t.back() == ']')
            t.pop_back();
        if (auto paren = t.find('('); paren != std::string::npos)
            t = t.substr(0, paren);
        auto colon = t.find(':');
        std::string where = "token " + std::to_string(position) + " '" + token + "'";
        if (colon == std::string::npos) {
            // "[numa]" gives each object of the level before it a node; hwloc
            // itself takes minutes to load 10 000 of them.
            if (token.front() == '[' && pus > kMaxNumaNodes)
                return "describes " + std::to_string(static_cast<long>(pus)) + " NUMA nodes, more than the " +
                       std::to_string(kMaxNumaNodes) + " schedscope models";
            if (token.front() == '[')
                continue; // memory attach without a count is legal
            return where + ": expected TYPE:COUNT";
        }
        std::string type = t.substr(0, colon), count = t.substr(colon + 1);
        hwloc_obj_type_t parsed;
        if (hwloc_type_sscanf(type.c_str(), &parsed, nullptr, 0) != 0)
            return where + ": unknown object type '" + type + "'";
        if (count.empty() || !std::all_of(count.begin(), count.end(), [](unsigned char c) { return std::isdigit(c); }))
            return where + ": count '" + count + "' is not a positive integer";
        pus *= std::stod(count);
        if (parsed == HWLOC_OBJ_NUMANODE && pus > kMaxNumaNodes)
            return "describes " + std::to_string(static_cast<long>(pus)) + " NUMA nodes, more than the " +
                   std::to_string(kMaxNumaNodes) + " schedscope models";
        if (pus > kMaxSyntheticPus)
            return "describes more than " + std::to_string(static_cast<long>(kMaxSyntheticPus)) + " PUs";
    }
    if (position == 0)
        return "empty description";
    hwloc_obj_type_t last;
    std::string last_type = token.substr(0, token.find(':'));
    if (hwloc_type_sscanf(last_type.c_str(), &last, nullptr, 0) == 0 && last != HWLOC_OBJ_PU)
        return "the last level must be pu:N, found '" + token + "'";
    return {};
}

} // namespace

Topology import_synthetic(const std::string &description)
{
    const std::string source = "synthetic:" + description;
    // Checked first: hwloc would try to allocate an absurd machine.
    std::string problem = explain_synthetic_error(description);
    if (!problem.empty() && problem.rfind("describes ", 0) == 0)
        throw InputError(source, problem);
    HwlocHandle h;
    if (hwloc_topology_set_synthetic(h.get(), description.c_str()) != 0 || hwloc_topology_load(h.get()) != 0)
        throw InputError(source, problem.empty() ? "not a valid hwloc synthetic description" : problem);
    Topology t = convert_hwloc(h.get(), source);
    t.set_name(description);
    return t;
}

Topology import_detect()
{
    HwlocHandle h;
    if (hwloc_topology_load(h.get()) != 0)
        throw InputError("detect", "hwloc could not detect this machine's topology");
    Topology t = convert_hwloc(h.get(), "detect");
    t.set_name("this machine");
    return t;
}

Topology import_hwloc_xml(const std::string &xml_text, const std::string &source)
{
    XmlCheck check = precheck_hwloc_xml(xml_text);
    if (check.version_major >= 3)
        throw InputError(source, check.version_line, {},
                         "hwloc XML version " + check.version + " needs hwloc >= " +
                             std::to_string(check.version_major) + ".0 to read; this build uses hwloc " +
                             hwloc_version_string());
    if (!check.error.empty())
        throw InputError(source, check.error_line, {}, "not valid hwloc XML: " + check.error);
    HwlocHandle h;
    if (hwloc_topology_set_xmlbuffer(h.get(), xml_text.data(), static_cast<int>(xml_text.size()) + 1) != 0 ||
        hwloc_topology_load(h.get()) != 0)
        throw InputError(source, "not valid hwloc XML (hwloc refused to load it)");
    Topology t = convert_hwloc(h.get(), source);
    t.set_name(source);
    if (t.numa_count() > 1 && !t.has_distances())
        t.add_note("no NUMA latency matrix in the file: remote distance assumed 20");
    return t;
}

} // namespace schedscope
