// `schedscope-cli profile`: exit codes, output files and Ctrl-C, through the
// real binary.

#include "test_files.h"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

struct TempDir : schedscope::test::TempDir {
    TempDir() : schedscope::test::TempDir("schedscope-prof-cli") {}
};
using schedscope::test::read_file;

// Runs the CLI with `args` (shell syntax), stdout and stderr to files in
// `dir`; returns the exit code.
int cli(const TempDir &dir, const std::string &args, const std::string &prefix = "")
{
    const std::string cmd = prefix + "'" + std::string(SCHEDSCOPE_CLI_PATH) + "' profile " + args + " >'" +
                            (dir.path / "out.txt").string() + "' 2>'" + (dir.path / "err.txt").string() + "'";
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

} // namespace

TEST_CASE("cli profile: bad input exits 2 and leaves existing output alone", "[profiler][cli]")
{
    TempDir dir;
    const fs::path out = dir.path / "existing.json";
    std::ofstream(out) << "keep me";
    const std::string json = " --json '" + out.string() + "'";
    CHECK(cli(dir, "--topology sample:p3-xeon-8way --mode fast" + json) == 2);
    CHECK(cli(dir, "--topology sample:p3-xeon-8way --pairs some" + json) == 2);
    CHECK(cli(dir, "--topology sample:p3-xeon-8way --level L4" + json) == 2);
    CHECK(cli(dir, "--topology sample:p3-xeon-8way --level L3" + json) == 2);
    CHECK(cli(dir, "--topology sample:p3-xeon-8way --factor 0" + json) == 2);
    CHECK(cli(dir, "--topology sample:p3-xeon-8way --reps 0 --mode model" + json) == 2);
    CHECK(cli(dir, "--topology sample:p3-xeon-8way --mode measure" + json) == 2);
    CHECK(read_file(dir.path / "err.txt").find("measure mode") != std::string::npos);
    CHECK(cli(dir, "--topology sample:no-such-machine" + json) == 2);
    CHECK(cli(dir, "--topology 'synthetic:pack:2 core:2 pu:1' --json '" + (dir.path / "nodir" / "x.json").string() +
                       "'") == 2);
    CHECK(cli(dir, "--reps abc") == 2);
    CHECK(read_file(out) == "keep me");
}

TEST_CASE("cli profile: model mode prints the boot log and writes the JSON", "[profiler][cli]")
{
    TempDir dir;
    const fs::path json = dir.path / "p.json";
    const fs::path saved = dir.path / "saved.json";
    REQUIRE(cli(dir, "--topology 'synthetic:pack:2 [numa] l2:2(size=1MiB) core:1 pu:1' --json '" + json.string() +
                         "' --save '" + saved.string() + "'") == 0);
    const std::string out = read_file(dir.path / "out.txt");
    CHECK(out.find("[00]    [01]    [02]    [03]") != std::string::npos);
    CHECK(out.find("mode: model") != std::string::npos);
    auto doc = nlohmann::json::parse(read_file(json));
    CHECK(doc["matrix"].size() == 4);
    CHECK(doc["classes"].is_array());
    CHECK(doc["min_offdiag_ms"].is_number());
    CHECK(doc["cache_hot_time_ms"]["NUMA"].is_number());
    CHECK(read_file(saved) == read_file(json));
}

TEST_CASE("cli profile: Ctrl-C stops a measurement and prints what it has", "[profiler][cli][measure]")
{
    TempDir dir;
    const fs::path json = dir.path / "partial.json";
    const fs::path saved = dir.path / "saved.json";
    // Enough repetitions to outlast the timeout by far; SIGINT arrives
    // mid-measurement and the run must come back promptly with exit 130.
    const int rc = cli(dir, "--factor 0.5 --reps 10000 --json '" + json.string() + "' --save '" + saved.string() + "'",
                       "timeout --preserve-status -s INT 2 ");
    CHECK(rc == 130);
    CHECK(read_file(dir.path / "out.txt").find("[00]") != std::string::npos);
    CHECK(read_file(dir.path / "err.txt").find("interrupted") != std::string::npos);
    auto doc = nlohmann::json::parse(read_file(json));
    CHECK(doc["complete"] == false);
    CHECK_FALSE(fs::exists(saved));
}

TEST_CASE("cli profile: more Ctrl-Cs after the first still leave the partial JSON", "[profiler][cli][measure]")
{
    // timeout(1) signals the child and then its process group, so the first
    // test's run gets SIGINT twice; a user may press Ctrl-C twice. Here the
    // signals keep coming, back to back, until the process is gone: none of
    // them may land between the end of the measurement and the write. `set
    // -m` keeps bash from starting the background job with SIGINT ignored.
    TempDir dir;
    const fs::path json = dir.path / "partial.json";
    const fs::path script = dir.path / "spray.sh";
    std::ofstream(script) << "set -m\n'" << SCHEDSCOPE_CLI_PATH << "' profile --factor 0.5 --reps 10000 --json '"
                          << json.string() << "' >'" << (dir.path / "out.txt").string() << "' 2>'"
                          << (dir.path / "err.txt").string() << "' &\n"
                          << "pid=$!\nsleep 1\nwhile kill -INT $pid 2>/dev/null; do :; done\nwait $pid\n";
    const int status = std::system(("bash '" + script.string() + "' 2>/dev/null").c_str());
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 130);
    CHECK(read_file(dir.path / "err.txt").find("interrupted") != std::string::npos);
    auto doc = nlohmann::json::parse(read_file(json));
    CHECK(doc["complete"] == false);
}

TEST_CASE("cli profile: a PU outside the process's affinity is skipped and reported", "[profiler][cli][measure]")
{
    if (std::system("taskset -c 0 true >/dev/null 2>&1") != 0 || sysconf(_SC_NPROCESSORS_ONLN) < 2) {
        WARN("taskset unavailable or a single CPU: not checked");
        return;
    }
    TempDir dir;
    const fs::path json = dir.path / "p.json";
    REQUIRE(cli(dir, "--factor 0.05 --reps 2 --json '" + json.string() + "'", "taskset -c 0 ") == 0);
    auto doc = nlohmann::json::parse(read_file(json));
    CHECK_FALSE(doc["skipped_pus"].empty());
    CHECK(doc["matrix"][0][0].is_number());
    CHECK(read_file(dir.path / "out.txt").find("skipped PUs") != std::string::npos);
}
