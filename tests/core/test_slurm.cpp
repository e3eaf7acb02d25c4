// Sweeps on Slurm without a cluster: which points each array task runs, the
// split at the array limit, the script's body, collect's merge (the local
// sweep's table and JSON byte for byte) and its missing / failed / bad-file
// detection. tests/slurm/ runs the same against a real one-node cluster.

#include "sweep/slurm_array.h"
#include "sweep/slurm_collect.h"
#include "sweep/slurm_reproduce.h"
#include "sweep/slurm_tools.h"
#include "sweep/sweep.h"
#include "util/input_error.h"

#include "test_files.h"
#include "topology_test_support.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>

using namespace schedscope;
namespace fs = std::filesystem;

namespace {

// Figures that print with many digits, so a merge that lost a bit shows.
SweepRun awkward_run(const ParamMap &p, std::uint64_t seed)
{
    const double v = std::stod(p.at("knob"));
    SweepRun r;
    r.elapsed_s = 10.0 / (3.0 + v) + static_cast<double>(seed) / 7.0;
    r.throughput = std::sqrt(2.0) * (1.0 + v) / 3.0;
    r.idle_pct = 100.0 / (11.0 + static_cast<double>(seed));
    r.user_s = std::exp(-v) / 9.0;
    r.sys_s = 1e-17 * static_cast<double>(seed);
    return r;
}

SweepSpec spec_of(std::vector<std::string> values, int repeat)
{
    SweepSpec spec;
    spec.policy = "sched-domains";
    spec.base_params = {{"other", "x"}};
    spec.param = "knob";
    spec.values = std::move(values);
    spec.repeat = repeat;
    spec.base_seed = 3;
    spec.fixed_work = true;
    return spec;
}

SlurmSweep manifest_of(const SweepSpec &spec)
{
    SlurmSweep m;
    m.scenario_name = "Test scenario";
    m.workload_name = "test-load";
    m.spec = spec;
    m.fingerprint = sweep_fingerprint("scenario text", spec);
    m.command = {"/bin/true"};
    return m;
}

// Writes every point's result as the array tasks would.
void write_all(const std::string &dir, const SlurmSweep &m)
{
    fs::create_directories(fs::path(dir) / "points");
    for (std::size_t i = 0; i < sweep_point_count(m.spec); ++i)
        write_point_result(dir, m, i, awkward_run(sweep_point_params(m.spec, i), sweep_point_seed(m.spec, i)));
}

std::string error_of(const std::function<void()> &f)
{
    try {
        f();
    } catch (const InputError &e) {
        return e.what();
    }
    FAIL("expected an InputError");
    return {};
}

} // namespace

TEST_CASE("array tasks: consecutive points in chunks, every point once", "[slurm]")
{
    CHECK(chunk_points({0, 1, 2, 5, 6}, 2) == std::vector<PointRange>{{0, 1}, {2, 2}, {5, 6}});
    CHECK(chunk_points({0, 1, 2, 3, 5, 6, 9}, 3) == std::vector<PointRange>{{0, 2}, {3, 3}, {5, 6}, {9, 9}});
    CHECK(chunk_points({4, 7}, 1) == std::vector<PointRange>{{4, 4}, {7, 7}});
    CHECK(chunk_points({}, 5).empty());
    for (std::size_t n : {1u, 7u, 20u, 1001u, 2503u})
        for (std::size_t chunk : {1u, 3u, 1000u})
            for (std::size_t limit : {1u, 8u, 1001u}) {
                std::vector<std::size_t> all(n);
                for (std::size_t i = 0; i < n; ++i)
                    all[i] = i;
                const auto arrays = split_arrays(chunk_points(all, chunk), limit);
                std::size_t next = 0;
                for (const auto &a : arrays) {
                    CHECK(!a.empty());
                    CHECK(a.size() <= limit);
                    for (const auto &t : a) {
                        CHECK(t.first == next); // in order, no gap, no overlap
                        CHECK(t.size() <= chunk);
                        next = t.last + 1;
                    }
                }
                CHECK(next == n);
                // Only the last array is short.
                for (std::size_t k = 0; k + 1 < arrays.size(); ++k)
                    CHECK(arrays[k].size() == limit);
            }
}

