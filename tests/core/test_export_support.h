#pragma once
// Small runs and temp directories shared by the export tests.

#include "scenario/run.h"
#include "scenario/scenario.h"
#include "test_files.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace schedscope::export_test {

// 2 nodes x 2 cores x 2 PUs: SMT, shared caches and a remote node, small
// enough that a whole run takes milliseconds.
inline Scenario small_scenario(const std::string &workload, const ParamMap &params, double duration_s = 0)
{
    Scenario s;
    s.topology = "synthetic:pack:2 [numa] core:2 pu:2";
    s.workload = WorkloadSpec{workload, params};
    s.sample_interval_ms = 5;
    s.duration_s = duration_s;
    return s;
}

inline Simulation small_sim(const Scenario &s, const std::string &policy, ParamMap params = {})
{
    return build_simulation(s, PolicySpec{policy, std::move(params)}, s.seed, scenario_topology(s));
}

inline Scenario hackbench() { return small_scenario("hackbench", {{"groups", "1"}, {"loops", "10"}}); }
inline Scenario numa01() { return small_scenario("numa01", {{"memory_mb", "32"}, {"loops", "2"}, {"threads", "4"}}); }

// A fresh directory under the system temp dir, removed with the object.
struct TempDir {
    std::filesystem::path path;
    TempDir()
    {
        static int n = 0;
        path = std::filesystem::temp_directory_path() /
               ("schedscope-export-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    std::string file(const std::string &name) const { return (path / name).string(); }
    // Names of the files in the directory, to catch stray temporaries.
    std::vector<std::string> entries() const
    {
        std::vector<std::string> out;
        for (auto &e : std::filesystem::directory_iterator(path))
            out.push_back(e.path().filename().string());
        std::sort(out.begin(), out.end());
        return out;
    }
};

using schedscope::test::read_file;

} // namespace schedscope::export_test
