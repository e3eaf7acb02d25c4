// Queries on the shipped samples whose answers follow from docs/background.md section 5.

#include "topology/import.h"
#include "topology_test_support.h"

using namespace schedscope;

namespace {
// Logical index of the PU with that OS number.
int pu_with_os(const Topology &t, int os)
{
    for (int p = 0; p < t.pu_count(); ++p)
        if (t.pu_os_index(p) == os)
            return p;
    FAIL("no PU P#" << os);
    return -1;
}
} // namespace

TEST_CASE("p3-xeon-8way: quads {0,5,6,7} and {1,2,3,4}, private 2 MB L2", "[samples][queries]")
{
    Topology t = load_topology("sample:p3-xeon-8way");
    REQUIRE(t.pu_count() == 8);
    REQUIRE(t.numa_count() == 2);
    const int p0 = pu_with_os(t, 0), p5 = pu_with_os(t, 5), p7 = pu_with_os(t, 7), p1 = pu_with_os(t, 1),
              p4 = pu_with_os(t, 4);
    CHECK(t.node_of_pu(p0) == t.node_of_pu(p5));
    CHECK(t.node_of_pu(p0) == t.node_of_pu(p7));
    CHECK(t.node_of_pu(p1) == t.node_of_pu(p4));
    CHECK(t.node_of_pu(p0) != t.node_of_pu(p1));

    CHECK(t.distance(p0, p5).cls == DistanceClass::SameNode);
    CHECK(t.distance(p0, p1) == PuDistance{DistanceClass::RemoteNode, 20});
    // Private L2: only the PU itself shares it.
    CHECK(t.pus_sharing_cache(p5, 2).members() == std::vector<int>{p5});
    CHECK(t.obj(t.ancestor_of_pu(p5, ObjType::L2)).cache_size_bytes == 2ull << 20);
    // Within a quad the LCA is the quad, across quads the machine.
    CHECK(t.obj(t.lowest_common_ancestor(p0, p7)).type == ObjType::Group);
    CHECK(t.lowest_common_ancestor(p0, p4) == t.root());
}

TEST_CASE("itanium-4way: flat, 9 MB private L3 per CPU, 32 GB", "[samples][queries]")
{
    Topology t = load_topology("sample:itanium-4way");
    REQUIRE(t.pu_count() == 4);
    CHECK(t.numa_count() == 1);
    CHECK(t.total_memory_bytes() == 32ull << 30);
    CHECK(t.last_cache_level() == 3);
    for (int a = 0; a < 4; ++a) {
        CHECK(t.pus_sharing_cache(a, 3).count() == 1);
        CHECK(t.obj(t.ancestor_of_pu(a, ObjType::L3)).cache_size_bytes == 9ull << 20);
        for (int b = 0; b < 4; ++b)
            if (a != b)
                CHECK(t.distance(a, b) == PuDistance{DistanceClass::SameNode, 10});
    }
    CHECK(t.lowest_common_ancestor(0, 3) == t.root());
}

TEST_CASE("power5-2node: SMT pairs, chip-wide L2 and L3, two nodes", "[samples][queries]")
{
    Topology t = load_topology("sample:power5-2node");
    REQUIRE(t.pu_count() == 8);
    CHECK(t.distance(0, 1).cls == DistanceClass::SameCore);
    CHECK(t.distance(0, 2).cls == DistanceClass::SharedL2); // the other core of the chip
    CHECK(t.pus_sharing_cache(0, 2).to_list_string() == "0-3");
    CHECK(t.pus_sharing_cache(0, 3).to_list_string() == "0-3");
    CHECK(t.pus_sharing_cache(0, 1).to_list_string() == "0-1");
    CHECK(t.distance(1, 6) == PuDistance{DistanceClass::RemoteNode, 20});
    CHECK(t.obj(t.lowest_common_ancestor(0, 3)).type == ObjType::L2);
    CHECK(t.obj(t.lowest_common_ancestor(0, 1)).type == ObjType::Core);
}

TEST_CASE("dl980-8node: SLIT levels and shared L3 per socket", "[samples][queries]")
{
    Topology t = load_topology("sample:dl980-8node");
    REQUIRE(t.pu_count() == 160);
    REQUIRE(t.numa_count() == 8);
    const int per_node = 20;
    CHECK(t.distance(0, 2).cls == DistanceClass::SharedL3);
    CHECK(t.distance(0, 1 * per_node) == PuDistance{DistanceClass::RemoteNode, 12});
    CHECK(t.distance(0, 2 * per_node) == PuDistance{DistanceClass::RemoteNode, 17});
    CHECK(t.distance(0, 7 * per_node).numa_distance == 19);
    CHECK(t.pus_of_node(3).to_list_string() == "60-79");
    CHECK(t.obj(t.lowest_common_ancestor(0, 19)).type == ObjType::L3);
}

TEST_CASE("numa-8node-64 and altix-1024: per-node memory and scale", "[samples][queries]")
{
    Topology t = load_topology("sample:numa-8node-64");
    CHECK(t.obj(t.numa_node(5)).memory_bytes == 32ull << 30);
    CHECK(t.obj(t.numa_node(6)).memory_bytes == 64ull << 30);
    CHECK(t.count(ObjType::Core) == 64);
    CHECK(t.distance(0, 8).numa_distance == 20);

    Topology altix = load_topology("sample:altix-1024");
    CHECK(altix.pu_count() == 1024);
    CHECK(altix.numa_count() == 512);
    CHECK(altix.node_of_pu(1023) == 511);
    CHECK(altix.distance(0, 1).cls == DistanceClass::SameNode);
    CHECK(altix.distance(0, 1023) == PuDistance{DistanceClass::RemoteNode, 20});
}

TEST_CASE("every sample loads and says what it assumed", "[samples]")
{
    for (const auto &s : list_sample_topologies()) {
        INFO(s.name);
        CHECK_FALSE(s.summary.empty());
        Topology t = load_topology("sample:" + s.name);
        CHECK(t.name() == s.name);
        bool has_assumption = false;
        for (const auto &n : t.notes())
            has_assumption |= n.rfind("assumed:", 0) == 0;
        CHECK(has_assumption);
    }
}