TEST_CASE("a sweep larger than MaxArraySize is split", "[slurm]")
{
    std::vector<std::size_t> all(20);
    for (std::size_t i = 0; i < all.size(); ++i)
        all[i] = i;
    const auto arrays = split_arrays(chunk_points(all, 1), 8);
    REQUIRE(arrays.size() == 3);
    CHECK(arrays[0].size() == 8);
    CHECK(arrays[1].front() == PointRange{8, 8});
    CHECK(arrays[2].size() == 4);
    CHECK(split_arrays(chunk_points(all, 1), kDefaultMaxArraySize).size() == 1);
}

TEST_CASE("MaxArraySize from scontrol show config", "[slurm]")
{
    const std::string config = "Configuration data as of 2026-12-04T10:00:00\n"
                               "MaxArraySize            = 8\n"
                               "MaxJobCount             = 10000\n";
    CHECK(parse_max_array_size(config) == std::optional<std::size_t>(8));
    CHECK(parse_max_array_size("MaxArraySizeX = 5\nMaxArraySize = 40000\n") == std::optional<std::size_t>(40000));
    CHECK_FALSE(parse_max_array_size("MaxJobCount = 10\n"));
    CHECK_FALSE(parse_max_array_size("MaxArraySize = 0\n")); // arrays disabled
    CHECK_FALSE(parse_max_array_size("MaxArraySize = lots\n"));
    CHECK_FALSE(parse_max_array_size(""));
}

TEST_CASE("point ranges parse and refuse what lies outside the sweep", "[slurm]")
{
    CHECK(parse_point_range("7", 20, "--points") == PointRange{7, 7});
    CHECK(parse_point_range("3-19", 20, "--points") == PointRange{3, 19});
    CHECK(point_range_text({3, 19}) == "3-19");
    CHECK(point_range_text({4, 4}) == "4");
    CHECK(error_of([] { parse_point_range("20", 20, "--points"); }).find("outside 0-19") != std::string::npos);
    CHECK(error_of([] { parse_point_range("5-2", 20, "--points"); }).find("--points") == 0);
    for (const char *bad : {"", "-", "a", "1-", "-3", "1-2-3", "1 ", "99999999999999999999999"})
        CHECK(error_of([&] { parse_point_range(bad, 20, "--points"); }).find("expected a point") != std::string::npos);
}

TEST_CASE("squeue lines map to array tasks", "[slurm]")
{
    const auto tasks = parse_squeue("41_3|schedscope-ab-sweep|RUNNING\n"
                                    "41_12|schedscope-ab-sweep|PENDING\n"
                                    "42|plain-job|RUNNING\n"
                                    "43_[4-9]|other|PENDING\n"
                                    "garbage\n");
    REQUIRE(tasks.size() == 2);
    CHECK(tasks[0].job_id == "41");
    CHECK(tasks[0].task == 3);
    CHECK(tasks[0].state == "RUNNING");
    CHECK(tasks[1].task == 12);
    CHECK(tasks[1].job_name == "schedscope-ab-sweep");
}

TEST_CASE("sacct lines map to array tasks and how they ended", "[slurm]")
{
    const auto tasks = parse_sacct("41_3|COMPLETED|0:0\n"
                                   "41_4|CANCELLED by 0|0:15\n"
                                   "41_[5-9]|PENDING|0:0\n"
                                   "42|FAILED|1:0\n");
    REQUIRE(tasks.size() == 2);
    CHECK(tasks[1].job_id == "41");
    CHECK(tasks[1].task == 4);
    CHECK(tasks[1].state == "CANCELLED by 0");
    CHECK(tasks[1].exit_code == "0:15");
}

TEST_CASE("the array script runs its task's points with the sweep's command", "[slurm]")
{
    test::TempDir dir("schedscope-slurm-script");
    ArrayScript s;
    s.job_name = "schedscope-test";
    s.log_dir = (dir.path / "logs").string();
    s.command = {"/bin/echo", "sweep", "--scenario", "/a path/with 'quotes'.json", "--param", "knob=1,2"};
    s.tasks = {{0, 1}, {2, 2}, {3, 4}};
    s.total_points = 9;
    s.options = {"--partition=long", "--time=1:00:00"};
    const std::string text = array_script_text(s);
    CHECK(text.find("#SBATCH --partition=long\n#SBATCH --time=1:00:00\n") != std::string::npos);
    CHECK(text.rfind("#!/bin/bash\n", 0) == 0);
    CHECK(text.find("#SBATCH --array=0-2\n") != std::string::npos);
    CHECK(text.find("#SBATCH --job-name=schedscope-test\n") != std::string::npos);
    CHECK(text.find("#SBATCH --output=" + s.log_dir + "/%A_%a.out\n") != std::string::npos);
    CHECK(text.find("running 5 of the sweep's 9 points (0 to 4)") != std::string::npos);
    // Run the body as Slurm would for task 2: the words arrive unchanged.
    const fs::path script = dir.path / "s.sbatch";
    std::ofstream(script) << text;
    const auto r = testing::run_command("SLURM_ARRAY_TASK_ID=2 bash " + testing::shell_quote(script.string()));
    CHECK(r.exit_code == 0);
    CHECK(r.out == "sweep --scenario /a path/with 'quotes'.json --param knob=1,2 --points 3-4\n");
    const auto r0 = testing::run_command("SLURM_ARRAY_TASK_ID=0 bash " + testing::shell_quote(script.string()));
    CHECK(r0.out.find("--points 0-1\n") != std::string::npos);
}

