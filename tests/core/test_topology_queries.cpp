// Queries of the topology model on synthetic machines whose answers are known
// by construction.

#include "topology/import.h"
#include "util/input_error.h"

#include <catch2/catch.hpp>

using namespace schedscope;

TEST_CASE("synthetic 2-package machine: counts, cpusets and logical order", "[topology]")
{
    // 2 packages, each with its NUMA node, a shared L3, 2 cores with private
    // L2 and L1, 2 PUs per core: 8 PUs.
    Topology t = import_synthetic("pack:2 [numa] l3:1 l2:2 l1:1 core:1 pu:2");
    CHECK(t.count(ObjType::Package) == 2);
    CHECK(t.numa_count() == 2);
    CHECK(t.count(ObjType::L3) == 2);
    CHECK(t.count(ObjType::L2) == 4);
    CHECK(t.count(ObjType::L1) == 4);
    CHECK(t.count(ObjType::Core) == 4);
    CHECK(t.pu_count() == 8);
    CHECK(t.last_cache_level() == 3);

    CHECK(t.obj(t.root()).cpuset.count() == 8);
    auto packages = t.objects_of(ObjType::Package);
    REQUIRE(packages.size() == 2);
    CHECK(t.obj(packages[0]).cpuset.to_list_string() == "0-3");
    CHECK(t.obj(packages[1]).cpuset.to_list_string() == "4-7");
    CHECK(t.obj(packages[1]).logical_index == 1);
    for (int p = 0; p < t.pu_count(); ++p)
        CHECK(t.obj(t.pu(p)).logical_index == p);

    // A NUMA node's cpuset is its parent's.
    CHECK(t.obj(t.numa_node(1)).cpuset == t.obj(packages[1]).cpuset);
    CHECK(t.node_of_pu(2) == 0);
    CHECK(t.node_of_pu(5) == 1);
    CHECK(t.pus_of_node(1).to_list_string() == "4-7");
}

TEST_CASE("distance classes from closest to farthest", "[topology]")
{
    Topology t = import_synthetic("pack:2 [numa] l3:1 l2:2 l1:1 core:1 pu:2");
    CHECK(t.distance(3, 3).cls == DistanceClass::Self);
    CHECK(t.distance(0, 1).cls == DistanceClass::SameCore);
    CHECK(t.distance(0, 2).cls == DistanceClass::SharedL3);
    CHECK(t.distance(0, 2).numa_distance == 10);
    CHECK(t.distance(0, 4).cls == DistanceClass::RemoteNode);
    CHECK(t.distance(0, 4).numa_distance == 20); // no matrix: default remote

    // Shared L1 without a shared core counts as a shared L2.
    Topology l1shared = import_synthetic("pack:1 l2:1 l1:1 core:2 pu:1");
    CHECK(l1shared.distance(0, 1).cls == DistanceClass::SharedL2);

    // Same package without shared caches, single node.
    Topology nocache = import_synthetic("pack:2 core:2 pu:1");
    CHECK(nocache.distance(0, 1).cls == DistanceClass::SamePackage);
    CHECK(nocache.distance(0, 2).cls == DistanceClass::SameNode);
    CHECK(nocache.numa_count() == 1);

    // A package split in two nodes: the node boundary wins over the package.
    Topology split = import_synthetic("pack:1 group:2 [numa] core:2 pu:1");
    CHECK(split.distance(0, 2).cls == DistanceClass::RemoteNode);
    CHECK(split.distance(0, 1).cls == DistanceClass::SamePackage);
}

TEST_CASE("shared caches, ancestors and lowest common ancestor", "[topology]")
{
    Topology t = import_synthetic("pack:2 [numa] l3:1 l2:2 l1:1 core:1 pu:2");
    CHECK(t.pus_sharing_cache(5, 3).to_list_string() == "4-7");
    CHECK(t.pus_sharing_cache(5, 2).to_list_string() == "4-5");
    CHECK(t.pus_sharing_cache(5, 1).to_list_string() == "4-5");
    CHECK(t.pus_sharing_cache(5, 4).empty());

    auto caches = t.caches_of_pu(6);
    REQUIRE(caches.size() == 3);
    CHECK(t.obj(caches[0]).type == ObjType::L1);
    CHECK(t.obj(caches[2]).type == ObjType::L3);

    CHECK(t.obj(t.lowest_common_ancestor(0, 1)).type == ObjType::Core);
    CHECK(t.obj(t.lowest_common_ancestor(0, 3)).type == ObjType::L3);
    CHECK(t.lowest_common_ancestor(0, 7) == t.root());
    CHECK(t.obj(t.lowest_common_ancestor(2, 2)).type == ObjType::PU);

    ObjId pkg = t.ancestor_of_pu(6, ObjType::Package);
    REQUIRE(pkg != kNoObj);
    CHECK(t.obj(pkg).logical_index == 1);
    CHECK(t.ancestor_of_pu(6, ObjType::Group) == kNoObj);
    CHECK(t.obj(t.ancestor_of_pu(6, ObjType::NUMANode)).logical_index == 1);
}

// hwloc reads "GB" as 10^9 and "GiB" as 2^30.
TEST_CASE("synthetic attributes reach the model", "[topology]")
{
    Topology t = import_synthetic("pack:2 [numa(memory=1GiB)] l2:2(size=2MiB) core:1 pu:1");
    CHECK(t.total_memory_bytes() == 2ull * 1024 * 1024 * 1024);
    auto l2 = t.objects_of(ObjType::L2);
    REQUIRE(l2.size() == 4);
    CHECK(t.obj(l2[0]).cache_size_bytes == 2ull * 1024 * 1024);
    CHECK(t.obj(t.pu(3)).os_index == 3);
}

TEST_CASE("synthetic strings with mistakes are InputErrors naming the token", "[topology][errors]")
{
    try {
        import_synthetic("pak:2 core:2 pu:1");
        FAIL("typo accepted");
    } catch (const InputError &e) {
        CHECK(e.source() == "synthetic:pak:2 core:2 pu:1");
        CHECK(std::string(e.what()).find("'pak'") != std::string::npos);
    }
    CHECK_THROWS_AS(import_synthetic(""), InputError);
    CHECK_THROWS_AS(import_synthetic("pack:x pu:2"), InputError);
    CHECK_THROWS_AS(import_synthetic("pack:1000 core:1000 pu:1000"), InputError);
}
