// Each importer on files written for the purpose (tests/data/topology/),
// good ones and broken ones: errors must name the source and the line.

#include "topology/import.h"
#include "topology_test_support.h"

using namespace schedscope;
using namespace schedscope::testing;

namespace {
Topology load(const std::string &rel) { return load_topology(data_path("topology/" + rel)); }
InputError load_error(const std::string &rel)
{
    return input_error_of([&] { load(rel); });
}
bool mentions(const InputError &e, const std::string &text)
{
    return std::string(e.what()).find(text) != std::string::npos;
}
} // namespace

TEST_CASE("hwloc XML v2 and v1 load with their NUMA latency matrices", "[import][xml]")
{
    Topology v2 = load_topology(data_path("hwloc-xml/16amd64-4distances.xml"));
    Topology v1 = load_topology(data_path("hwloc-xml/16amd64-4distances.v1.xml"));
    for (const Topology *t : {&v2, &v1}) {
        CHECK(t->numa_count() == 8);
        CHECK(t->pu_count() == 16);
        REQUIRE(t->has_distances());
        CHECK(t->node_distance(0, 0) == 10);
        CHECK(t->node_distance(0, 5) == 20);
    }
    Topology x3950 = load_topology(data_path("hwloc-xml/96em64t-4n4d3ca2co-pci.xml"));
    CHECK(x3950.node_distance(1, 3) == 26);
    // PCI devices are skipped, the CPU side is complete.
    CHECK(load_topology(data_path("hwloc-xml/24em64t-2n6c2t-pci.xml")).pu_count() == 24);
}

TEST_CASE("disallowed PUs are dropped as lstopo drops them by default", "[import][xml]")
{
    Topology t = load("disallowed-pus.xml");
    CHECK(t.pu_count() == 12);
    for (int p = 0; p < t.pu_count(); ++p)
        CHECK(t.pu_os_index(p) > 3); // allowed_cpuset excluded P#0-3
}

TEST_CASE("broken XML names the line and what is wrong", "[import][xml][errors]")
{
    auto malformed = load_error("malformed.xml");
    CHECK(malformed.line() == 10);
    CHECK(mentions(malformed, "</wrong>"));
    CHECK(malformed.source() == data_path("topology/malformed.xml"));

    auto truncated = load_error("truncated.xml");
    CHECK(truncated.line() == 41);
    CHECK(mentions(truncated, "not valid hwloc XML"));

    auto v3 = load_error("v3.xml");
    CHECK(v3.line() == 3);
    CHECK(mentions(v3, "version 3.0 needs hwloc >= 3.0"));

    CHECK(mentions(load_error("not-hwloc.xml"), "not valid hwloc XML"));
    CHECK(mentions(load_error("wrong-root.xml"), "root element is <html>"));
    // The importer itself, not only the loader, checks the version.
    CHECK_THROWS_AS(import_hwloc_xml(read_file(data_path("topology/v3.xml")), "v3"), InputError);
}

TEST_CASE("empty, binary, unknown and missing files are InputErrors", "[import][errors]")
{
    CHECK(mentions(load_error("empty.txt"), "empty"));
    CHECK(mentions(load_error("whitespace-only.txt"), "empty"));
    CHECK(mentions(load_error("binary.bin"), "binary"));
    CHECK(mentions(load_error("unrecognised.txt"), "unrecognised content"));
    CHECK(mentions(load_error("no-such-file.xml"), "no such file"));
    // A folder is read as an hwloc-gather-topology snapshot; this one is not.
    CHECK(mentions(input_error_of([] { load_topology(SCHEDSCOPE_TEST_DATA_DIR); }),
                   "not a topology snapshot: expected a folder holding sys/devices/system/cpu"));
    CHECK(mentions(input_error_of([] { load_topology(""); }), "empty topology spec"));
    CHECK(mentions(input_error_of([] { load_topology("sample:no-such-machine"); }), "p3-xeon-8way"));
}

TEST_CASE("numactl --hardware output", "[import][numactl]")
{
    Topology t = load("numactl-2node.txt");
    CHECK(t.numa_count() == 2);
    CHECK(t.pu_count() == 24);
    CHECK(t.count(ObjType::Core) == 24);
    CHECK_FALSE(t.caches_known());
    CHECK(t.last_cache_level() == 0);
    CHECK(t.node_distance(0, 1) == 21);
    CHECK(t.total_memory_bytes() == (12277ull + 12288ull) << 20);
    // Node 0 holds the even CPUs.
    CHECK(t.pu_os_index(0) == 0);
    CHECK(t.pu_os_index(1) == 2);
    CHECK(t.pus_of_node(1).count() == 12);
    CHECK(t.distance(0, 1).cls == DistanceClass::SameNode);
    CHECK(t.distance(0, 12) == PuDistance{DistanceClass::RemoteNode, 21});
    bool says_caches_unknown = false;
    for (const auto &n : t.notes())
        says_caches_unknown |= n.find("caches are unknown") != std::string::npos;
    CHECK(says_caches_unknown);
}