TEST_CASE("collect merges points into the local sweep's table and JSON, byte for byte", "[slurm]")
{
    test::TempDir dir("schedscope-slurm-merge");
    const std::string d = dir.path.string();
    const SweepSpec spec = spec_of({"0", "0.5", "2", "7"}, 5); // 20 points
    const SlurmSweep m = manifest_of(spec);
    write_slurm_sweep(d, m);
    write_all(d, m);
    const SlurmSweep back = read_slurm_sweep(d);
    CHECK(slurm_sweep_json(back) == slurm_sweep_json(m));
    const auto status = scan_points(d, back);
    REQUIRE(status.size() == 20);
    CHECK(points_not_done(status).empty());
    const SweepResult collected = collect_result(back, status);
    const SweepResult local = run_sweep(spec, awkward_run, 2);
    CHECK(sweep_report("Test scenario", "test-load", collected) == sweep_report("Test scenario", "test-load", local));
    CHECK(sweep_report_json("Test scenario", "test-load", collected) ==
          sweep_report_json("Test scenario", "test-load", local));
    // Bit for bit, not only as printed.
    for (std::size_t v = 0; v < local.points.size(); ++v)
        for (std::size_t k = 0; k < local.points[v].runs.size(); ++k) {
            CHECK(collected.points[v].runs[k].elapsed_s == local.points[v].runs[k].elapsed_s);
            CHECK(collected.points[v].runs[k].sys_s == local.points[v].runs[k].sys_s);
        }
}

TEST_CASE("collect names missing, failed and unreadable points and never drops one", "[slurm]")
{
    test::TempDir dir("schedscope-slurm-missing");
    const std::string d = dir.path.string();
    const SweepSpec spec = spec_of({"0", "1", "2", "3"}, 2); // 8 points
    const SlurmSweep m = manifest_of(spec);
    write_slurm_sweep(d, m);
    write_all(d, m);

    fs::remove(slurm_point_path(d, 1)); // killed task: nothing written
    fs::remove(slurm_point_path(d, 2)); // the run threw
    write_point_failure(d, 2, "a run with knob=1 did not finish");
    const std::string truncated = test::read_file(slurm_point_path(d, 3));
    std::ofstream(slurm_point_path(d, 3), std::ios::trunc) << truncated.substr(0, truncated.size() / 2);
    std::ofstream(slurm_point_path(d, 4), std::ios::trunc) << ""; // empty
    {
        SlurmSweep other = m; // another sweep's point
        other.fingerprint = sweep_fingerprint("other scenario", spec);
        write_point_result(d, other, 5, awkward_run(sweep_point_params(spec, 5), sweep_point_seed(spec, 5)));
    }
    {
        auto j = nlohmann::json::parse(test::read_file(slurm_point_path(d, 6)));
        j["run"].erase("idle_pct"); // a field gone
        std::ofstream(slurm_point_path(d, 6), std::ios::trunc) << j.dump();
    }

    const auto status = scan_points(d, m);
    CHECK(points_not_done(status) == std::vector<std::size_t>{1, 2, 3, 4, 5, 6});
    CHECK(status[0].state == PointState::done);
    CHECK(status[7].state == PointState::done);
    CHECK(status[1].state == PointState::missing);
    CHECK(status[2].state == PointState::failed);
    CHECK(status[2].message == slurm_failure_path(d, 2) + ": a run with knob=1 did not finish");
    for (std::size_t p : {3u, 4u, 5u, 6u}) {
        CHECK(status[p].state == PointState::failed);
        CHECK(status[p].message.rfind(slurm_point_path(d, p) + ":", 0) == 0); // names the file
    }
    CHECK(status[3].message.find("not valid JSON") != std::string::npos);
    CHECK(status[5].message.find("another sweep") != std::string::npos);
    CHECK(status[6].message.find("run.idle_pct") != std::string::npos);
    CHECK(error_of([&] { collect_result(m, status); }).find("6 of 8 points are not done") != std::string::npos);

    // A point written again (the re-run) replaces its failure.
    write_point_result(d, m, 2, awkward_run(sweep_point_params(spec, 2), sweep_point_seed(spec, 2)));
    CHECK_FALSE(fs::exists(slurm_failure_path(d, 2)));
    CHECK(scan_points(d, m)[2].state == PointState::done);
}

