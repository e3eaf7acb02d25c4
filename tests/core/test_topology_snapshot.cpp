// hwloc-gather-topology snapshots (tests/data/linux-sysfs/): each opens as a
// folder and as a tarball with the counts, NUMA node numbers and distance
// matrix hwloc's own tools report for the same folder; any topology written
// as hwloc XML reads back as the same machine.

#include "archive_test_support.h"
#include "scenario/scenario.h"
#include "scoped_env.h"
#include "topology/archive_extract.h"
#include "topology/hwloc_xml_export.h"
#include "topology/import.h"
#include "topology/topology_report.h"
#include "topology_test_support.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace schedscope;
using namespace schedscope::testing;
namespace fs = std::filesystem;

namespace {

struct Expected {
    const char *name;
    int packages, numa, cores, pus;
    std::vector<int> node_os; // NUMA node numbers, logical order
};

// From tests/data/linux-sysfs/README.md (hwloc 2.9 on the extracted folder).
const std::vector<Expected> kSnapshots = {
    {"16amd64-8n2c", 8, 8, 16, 16, {0, 1, 2, 3, 4, 5, 6, 7}},
    {"48amd64-4d2n6c-sparse", 4, 8, 48, 48, {0, 1, 2, 33, 34, 45, 72, 73}},
};

std::string tarball(const Expected &s) { return data_path(std::string("linux-sysfs/") + s.name + ".tar.bz2"); }

// The tarball unpacked by the importer's own extractor: the folder tests
// need a folder, and thousands of extracted files are not kept in git.
struct Unpacked {
    TempDir dir{"test"};
    explicit Unpacked(const Expected &s) { extract_archive(read_archive_file(tarball(s)), tarball(s), dir.path()); }
    std::string root(const Expected &s) const { return dir.path() + "/" + s.name; }
};

std::vector<int> node_os(const Topology &t)
{
    std::vector<int> v;
    for (int n = 0; n < t.numa_count(); ++n)
        v.push_back(t.obj(t.numa_node(n)).os_index);
    return v;
}

void check_counts(const Topology &t, const Expected &s)
{
    CHECK(t.count(ObjType::Package) == s.packages);
    CHECK(t.numa_count() == s.numa);
    CHECK(t.count(ObjType::Core) == s.cores);
    CHECK(t.pu_count() == s.pus);
    CHECK(node_os(t) == s.node_os);
    CHECK(t.has_distances());
}

// What hwloc's tools say about the folder (hwloc-calc, lstopo), and the
// topology lstopo exports read through our XML importer.
int hwloc_calc_count(const std::string &dir, const std::string &type)
{
    auto r = run_command("hwloc-calc -i " + shell_quote(dir) + " --number-of " + type + " all 2>/dev/null");
    REQUIRE(r.exit_code == 0);
    return std::stoi(r.out);
}

Topology lstopo_reference(const std::string &dir)
{
    auto r = run_command("lstopo-no-graphics -i " + shell_quote(dir) + " --of xml 2>/dev/null");
    REQUIRE(r.exit_code == 0);
    return import_hwloc_xml(r.out, "lstopo -i " + dir);
}

void check_same_machine(const Topology &a, const Topology &b)
{
    for (ObjType type : {ObjType::Package, ObjType::Group, ObjType::NUMANode, ObjType::L3, ObjType::L2, ObjType::L1,
                         ObjType::Core, ObjType::PU}) {
        INFO(obj_type_name(type));
        CHECK(a.count(type) == b.count(type));
    }
    CHECK(node_os(a) == node_os(b));
    CHECK(a.distances() == b.distances());
    CHECK(a.total_memory_bytes() == b.total_memory_bytes());
    CHECK(render_tree(a) == render_tree(b));
    for (int p = 0; p < a.pu_count() && p < b.pu_count(); ++p)
        CHECK(a.pu_os_index(p) == b.pu_os_index(p));
}

} // namespace

TEST_CASE("snapshot tarballs import with hwloc's counts", "[topology][snapshot]")
{
    for (const Expected &s : kSnapshots) {
        INFO(s.name);
        const Topology t = load_topology(tarball(s));
        check_counts(t, s);
        CHECK(t.source() == tarball(s));
        // The same tarball through the entry that takes bytes.
        check_counts(import_snapshot_archive(read_archive_file(tarball(s)), "x.tar.bz2"), s);
    }
}

