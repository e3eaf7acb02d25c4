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

// Largest machine a synthetic string may describe, and most children of one
// object at any level. hwloc 2.9 inserts each object by comparing cpusets
// with its siblings, so loading grows with fan-out squared times PUs: measured
// (plain hwloc, loaded 2-core machine) pack:8 core:1024 pu:1 3.8 s, pu:8192
// 13 s, pack:4000 pu:2 12 s, pack:64 core:64 pu:16 (65 536 PUs) 16 s and
// 1 GB. These limits (topology.h, shared with the XML pre-check) keep any
// accepted string within the 10 s bound (docs/reliability.md); altix-1024
// (group:512, 1024 PUs) is the largest sample.
constexpr double kMaxSyntheticPus = kMaxHwlocPus;
constexpr double kMaxSyntheticFanout = kMaxHwlocFanout;

// hwloc refuses these too; schedscope refuses them before hwloc sees them.
constexpr const char *kLastLevelNotPu = "the last level must be pu:N";

// The release (2.9.0), not hwloc_get_api_version(): the API number of 2.9 is 2.8.
std::string hwloc_version_string() { return HWLOC_VERSION; }

bool all_digits(const std::string &s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

// A level's count as hwloc may read it, never throwing: std::stod threw
// out_of_range past 1e308 ("pack:1000...0" from the fuzzer). strtod reads the
// leading number of "2x" or "0x10" too and gives infinity past a double,
// which the limits refuse; anything it cannot read (or 0, or NaN) counts as 1,
// so that one unreadable level never hides the size of the others.
double count_value(const std::string &text)
{
    const double v = std::strtod(text.c_str(), nullptr);
    return v >= 1 ? v : 1;
}

// Counts in messages; a product of absurd counts is not printed whole (and
// converting infinity to an integer is undefined).
std::string count_text(double n)
{
    constexpr double kPrintable = 1e15;
    return n < kPrintable ? std::to_string(static_cast<long long>(n)) : "more than 10^15";
}

std::string too_many_numa_nodes(double nodes)
{
    return "describes " + count_text(nodes) + " NUMA nodes, more than the " + std::to_string(kMaxNumaNodes) +
           " schedscope models";
}

// hwloc only says "invalid"; find the token it could not read so the user
// knows what to fix. Returns an empty string when nothing looks wrong to us.
// Every count is multiplied in even after a token we cannot read: hwloc reads
// more than we recognise ("pac:6222" is a package level, "l1: 10" a count of
// 10) and the limits must hold for what hwloc would build.
std::string explain_synthetic_error(const std::string &description)
{
    std::istringstream in(description);
    std::string token;
    std::string problem;
    auto note = [&](std::string p) {
        if (problem.empty())
            problem = std::move(p);
    };
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
        hwloc_obj_type_t parsed = HWLOC_OBJ_TYPE_MAX;
        std::string count;
        if (colon == std::string::npos) {
            // "[numa]" gives each object of the level before it a node; hwloc
            // itself takes minutes to load 10 000 of them.
            if (token.front() == '[' && pus > kMaxNumaNodes)
                return too_many_numa_nodes(pus);
            if (token.front() == '[')
                continue; // memory attach without a count is legal
            // hwloc also takes a bare count and infers the level's type
            // ("group:5110 20" is 102 200 PUs, which took hwloc over 10 s).
            if (!all_digits(t))
                note(where + ": expected TYPE:COUNT");
            count = t;
        } else {
            std::string type = t.substr(0, colon);
            count = t.substr(colon + 1);
            if (hwloc_type_sscanf(type.c_str(), &parsed, nullptr, 0) != 0)
                note(where + ": unknown object type '" + type + "'");
            if (!all_digits(count))
                note(where + ": count '" + count + "' is not a positive integer");
        }
        const double fanout = count_value(count);
        pus *= fanout;
        if (fanout > kMaxSyntheticFanout)
            return "describes " + count_text(fanout) + " children per object at " + where + ", more than " +
                   count_text(kMaxSyntheticFanout);
        if (parsed == HWLOC_OBJ_NUMANODE && pus > kMaxNumaNodes)
            return too_many_numa_nodes(pus);
        if (pus > kMaxSyntheticPus)
            return "describes more than " + count_text(kMaxSyntheticPus) + " PUs";
    }
    if (!problem.empty())
        return problem;
    if (position == 0)
        return "empty description";
    hwloc_obj_type_t last;
    std::string last_type = token.substr(0, token.find(':'));
    if (hwloc_type_sscanf(last_type.c_str(), &last, nullptr, 0) == 0 && last != HWLOC_OBJ_PU)
        return kLastLevelNotPu + (", found '" + token + "'");
    return {};
}

