// The built schedscope-cli: exit codes, one JSON object, one-line errors.

#include "topology_test_support.h"

#include <nlohmann/json.hpp>

using namespace schedscope::testing;

namespace {
CommandResult cli(const std::string &args, bool stderr_to_stdout = false)
{
    return run_command(shell_quote(SCHEDSCOPE_CLI_PATH) + " " + args + (stderr_to_stdout ? " 2>&1" : " 2>/dev/null"));
}
} // namespace

TEST_CASE("topo --json prints exactly one object with the counts", "[cli]")
{
    auto r = cli("topo --topology sample:westmere-2s --json");
    REQUIRE(r.exit_code == 0);
    auto j = nlohmann::json::parse(r.out); // throws if there is anything but one JSON value
    CHECK(j["packages"] == 2);
    CHECK(j["numa_nodes"] == 2);
    CHECK(j["cores"] == 12);
    CHECK(j["pus"] == 24);
    CHECK(j["caches"] == nlohmann::json{{"L1", 12}, {"L2", 12}, {"L3", 2}});
    CHECK(j["memory_bytes"] == 24ull << 30);
    CHECK(j["distances"] == nlohmann::json::array({{10, 20}, {20, 10}}));
}

TEST_CASE("topo --json on a file and on numactl text", "[cli]")
{
    auto xml = cli("topo -t " + shell_quote(data_path("hwloc-xml/96em64t-4n4d3ca2co-pci.xml")) + " --json");
    REQUIRE(xml.exit_code == 0);
    auto j = nlohmann::json::parse(xml.out);
    CHECK(j["pus"] == 96);
    CHECK(j["distances"][0][1] == 26);

    auto numactl = cli("topo -t " + shell_quote(data_path("topology/numactl-2node.txt")) + " --json");
    REQUIRE(numactl.exit_code == 0);
    auto n = nlohmann::json::parse(numactl.out);
    CHECK(n["caches"].empty());
    CHECK(n["caches_known"] == false);
}

TEST_CASE("topo prints a factorised tree, the matrix and a summary", "[cli]")
{
    auto r = cli("topo --topology sample:dl980-8node");
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("8 x Package") != std::string::npos);
    CHECK(r.out.find("10 x L2") != std::string::npos);
    CHECK(r.out.find("  3:  17  17  12  10  19  19  19  19") != std::string::npos);
    CHECK(r.out.find("80 cores, 160 PUs") != std::string::npos);
    // 1024 PUs must not print 1024 lines.
    auto big = cli("topo --topology sample:altix-1024");
    REQUIRE(big.exit_code == 0);
    CHECK(std::count(big.out.begin(), big.out.end(), '\n') < 40);
}

TEST_CASE("bad input exits 2 with one line naming the source", "[cli][errors]")
{
    for (const std::string &spec :
         {data_path("topology/v3.xml"), data_path("topology/binary.bin"), data_path("topology/empty.txt"),
          data_path("topology/truncated.xml"), data_path("topology/numactl-missing-row.txt"),
          std::string("/no/such/file.xml"), std::string("synthetic:pak:2 pu:2"), std::string("sample:nope")}) {
        INFO(spec);
        auto r = cli("topo --topology " + shell_quote(spec), true);
        CHECK(r.exit_code == 2);
        CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1);
        CHECK(r.out.find(spec) != std::string::npos);
    }
}

TEST_CASE("list shows every sample topology under a heading", "[cli]")
{
    auto r = cli("list");
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.rfind("Topologies:\n", 0) == 0);
    for (const char *name : {"nec-tx7", "p3-xeon-8way", "altix-1024", "dl980-8node", "itanium-4way"})
        CHECK(r.out.find(std::string("  ") + name) != std::string::npos);
}