TEST_CASE("snapshot folders import with hwloc's counts, as lstopo -i reads them", "[topology][snapshot]")
{
    for (const Expected &s : kSnapshots) {
        INFO(s.name);
        const Unpacked u(s);
        const Topology folder = load_topology(u.root(s));
        check_counts(folder, s);
        // The folder holding the snapshot's folder opens too (as unpacked).
        check_counts(load_topology(u.dir.path()), s);
        // hwloc's own tools on the same folder.
        CHECK(hwloc_calc_count(u.root(s), "package") == s.packages);
        CHECK(hwloc_calc_count(u.root(s), "numanode") == s.numa);
        CHECK(hwloc_calc_count(u.root(s), "core") == s.cores);
        CHECK(hwloc_calc_count(u.root(s), "pu") == s.pus);
        check_same_machine(folder, lstopo_reference(u.root(s)));
        check_same_machine(folder, load_topology(tarball(s)));
    }
}

TEST_CASE("the sparse snapshot keeps its node numbers and SLIT", "[topology][snapshot]")
{
    const Topology t = load_topology(tarball(kSnapshots[1]));
    // lstopo -i 48amd64-4d2n6c-sparse --distances, logical order.
    const std::vector<std::vector<int>> slit = {{10, 16, 16, 22, 16, 22, 16, 22}, {16, 10, 22, 16, 16, 22, 22, 16},
                                                {16, 22, 10, 16, 16, 16, 16, 16}, {22, 16, 16, 10, 16, 16, 22, 22},
                                                {16, 16, 16, 16, 10, 16, 16, 22}, {22, 22, 16, 16, 16, 10, 22, 16},
                                                {16, 22, 16, 22, 16, 22, 10, 16}, {22, 16, 16, 22, 22, 16, 16, 10}};
    CHECK(t.distances() == slit);
    // Caches and memory come from the snapshot: an L3 per node, 6 cores each.
    CHECK(t.count(ObjType::L3) == 8);
    CHECK(t.obj(t.objects_of(ObjType::L2).front()).cache_size_bytes == 512 * 1024);
    CHECK(t.obj(t.numa_node(1)).memory_bytes == 17179869184ull);
    CHECK(t.pus_of_node(3).count() == 6);
    const Topology small = load_topology(tarball(kSnapshots[0]));
    CHECK(small.node_distance(0, 0) == 10);
    CHECK(small.node_distance(0, 7) == 20);
}

TEST_CASE("the unpacked tree keeps the snapshot's relative symbolic links", "[topology][snapshot]")
{
    const Unpacked u(kSnapshots[0]);
    const fs::path link = fs::path(u.root(kSnapshots[0])) / "sys/devices/system/node/node4/cpu9";
    CHECK(fs::is_symlink(link));
    CHECK(fs::read_symlink(link) == ".");
    // Nothing left behind once the importer is done with its own folder. The
    // importer works under $TMPDIR; pointing it at a folder of this test's own
    // keeps other tests, running at the same time, out of the count.
    const TempDir own("test");
    {
        const ScopedEnv tmpdir("TMPDIR", own.path());
        (void)load_topology(tarball(kSnapshots[0]));
    }
    CHECK(fs::is_empty(own.path()));
}

TEST_CASE("a folder or tarball that is not a snapshot says what was expected", "[topology][snapshot][errors]")
{
    const TempDir dir("test");
    auto folder = input_error_of([&] { load_topology(dir.path()); });
    CHECK(folder.source() == dir.path());
    CHECK(std::string(folder.what()).find("expected a folder holding sys/devices/system/cpu") != std::string::npos);
    // The folder alone is not enough: hwloc needs a cpuN in it.
    fs::create_directories(dir.path() + "/sys/devices/system/cpu/cpufreq");
    CHECK_THROWS_WITH(load_topology(dir.path()), Catch::Contains("sys/devices/system/cpu/cpuN"));
    fs::remove_all(dir.path() + "/sys");

    const std::string notes = dir.path() + "/notes.tar.gz";
    std::ofstream(notes, std::ios::binary) << make_tar({{TarEntry::Kind::File, "notes/hello.txt", "hi\n", {}}});
    auto archive = input_error_of([&] { load_topology(notes); });
    CHECK(archive.source() == notes);
    CHECK(std::string(archive.what()).find("expected an hwloc-gather-topology tarball") != std::string::npos);
}