// An upper bound on what hwloc can build from any string, whatever its
// spelling: hwloc needs no space between levels ("nu :291core:70" is 291
// NUMA nodes then 70 cores each, found by fuzz_synthetic), so the token walk
// above can miss a level. Every number outside attributes ("(size=6MiB)",
// "[numa(memory=4GiB)]") and not part of a type name ("l3", "L2Cache") may be
// a level's count: each must be within the fan-out limit and their product
// within the PU limit.
std::string bound_any_spelling(const std::string &description)
{
    double product = 1;
    int depth = 0; // inside (...) or [...]
    for (std::size_t i = 0; i < description.size();) {
        const unsigned char c = description[i];
        if (c == '(' || c == '[')
            ++depth;
        else if ((c == ')' || c == ']') && depth > 0)
            --depth;
        const bool in_name = i > 0 && std::isalnum(static_cast<unsigned char>(description[i - 1]));
        if (depth > 0 || !std::isdigit(c) || in_name) {
            ++i;
            continue;
        }
        // strtod reads what strtoul would (and more: "0x10", "1e5"), never less.
        const char *start = description.c_str() + i;
        char *end = nullptr;
        const double v = std::strtod(start, &end);
        const double n = v >= 1 ? v : 1; // 0, NaN: as count_value
        i += end > start ? static_cast<std::size_t>(end - start) : 1;
        if (n > kMaxSyntheticFanout)
            return "describes " + count_text(n) + " children per object, more than " + count_text(kMaxSyntheticFanout);
        product *= n;
        if (product > kMaxSyntheticPus)
            return "describes more than " + count_text(kMaxSyntheticPus) + " PUs";
    }
    return {};
}

} // namespace

Topology import_synthetic(const std::string &description)
{
    const std::string source = "synthetic:" + description;
    // Checked first: hwloc would try to allocate an absurd machine; and hwloc
    // 2.9 leaks a memory-attach ("[numa]") descriptor when it refuses a
    // description whose last level is not PU (found by fuzz_synthetic).
    // Other problems are left to hwloc, which accepts forms this check does
    // not know, such as "(memory=1GB) pack:2 pu:2".
    std::string problem = explain_synthetic_error(description);
    if (problem.rfind("describes ", 0) == 0 || problem.rfind(kLastLevelNotPu, 0) == 0)
        throw InputError(source, problem);
    if (const std::string bound = bound_any_spelling(description); !bound.empty())
        throw InputError(source, bound);
    HwlocHandle h;
    if (hwloc_topology_set_synthetic(h.get(), description.c_str()) != 0 || load_hwloc(h.get()) != 0)
        throw InputError(source, problem.empty() ? "not a valid hwloc synthetic description" : problem);
    Topology t = convert_hwloc(h.get(), source);
    t.set_name(description);
    return t;
}

Topology import_detect()
{
    HwlocHandle h;
    if (load_hwloc(h.get()) != 0)
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
                         "hwloc XML version " + check.version +
                             " needs hwloc >= " + std::to_string(check.version_major) +
                             ".0 to read; this build uses hwloc " + hwloc_version_string());
    if (!check.error.empty())
        throw InputError(source, check.error_line, {}, "not valid hwloc XML: " + check.error);
    HwlocHandle h;
    if (hwloc_topology_set_xmlbuffer(h.get(), xml_text.data(), static_cast<int>(xml_text.size()) + 1) != 0 ||
        load_hwloc(h.get()) != 0)
        throw InputError(source, "not valid hwloc XML (hwloc refused to load it)");
    Topology t = convert_hwloc(h.get(), source);
    t.set_name(source);
    if (t.numa_count() > 1 && !t.has_distances())
        t.add_note("no NUMA latency matrix in the file: remote distance assumed 20");
    return t;
}

} // namespace schedscope
