
namespace {

const std::string kSweepArgs = " --scenario " +
                               testing::shell_quote(std::string(SCHEDSCOPE_SOURCE_SAMPLES_DIR) +
                                                    "/../tests/slurm/sweep-scenario.json") +
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

TEST_CASE("sweep --slurm tasks run by hand collect to the local sweep; a bad point is named and re-run", "[slurm][cli]")
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
    CHECK(r.out.find("4 of 6 points done") != std::string::npos);
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