TEST_CASE("a bad manifest names the file and the field", "[slurm]")
{
    test::TempDir dir("schedscope-slurm-manifest");
    const std::string d = dir.path.string();
    const std::string path = slurm_manifest_path(d);
    CHECK(error_of([&] { read_slurm_sweep(d); }).find(path + ": cannot read it") == 0);
    std::ofstream(path) << "{\"schedscope_slurm_sweep\": 1, \"scen";
    CHECK(error_of([&] { read_slurm_sweep(d); }).find(path + ":1: not valid JSON") == 0);
    auto j = slurm_sweep_json(manifest_of(spec_of({"0", "1"}, 1)));
    j["spec"]["repeat"] = "two";
    std::ofstream(path, std::ios::trunc) << j.dump();
    CHECK(error_of([&] { read_slurm_sweep(d); }) == path + ": field 'spec.repeat': expected a whole number");
    j = slurm_sweep_json(manifest_of(spec_of({"0", "1"}, 1)));
    j["scripts"] = {{{"file", "s.sbatch"}, {"job_name", "n"}, {"tasks", {"0-5"}}, {"jobs", nlohmann::json::array()}}};
    std::ofstream(path, std::ios::trunc) << j.dump();
    CHECK(error_of([&] { read_slurm_sweep(d); }).find("scripts[0].tasks[0]") != std::string::npos);
}

TEST_CASE("array scripts for the missing points, chunked and split like the first", "[slurm]")
{
    test::TempDir dir("schedscope-slurm-rerun");
    const std::string d = dir.path.string();
    SlurmSweep m = manifest_of(spec_of({"0", "1", "2", "3", "4"}, 4)); // 20 points
    m.chunk = 2;
    m.max_array_size = 3;
    std::vector<std::size_t> all(20);
    for (std::size_t i = 0; i < all.size(); ++i)
        all[i] = i;
    const auto first = write_array_scripts(d, m, all, "sweep");
    REQUIRE(first.size() == 4); // 10 tasks of 2 points, 3 per array
    CHECK(m.scripts[0].file == "sweep-1.sbatch");
    CHECK(m.scripts[3].tasks == std::vector<PointRange>{{18, 19}});
    CHECK(fs::exists(dir.path / "sweep-4.sbatch"));
    CHECK(next_rerun_stem(m.scripts) == "rerun-1");
    const auto again = write_array_scripts(d, m, {1, 2, 3, 9}, next_rerun_stem(m.scripts));
    REQUIRE(again.size() == 1);
    CHECK(m.scripts[again[0]].file == "rerun-1.sbatch");
    CHECK(m.scripts[again[0]].tasks == std::vector<PointRange>{{1, 2}, {3, 3}, {9, 9}});
    CHECK(next_rerun_stem(m.scripts) == "rerun-2");
    // Job names differ per script, and per folder for the same sweep.
    std::set<std::string> names;
    for (const auto &s : m.scripts)
        names.insert(s.job_name);
    CHECK(names.size() == m.scripts.size());
    test::TempDir other("schedscope-slurm-rerun");
    SlurmSweep m2 = manifest_of(m.spec);
    write_array_scripts(other.path.string(), m2, all, "sweep");
    CHECK(m2.scripts[0].job_name != m.scripts[0].job_name);
}