TEST_CASE("a tiny handmade snapshot loads, in every compression", "[topology][snapshot]")
{
    for (Compression c : {Compression::None, Compression::Gzip, Compression::Bzip2, Compression::Xz}) {
        const Topology t = import_snapshot_archive(make_tar(tiny_snapshot(), c), "tiny.tar");
        CHECK(t.pu_count() == 2);
        CHECK(t.count(ObjType::Core) == 2);
    }
}

TEST_CASE("any topology written as hwloc XML reads back as the same machine", "[topology][xml]")
{
    std::vector<std::string> specs = {"synthetic:pack:2 [numa] l3:1 core:4 pu:2", "detect", tarball(kSnapshots[1]),
                                      data_path("topology/numactl-2node.txt")};
    for (const auto &s : list_sample_topologies())
        specs.push_back("sample:" + s.name);
    for (const auto &spec : specs) {
        INFO(spec);
        const Topology t = load_topology(spec);
        const std::string xml = topology_to_hwloc_xml(t);
        CHECK(xml.find("HostName") == std::string::npos);
        const Topology back = import_hwloc_xml(xml, "back.xml");
        if (t.numa_count() > 0)
            check_same_machine(t, back);
        else
            CHECK(back.numa_count() == 1); // hwloc 2 needs one node: the writer adds it
        CHECK(back.pu_count() == t.pu_count());
    }
}

TEST_CASE("topo --save writes hwloc XML that lstopo and --topology read", "[cli][snapshot]")
{
    const TempDir dir("test");
    const std::string xml = dir.path() + "/sparse.xml";
    const std::string cli = shell_quote(SCHEDSCOPE_CLI_PATH);
    auto saved = run_command(cli + " topo -t " + shell_quote(tarball(kSnapshots[1])) + " --save " + shell_quote(xml) +
                             " --json 2>/dev/null");
    REQUIRE(saved.exit_code == 0);
    auto back = run_command(cli + " topo -t " + shell_quote(xml) + " --json 2>/dev/null");
    REQUIRE(back.exit_code == 0);
    const auto a = nlohmann::json::parse(saved.out), b = nlohmann::json::parse(back.out);
    for (const char *key : {"packages", "numa_nodes", "cores", "pus", "caches", "memory_bytes", "distances"})
        CHECK(a[key] == b[key]);
    CHECK(hwloc_calc_count(xml, "pu") == 48);
    CHECK(hwloc_calc_count(xml, "numanode") == 8);
    // A file that cannot be written is bad input, as everywhere else.
    auto bad = run_command(cli + " topo -t detect --save " + shell_quote(dir.path() + "/missing/x.xml") + " 2>&1");
    CHECK(bad.exit_code == 2);
    CHECK(std::count(bad.out.begin(), bad.out.end(), '\n') == 1);
}

TEST_CASE("a scenario names a snapshot, and one on detect records the machine", "[scenario][snapshot]")
{
    const TempDir dir("test");
    fs::copy_file(tarball(kSnapshots[0]), dir.path() + "/machine.tar.bz2");
    const std::string body = R"(, "workload": {"name": "spin"}, "policies": [{"name": "simple"}]})";
    const Scenario relative = parse_scenario(R"({"schedscope_scenario": 1, "topology": "machine.tar.bz2")" + body,
                                             dir.path() + "/s.json");
    CHECK(scenario_topology(relative)->pu_count() == 16);

    const Scenario on_detect = parse_scenario(R"({"schedscope_scenario": 1, "topology": "detect")" + body, "d.json");
    const std::string path = dir.path() + "/detect.json";
    save_scenario(on_detect, path);
    const auto doc = nlohmann::json::parse(read_file(path));
    REQUIRE(doc["topology"].is_object());
    CHECK(doc["topology"]["recorded_from"] == "detect");
    const Topology here = load_topology("detect");
    const auto recorded = scenario_topology(load_scenario(path));
    check_same_machine(here, *recorded);
    CHECK(recorded->name() == "machine recorded by detect");

    // A broken recording names the field.
    const Scenario broken = parse_scenario(
        R"({"schedscope_scenario": 1, "topology": {"hwloc_xml": "<topology"})" + body, "b.json");
    auto e = input_error_of([&] { scenario_topology(broken); });
    CHECK(e.field() == "topology.hwloc_xml");
}
