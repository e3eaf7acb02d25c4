// Our model must count what hwloc's own lstopo counts for the same input:
// every hwloc XML in tests/data/hwloc-xml (real machines), the disallowed-PU
// variant, and every sample (lstopo gets the sample's synthetic string).

#include "topology/import.h"
#include "topology_test_support.h"

#include <filesystem>
#include <map>
#include <regex>
#include <set>

using namespace schedscope;
using namespace schedscope::testing;

namespace {

struct Counts {
    int packages = 0, numa = 0, cores = 0, pus = 0, l1 = 0, l2 = 0, l3 = 0;
    friend bool operator==(const Counts &, const Counts &) = default;
};

std::ostream &operator<<(std::ostream &os, const Counts &c)
{
    return os << "pack " << c.packages << " numa " << c.numa << " core " << c.cores << " pu " << c.pus << " L1 " << c.l1
              << " L2 " << c.l2 << " L3 " << c.l3;
}

Counts model_counts(const Topology &t)
{
    return {t.count(ObjType::Package), t.numa_count(),       t.count(ObjType::Core), t.pu_count(),
            t.count(ObjType::L1),      t.count(ObjType::L2), t.count(ObjType::L3)};
}

// Distinct "Type L#n" per type in lstopo's console output. Data and unified
// caches count ("L1d", "L2"), instruction caches ("L1i") do not: our model
// keeps the former only.
Counts lstopo_counts(const std::string &input)
{
    auto r = run_command("lstopo-no-graphics -i " + shell_quote(input) + " --of console 2>/dev/null");
    REQUIRE(r.exit_code == 0);
    std::map<std::string, std::set<int>> seen;
    static const std::regex object(R"(([A-Za-z][A-Za-z0-9]*) L#([0-9]+))");
    for (std::sregex_iterator it(r.out.begin(), r.out.end(), object), end; it != end; ++it) {
        std::string type = (*it)[1];
        static const std::regex data_cache(R"(L([123])[du]?)");
        std::smatch m;
        if (std::regex_match(type, m, data_cache))
            type = "L" + m[1].str();
        seen[type].insert(std::stoi((*it)[2]));
    }
    auto n = [&](const char *t) { return static_cast<int>(seen[t].size()); };
    return {n("Package"), n("NUMANode"), n("Core"), n("PU"), n("L1"), n("L2"), n("L3")};
}

std::string synthetic_of_sample(const std::string &path)
{
    std::istringstream in(read_file(path));
    for (std::string line; std::getline(in, line);)
        if (line.rfind("synthetic:", 0) == 0)
            return line.substr(line.find(':') + 1);
    FAIL("no synthetic line in " << path);
    return {};
}

} // namespace

TEST_CASE("hwloc XML files: our counts equal lstopo's", "[lstopo][xml]")
{
    std::vector<std::string> files;
    for (const auto &e : std::filesystem::directory_iterator(data_path("hwloc-xml")))
        if (e.path().extension() == ".xml")
            files.push_back(e.path().string());
    files.push_back(data_path("topology/disallowed-pus.xml"));
    files.push_back(data_path("topology/offline-pus.v1.xml"));
    REQUIRE(files.size() >= 8);
    for (const auto &f : files) {
        INFO(f);
        CHECK(model_counts(load_topology(f)) == lstopo_counts(f));
    }
}

TEST_CASE("hwloc XML files: counts from the test-data README table", "[lstopo][xml]")
{
    // packages / NUMA / cores / PUs as the README lists them for lstopo 2.9.
    struct Expected {
        const char *file;
        int packages, numa, cores, pus;
    };
    const Expected table[] = {
        {"16em64t-4s2c2t.xml", 4, 1, 8, 16},           {"16amd64-4distances.xml", 8, 8, 16, 16},
        {"16amd64-4distances.v1.xml", 8, 8, 16, 16},   {"24em64t-2n6c2t-pci.xml", 2, 2, 12, 24},
        {"96em64t-4n4d3ca2co-pci.xml", 16, 4, 96, 96}, {"AMD-17h-Zen-2xEpyc-7451.xml", 2, 8, 48, 96},
    };
    for (const auto &e : table) {
        INFO(e.file);
        Topology t = load_topology(data_path(std::string("hwloc-xml/") + e.file));
        CHECK(t.count(ObjType::Package) == e.packages);
        CHECK(t.numa_count() == e.numa);
        CHECK(t.count(ObjType::Core) == e.cores);
        CHECK(t.pu_count() == e.pus);
    }
}

TEST_CASE("samples: our counts equal lstopo's for their synthetic strings", "[lstopo][samples]")
{
    auto samples = list_sample_topologies();
    REQUIRE(samples.size() == 14);
    for (const auto &s : samples) {
        INFO(s.name);
        CHECK(model_counts(load_topology("sample:" + s.name)) == lstopo_counts(synthetic_of_sample(s.path)));
    }
}