TEST_CASE("reproduce on Slurm: tables joined and experiments merged in order, bad files named", "[slurm]")
{
    test::TempDir dir("schedscope-slurm-reproduce");
    const std::string d = dir.path.string();
    SlurmReproduce r;
    r.experiments = {"exp-a", "exp-b", "exp-c"};
    r.command = {"/bin/true", "reproduce"};
    fs::create_directories(dir.path / "points");
    const auto scripts = write_reproduce_scripts(d, r, {0, 1, 2}, "reproduce");
    REQUIRE(scripts.size() == 1);
    CHECK(r.scripts[0].tasks == std::vector<PointRange>{{0, 0}, {1, 1}, {2, 2}});
    write_slurm_reproduce(d, r);
    CHECK(slurm_reproduce_json(read_slurm_reproduce(d)) == slurm_reproduce_json(r));

    // What the scores read of an experiment's JSON; exp-b is fitted.
    auto experiment = [](const std::string &name, bool ok) {
        return nlohmann::json{
            {"name", name},          {"calibration", {{"status", name == "exp-b" ? "fitted" : "predicted"}}},
            {"has_direction", true}, {"direction_ok", ok},
            {"claims", 2},           {"claims_held", ok ? 2 : 1},
            {"within_30pct", 1},     {"compared", 3},
            {"quick", false},        {"ratio", 1.0 / 3.0},
            {"rows", {1, 2}}};
    };
    // Each task prints its table, a blank line and its own scores.
    auto printed = [](const std::string &table) { return table + "\nscore, 1 experiment: ...\n"; };
    const auto put = [&](std::size_t k, const std::string &text, const nlohmann::json &e) {
        std::ofstream(dir.path / "points" / (std::to_string(k) + ".txt")) << text;
        std::ofstream(dir.path / "points" / (std::to_string(k) + ".json"))
            << nlohmann::json{{"experiments", {e}}}.dump(2) << "\n";
    };
    put(0, printed("table a\n"), experiment("exp-a", true));
    put(2, printed("table c\n"), experiment("exp-c", false));
    auto status = scan_experiments(d, r);
    CHECK(points_not_done(status) == std::vector<std::size_t>{1});
    CHECK(status[1].state == PointState::missing);

    put(1, printed("table b\n"), experiment("exp-c", true)); // another experiment's file
    status = scan_experiments(d, r);
    CHECK(status[1].state == PointState::failed);
    CHECK(status[1].message.find((dir.path / "points" / "1.json").string() + ": field 'experiments[0].name'") == 0);
    std::ofstream(dir.path / "points" / "1.json", std::ios::trunc) << "{\"experiments\": [{\"na"; // cut short
    status = scan_experiments(d, r);
    CHECK(status[1].message.find("not valid JSON") != std::string::npos);
    CHECK(error_of([&] { collect_reproduce(d, r, status); }).find("1 of 3 experiments are not done") !=
          std::string::npos);

    put(1, printed("table b\n"), experiment("exp-b", true));
    status = scan_experiments(d, r);
    REQUIRE(points_not_done(status).empty());
    const ReproduceCollected c = collect_reproduce(d, r, status);
    // As reproduce prints them: one blank line between tables, then the
    // scores of all three (two directions of three held, exp-b fitted).
    CHECK(c.text == "table a\n\ntable b\n\ntable c\n\n"
                    "score, 3 experiments: directions held 2 of 3 (claims 5 of 6), rows within ±30 % 3 of 9\n"
                    "  fitted (1): directions held 1 of 1 (claims 2 of 2), rows within ±30 % 1 of 3\n"
                    "  predicted (2): directions held 1 of 2 (claims 3 of 4), rows within ±30 % 2 of 6\n");
    const auto j = nlohmann::json::parse(c.json_text);
    CHECK(j["experiments"] ==
          nlohmann::json{experiment("exp-a", true), experiment("exp-b", true), experiment("exp-c", false)});
    CHECK(j["score"]["total"]["directions_held"] == 2);
    CHECK(j["score"]["fitted"]["experiments"] == 1);
    CHECK(j["score"]["predicted"]["rows_within"] == 2);
    // A task's output without its score lines is not reproduce's.
    std::ofstream(dir.path / "points" / "1.txt", std::ios::trunc) << "table b\n";
    CHECK(error_of([&] { collect_reproduce(d, r, status); }).find("no score lines") != std::string::npos);
    CHECK_FALSE(c.all_hold); // exp-c's direction fails: collect exits 1 as reproduce does
}

namespace {

// The Slurm test's cheap scenario (tests/slurm/).
const std::string kSweepArgs = " --scenario " +
                               testing::shell_quote(std::string(SCHEDSCOPE_TEST_DATA_DIR) +
                                                    "/../slurm/sweep-scenario.json") +
                               " --param cache_hot_time_ms=0,2.5,100 --repeat 2";

testing::CommandResult cli(const std::string &args)
{
    return testing::run_command(testing::shell_quote(SCHEDSCOPE_CLI_PATH) + " " + args + " 2>&1");
}

// Runs every task of an array script by hand, as Slurm would.
void run_tasks(const fs::path &script, std::size_t tasks)
{
    for (std::size_t t = 0; t < tasks; ++t)
        testing::run_command("SLURM_ARRAY_TASK_ID=" + std::to_string(t) + " bash " +
                             testing::shell_quote(script.string()) + " >/dev/null 2>&1");
}

} // namespace

