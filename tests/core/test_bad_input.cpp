// The bad input catalogue (docs/reliability.md): every importer and the CLI
// refuse empty, truncated, binary, enormous, negative, NaN and out-of-range
// input with exit code 2 and one line naming what was wrong, within a time and
// memory bound, and leave any existing output file as it was.

#include "refusal_bounds.h"
#include "topology/import.h"
#include "topology_test_support.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

using namespace schedscope;
using namespace schedscope::testing;

namespace {

std::string bounded(const std::string &cli_args)
{
    const int timeout_s = refuse_timeout_s();
    std::string limit = kSanitized ? "" : "ulimit -v " + std::to_string(kRefuseAddressSpaceKiB) + "; ";
    // stderr is what we judge; stdout is dropped.
    return "(" + limit + "exec timeout -s KILL " + std::to_string(timeout_s) + " " + shell_quote(SCHEDSCOPE_CLI_PATH) +
           " " + cli_args + ") 2>&1 >/dev/null";
}

struct Refusal {
    int exit_code;
    std::string message;
};

Refusal refuse(const std::string &cli_args)
{
    auto r = run_command(bounded(cli_args));
    return {r.exit_code, r.out};
}

// Exit 2 (not a timeout's 137, not a crash), one line, naming `what`.
void check_refused(const std::string &cli_args, const std::string &what)
{
    INFO("schedscope-cli " << cli_args);
    const Refusal r = refuse(cli_args);
    INFO("stderr: " << r.message);
    CHECK(r.exit_code == 2);
    CHECK(std::count(r.message.begin(), r.message.end(), '\n') == 1);
    CHECK(r.message.find(what) != std::string::npos);
}

struct TempDir {
    std::filesystem::path path;
    TempDir()
    {
        path = std::filesystem::temp_directory_path() /
               ("schedscope-badinput-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++));
        std::filesystem::create_directories(path);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    std::string file(const std::string &name, const std::string &content) const
    {
        std::ofstream(path / name, std::ios::binary) << content;
        return (path / name).string();
    }
    std::string operator/(const std::string &name) const { return (path / name).string(); }
    static int &counter()
    {
        static int n = 0;
        return n;
    }
};

// `available: N nodes` with every node line and the full table header, and
// the first `rows` rows of its distance table.
std::string numactl_text(int nodes, int rows)
{
    std::string s = "available: " + std::to_string(nodes) + " nodes (0-" + std::to_string(nodes - 1) + ")\n";
    for (int n = 0; n < nodes; ++n)
        s += "node " + std::to_string(n) + " cpus: " + std::to_string(n) + "\nnode " + std::to_string(n) +
             " size: 1024 MB\nnode " + std::to_string(n) + " free: 512 MB\n";
    s += "node distances:\nnode";
    for (int n = 0; n < nodes; ++n)
        s += " " + std::to_string(n);
    s += "\n";
    for (int r = 0; r < rows; ++r) {
        s += std::to_string(r) + ":";
        for (int n = 0; n < nodes; ++n)
            s += n == r ? " 10" : " 20";
        s += "\n";
    }
    return s;
}

const std::string kRun = "run --topology sample:p4-ht-2way --policy simple --workload spin:work_ms=1 ";

} // namespace

TEST_CASE("importers refuse empty, truncated and binary files in one line", "[badinput]")
{
    TempDir d;
    const std::string xml = read_file(data_path("hwloc-xml/16em64t-4s2c2t.xml"));
    const std::string numactl = read_file(data_path("topology/numactl-2node.txt"));
    const std::string topo = read_file(data_path("topology/sample-good.topo"));
    std::string binary;
    for (int i = 0; i < 4096; ++i)
        binary += static_cast<char>((i * 7919) & 0xff);
    for (const std::string &path : {d.file("empty.xml", ""), d.file("half.xml", xml.substr(0, xml.size() / 2)),
                                    d.file("half-numactl.txt", numactl.substr(0, numactl.size() * 2 / 3)),
                                    d.file("half.topo", topo.substr(0, topo.size() / 2)), d.file("noise.bin", binary),
                                    d.file("nul.txt", std::string(1000, '\0'))})
        check_refused("topo --topology " + shell_quote(path), path);
}

TEST_CASE("enormous machines are refused before they are built", "[badinput]")
{
    TempDir d;
    // 100 000 PUs as a synthetic string, in a .topo and in a scenario.
    check_refused("topo --topology " + shell_quote("synthetic:pack:100 core:1000 pu:1"), "more than 8192 PUs");
    check_refused("topo --topology " + shell_quote(d.file("big.topo", "# schedscope-topology v1\n# name: big\n"
                                                                      "synthetic: pack:100 core:1000 pu:1\n")),
                  "more than 8192 PUs");
    // 10 000 NUMA nodes in a numactl table (its first rows; the whole one is
    // 300 MB), 5000 in a .topo with a uniform 5000 x 5000 matrix (a synthetic
    // level has at most 1024 children, a synthetic machine 8192 PUs).
    check_refused("topo --topology " + shell_quote(d.file("n10k.txt", numactl_text(10'000, 100))),
                  "10000 NUMA nodes, more than the 1024");
    check_refused("topo --topology " + shell_quote(d.file("n5k.topo", "# schedscope-topology v1\n# name: n5k\n"
                                                                      "synthetic: pack:5 core:1000 [numa] pu:1\n"
                                                                      "distances: uniform 10 20\n")),
                  "5000 NUMA nodes");
    check_refused("topo --topology " + shell_quote("synthetic:pack:5 core:1000 [numa] pu:1"), "5000 NUMA nodes");
    // Wide levels are slow in hwloc whatever the PU count.
    check_refused("topo --topology " + shell_quote("synthetic:pack:10000 [numa] pu:1"), "10000 children per object");
    // The same limits for hwloc XML, counted before hwloc sees the file:
    // 2000 sibling objects, and 9000 PUs in 9 packages of 1000.
    const std::string head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<topology version=\"2.0\">\n"
                             "<object type=\"Machine\" os_index=\"0\">\n";
    std::string wide = head, many = head;
    for (int i = 0; i < 2000; ++i)
        wide += "<object type=\"Core\" os_index=\"" + std::to_string(i) + "\"/>\n";
    for (int p = 0; p < 9; ++p) {
        many += "<object type=\"Package\" os_index=\"" + std::to_string(p) + "\">\n";
        for (int i = 0; i < 1000; ++i)
            many += "<object type=\"PU\" os_index=\"" + std::to_string(p * 1000 + i) + "\"/>\n";
        many += "</object>\n";
    }
    check_refused("topo --topology " + shell_quote(d.file("wide.xml", wide + "</object>\n</topology>\n")),
                  "line 3 has more than 1024 child objects");
    check_refused("topo --topology " + shell_quote(d.file("many.xml", many + "</object>\n</topology>\n")),
                  "more than 8192 PUs");
    // A file over the 64 MiB cap is refused from its size, unread.
    const std::string huge = d / "huge.txt";
    std::filesystem::resize_file(d.file("huge.txt", "available: 1 nodes (0)\n"), 65ull << 20);
    check_refused("topo --topology " + shell_quote(huge), huge);
}

TEST_CASE("the same limits hold for the importers called directly", "[badinput]")
{
    CHECK_THROWS_AS(import_numactl(numactl_text(2000, 0), "n2000"), InputError);
    CHECK_THROWS_AS(import_synthetic("pack:2000 [numa] pu:1"), InputError);
    CHECK_THROWS_AS(import_synthetic("pack:100 core:1000 pu:1"), InputError);
    // At the limit it still loads.
    CHECK(import_synthetic("pack:1024 [numa] pu:1").numa_count() == kMaxNumaNodes);
}

TEST_CASE("negative, NaN and out-of-range command-line values exit 2 naming the option", "[badinput]")
{
    check_refused(kRun + "--duration -5s", "--duration");
    check_refused(kRun + "--duration nan", "--duration");
    check_refused(kRun + "--duration 1e30s", "--duration");
    check_refused(kRun + "--duration 0", "--duration");
    check_refused(kRun + "--seed -1", "--seed");
    check_refused(kRun + "--seed 99999999999999999999999", "--seed");
    check_refused(kRun + "--seed nan", "--seed");
    check_refused(kRun + "--repeat 0", "--repeat");
    check_refused(kRun + "--jobs -1", "--jobs");
    check_refused("run --topology sample:p4-ht-2way --policy simple --workload spin:threads=-3", "threads");
    check_refused("run --topology sample:p4-ht-2way --policy simple --workload spin:work_ms=nan", "work_ms");
    check_refused("run --topology sample:p4-ht-2way --policy simple --workload hackbench:groups=1e12", "groups");
    check_refused("run --topology sample:p4-ht-2way --policy simple:nosuch=1 --workload spin", "nosuch");
    check_refused("run --topology sample:p4-ht-2way --policy sched-domains:cache_hot_time_ms=nan --workload spin",
                  "cache_hot_time_ms");
    check_refused("run --topology sample:p4-ht-2way --policy sched-domains:cache_hot_time_ms=-1 --workload spin",
                  "cache_hot_time_ms");
    check_refused("profile --topology sample:p4-ht-2way --mode model --factor nan", "--factor");
    check_refused("profile --topology sample:p4-ht-2way --mode model --factor -1", "--factor");
    check_refused("profile --topology sample:p4-ht-2way --mode model --reps -5", "--reps");
    TempDir d;
    check_refused("run --topology sample:p4-ht-2way --policy simple --workload spin --trace-max-mb nan --trace " +
                      shell_quote(d / "t.json"),
                  "--trace-max-mb");
}

TEST_CASE("a workload refuses a policy's parameter with exit 2, and lists only its own", "[badinput]")
{
    const std::string run = "run --topology sample:p4-ht-2way --policy simple --workload ";
    check_refused(run + "hackbench:groups=1,loops=2,wakeup=bogus", "wakeup");
    check_refused(run + "spin:work_ms=1,wakeup=queued", "wakeup");
    const Refusal r = refuse(run + "hackbench:groups=1,nosuch=1");
    INFO(r.message);
    CHECK(r.exit_code == 2);
    CHECK(r.message.find("nosuch") != std::string::npos);
    CHECK(r.message.find("known: groups, loops, send_us, receive_us") != std::string::npos);
    CHECK(r.message.find("wakeup") == std::string::npos);
}

TEST_CASE("bad scenario fields exit 2 naming the field", "[badinput]")
{
    TempDir d;
    auto scenario = [&](const std::string &extra) {
        return d.file("s.json", R"({"schedscope_scenario": 1, "topology": "sample:p4-ht-2way",
            "workload": {"name": "spin", "params": {"work_ms": "1"}}, "policies": [{"name": "simple"}])" +
                                    extra + "}");
    };
    struct Case {
        const char *extra;
        const char *names;
    };
    for (const Case &c :
         {Case{R"(, "duration_s": -1)", "duration_s"}, Case{R"(, "duration_s": 1e300)", "duration_s"},
          Case{R"(, "duration_s": "NaN")", "duration_s"}, Case{R"(, "seed": -1)", "seed"},
          Case{R"(, "seed": 1.5)", "seed"}, Case{R"(, "repeat": 0)", "repeat"},
          Case{R"(, "sample_interval_ms": 0)", "sample_interval_ms"}, Case{R"(, "model": {"tick_ns": -1})", "tick_ns"},
          Case{R"(, "model": {"tick_ns": 1e300})", "tick_ns"},
          Case{R"(, "model": {"no_such_constant": 1})", "no_such_constant"},
          // A queue counted up to 100 % utilisation would wait forever.
          Case{R"(, "model": {"queueing_max_utilisation": 1})", "queueing_max_utilisation"},
          Case{R"(, "model": {"queueing_max_utilisation": -0.1})", "queueing_max_utilisation"},
          Case{R"(, "policies": [{"name": "simple", "params": {"x": "1"}}])", "'x'"}}) {
        INFO(c.extra);
        check_refused("run --scenario " + shell_quote(scenario(c.extra)), c.names);
    }
    check_refused("run --scenario " + shell_quote(d.file("t.json", R"({"schedscope_scenario": 1, "topo)")),
                  "not valid JSON");
    check_refused("run --scenario " + shell_quote(d.file("deep.json", std::string(100'000, '[') + "]")), "deep.json");
    // A number beyond a double is nlohmann's out_of_range, not a parse_error
    // (fuzz_scenario): still one line naming the file and the line.
    check_refused("run --scenario " +
                      shell_quote(d.file("huge.json", "{\"schedscope_scenario\": 1,\n\"seed\": 1e999}")),
                  "huge.json:2: not valid JSON: number overflow");
}

TEST_CASE("a refused run leaves existing output files as they were", "[badinput]")
{
    TempDir d;
    const std::string keep = "precious contents\n";
    const std::string json = d.file("out.json", keep), saved = d.file("saved.json", keep),
                      trace = d.file("trace.json", keep), prof = d.file("profile.json", keep);
    std::filesystem::create_directories(d.path / "csv");
    const std::string summary = d.file("csv/summary.csv", keep);
    const std::string outputs = " --json " + shell_quote(json) + " --save-scenario " + shell_quote(saved) + " --csv " +
                                shell_quote(d / "csv") + " --trace " + shell_quote(trace);
    // Refused at each stage: the topology, a policy, a workload parameter
    // (checked only when the run is built), a model constant, the duration.
    for (const std::string &bad :
         {std::string("run --topology /no/such.xml --policy simple --workload spin"),
          std::string("run --topology sample:p4-ht-2way --policy simple:bogus=1 --workload spin"),
          std::string("run --topology sample:p4-ht-2way --policy simple --workload spin:work_ms=-1"),
          std::string("run --topology sample:p4-ht-2way --policy simple --workload spin --duration nan")}) {
        INFO(bad);
        CHECK(refuse(bad + outputs).exit_code == 2);
        for (const auto &f : {json, saved, trace, summary})
            CHECK(read_file(f) == keep);
    }
    CHECK(refuse("profile --topology synthetic:pak:2 --mode model --save " + shell_quote(prof) + " --json " +
                 shell_quote(prof))
              .exit_code == 2);
    CHECK(read_file(prof) == keep);
}