TEST_CASE("numactl: a node with no CPUs keeps numactl's node order", "[import][numactl]")
{
    Topology t = load("numactl-cpuless-node.txt");
    REQUIRE(t.numa_count() == 3);
    CHECK(t.pu_count() == 8);
    CHECK(t.obj(t.numa_node(2)).os_index == 2);
    CHECK(t.pus_of_node(2).empty());
    CHECK(t.obj(t.numa_node(2)).memory_bytes == 16384ull << 20);
    CHECK(t.node_distance(0, 2) == 17);
    CHECK(t.node_distance(1, 2) == 28);
}

TEST_CASE("numactl errors name the line", "[import][numactl][errors]")
{
    auto missing = load_error("numactl-missing-row.txt");
    CHECK(missing.line() == 14);
    CHECK(mentions(missing, "row for node 1 is missing"));

    auto columns = load_error("numactl-wrong-columns.txt");
    CHECK(columns.line() == 14);
    CHECK(mentions(columns, "has 2 values, expected 3"));

    auto nonnum = load_error("numactl-non-numeric.txt");
    CHECK(nonnum.line() == 13);
    CHECK(mentions(nonnum, "'2x'"));

    auto header = load_error("numactl-node-not-in-distances.txt");
    CHECK(header.line() == 12);
    CHECK(mentions(header, "node 2 is missing"));

    CHECK(load_error("numactl-bad-size.txt").line() == 6);
    auto direct = input_error_of([] { import_numactl("available: 1 nodes (0)\nnode 3 cpus: 0\n", "typed"); });
    CHECK(direct.line() == 2);
    CHECK(direct.source() == "typed");
}

TEST_CASE("schedscope sample format", "[import][sample]")
{
    Topology t = load("sample-good.topo");
    CHECK(t.name() == "test-3node");
    CHECK(t.numa_count() == 3);
    CHECK(t.pu_count() == 12);
    CHECK(t.obj(t.numa_node(2)).memory_bytes == 4ull << 30);
    CHECK(t.total_memory_bytes() == 7ull << 30);
    CHECK(t.node_distance(0, 1) == 15);
    CHECK(t.node_distance(2, 0) == 30);
    CHECK(t.obj(t.objects_of(ObjType::L2).front()).cache_size_bytes == 1ull << 20);
    bool has_assumption = false;
    for (const auto &n : t.notes())
        has_assumption |= n == "assumed: everything, it is a test";
    CHECK(has_assumption);
}

TEST_CASE("sample format errors name the line", "[import][sample][errors]")
{
    auto typo = load_error("sample-typo.topo");
    CHECK(typo.line() == 3);
    CHECK(mentions(typo, "'coer'"));
    CHECK(load_error("sample-short-matrix.topo").line() == 5);
    CHECK(load_error("sample-bad-row.topo").line() == 5);
    CHECK(load_error("sample-unknown-key.topo").line() == 3);
    CHECK(mentions(load_error("sample-v2.topo"), "unsupported sample format version"));
    CHECK(load_error("sample-memory-count.topo").line() == 3);
}

TEST_CASE("scenario JSON carries a topology", "[import][scenario]")
{
    CHECK(load("scenario-spec.json").pu_count() == 8);
    Topology obj = load("scenario-object.json");
    CHECK(obj.node_distance(0, 1) == 32);
    // A relative path inside a scenario is relative to the scenario file.
    CHECK(load("scenario-relative.json").pu_count() == 24);

    auto broken = load_error("scenario-broken.json");
    CHECK(broken.line() == 3);
    CHECK(load_error("scenario-no-topology.json").field() == "topology");
    CHECK(mentions(load_error("scenario-loop.json"), "loop"));
}

TEST_CASE("the running machine is detected", "[import][detect]")
{
    Topology t = load_topology("detect");
    CHECK(t.pu_count() >= 1);
    CHECK(t.numa_count() >= 1);
    CHECK(t.obj(t.root()).cpuset.count() == t.pu_count());
}