TEST_CASE("sweep --slurm tasks run by hand collect to the local sweep, and a bad point is named and re-run",
          "[slurm][cli]")
{
    test::TempDir dir("schedscope-slurm-cli");
    const std::string d = (dir.path / "runs").string();
    const auto local = testing::run_command(testing::shell_quote(SCHEDSCOPE_CLI_PATH) + " sweep" + kSweepArgs +
                                            " --jobs 1 --json " +
                                            testing::shell_quote((dir.path / "local.json").string()) + " 2>/dev/null");
    REQUIRE(local.exit_code == 0);

    const auto made = cli("sweep" + kSweepArgs + " --slurm " + testing::shell_quote(d) + " --chunk 2 --array-limit 2");
    INFO(made.out);
    REQUIRE(made.exit_code == 0);
    // 6 points in tasks of 2: 3 tasks, 2 per array.
    REQUIRE(fs::exists(fs::path(d) / "sweep-1.sbatch"));
    REQUIRE(fs::exists(fs::path(d) / "sweep-2.sbatch"));
    CHECK_FALSE(fs::exists(fs::path(d) / "sweep-3.sbatch"));
    // A second sweep into the same folder is refused.
    CHECK(cli("sweep" + kSweepArgs + " --slurm " + testing::shell_quote(d)).exit_code == 2);

    run_tasks(fs::path(d) / "sweep-1.sbatch", 2);
    // Nothing of sweep-2 ran (points 4, 5); point 1's file is cut short.
    const std::string p1 = slurm_point_path(d, 1);
    const std::string text = test::read_file(p1);
    std::ofstream(p1, std::ios::trunc) << text.substr(0, 40);
    auto r = cli("collect " + testing::shell_quote(d));
    INFO(r.out);
    CHECK(r.exit_code == 1);
    CHECK(r.out.find("3 of 6 points done") != std::string::npos);
    CHECK(r.out.find("point 1 (cache_hot_time_ms=0, seed 2): failed: " + p1 + ":") != std::string::npos);
    CHECK(r.out.find("point 4 (cache_hot_time_ms=100, seed 1): missing") != std::string::npos);
    CHECK(r.out.find("point 5 (cache_hot_time_ms=100, seed 2): missing") != std::string::npos);
    CHECK(r.out.find("point 0 ") == std::string::npos);
    CHECK(r.out.find("cache_hot_time_ms ") == std::string::npos); // no table

    r = cli("collect " + testing::shell_quote(d) + " --only-missing");
    INFO(r.out);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("re-running points 1,4-5") != std::string::npos);
    run_tasks(fs::path(d) / "rerun-1.sbatch", 2);

    r = testing::run_command(testing::shell_quote(SCHEDSCOPE_CLI_PATH) + " collect " + testing::shell_quote(d) +
                             " --json " + testing::shell_quote((dir.path / "collected.json").string()) +
                             " 2>/dev/null");
    CHECK(r.exit_code == 0);
    CHECK(r.out == local.out);
    CHECK(test::read_file(dir.path / "collected.json") == test::read_file(dir.path / "local.json"));
}

TEST_CASE("collect refuses a folder that is not a cluster run, naming the file", "[slurm][cli]")
{
    test::TempDir dir("schedscope-slurm-cli");
    auto r = cli("collect " + testing::shell_quote(dir.path.string()));
    CHECK(r.exit_code == 2);
    CHECK(r.out.find(slurm_manifest_path(dir.path.string()) + ": cannot read it") != std::string::npos);
    std::ofstream(dir.path / "sweep.json") << "{\"schedscope_slurm_sweep\": 1,";
    r = cli("collect " + testing::shell_quote(dir.path.string()));
    CHECK(r.exit_code == 2);
    CHECK(r.out.find(slurm_manifest_path(dir.path.string()) + ":1: not valid JSON") != std::string::npos);
    CHECK(cli("sweep" + kSweepArgs + " --submit").exit_code == 2);
    CHECK(cli("collect " + testing::shell_quote(dir.path.string()) + " --submit").exit_code == 2);
}
