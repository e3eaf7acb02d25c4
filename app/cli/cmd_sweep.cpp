// schedscope-cli sweep --scenario FILE --policy P --param NAME=V1,V2,...
// [--repeat K] [--json FILE]: one policy parameter varied over a scenario,
// tabulated relative to the first value = 100 with idle time beside it.
//
// With --slurm DIR the runs are not made here: DIR gets a Slurm job-array
// script whose tasks each run some points of the sweep (this command again,
// with --points), and `schedscope-cli collect DIR` (cmd_collect.cpp) puts
// the table together from what they wrote. sweep/slurm_collect.h describes
// the folder.

#include "command.h"
#include "run_progress.h"

#include "catalog/catalog.h"
#include "scenario/scenario.h"
#include "sweep/scenario_sweep.h"
#include "sweep/slurm_collect.h"
#include "sweep/slurm_tools.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace schedscope::cli {

namespace {

namespace fs = std::filesystem;

struct SweepArgs {
    std::string scenario_file, policy, param, json_file;
    int repeat = 0;
    unsigned jobs = 0;
    // Cluster runs.
    std::string slurm_dir;
    bool submit = false;
    std::size_t chunk = 1;
    std::size_t array_limit = 0;
    std::string points, points_dir;
    std::vector<std::string> sbatch_options;
};

struct Prepared {
    Scenario scenario;
    PolicySpec policy;
    std::string param;
    std::vector<std::string> values;
    int repeat = 1;
};

Prepared prepare(const SweepArgs &a)
{
    Prepared p{load_scenario(a.scenario_file), {}, {}, {}, 1};
    const Scenario &s = p.scenario;
    if (!a.policy.empty()) {
        auto [name, params] = parse_name_params(a.policy, "--policy");
        p.policy = PolicySpec{name, params};
    } else if (!s.policies.empty()) {
        p.policy = s.policies.front();
    } else {
        throw InputError("--policy", "no policy: give --policy NAME or a scenario with policies");
    }
    const auto eq = a.param.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 >= a.param.size())
        throw InputError("--param", "expected NAME=V1,V2,..., got '" + a.param + "'");
    p.param = a.param.substr(0, eq);
    p.values = split_values(a.param.substr(eq + 1), "--param");
    p.repeat = a.repeat > 0 ? a.repeat : std::max(1, s.repeat);
    return p;
}

std::string read_whole(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path, "cannot read it");
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

int local_sweep(const SweepArgs &a)
{
    const Prepared p = prepare(a);
    const Scenario &s = p.scenario;
    const SigintStop stop_on_ctrl_c;
    ProgressBoard board(p.values.size() * static_cast<size_t>(p.repeat));
    size_t reported = 0;
    const SweepResult r = sweep_scenario(s, p.policy, p.param, p.values, p.repeat, a.jobs, [&](int done, int) {
        // Runs report only when they end; mark the finished ones as whole.
        while (reported < static_cast<size_t>(done))
            board.update(reported++, 1.0);
    });
    board.finish();
    std::cout << sweep_report(s.name, s.workload.name, r);
    if (!a.json_file.empty())
        write_file_atomically(a.json_file, sweep_report_json(s.name, s.workload.name, r));
    return interrupted() ? kExitFailure : kExitOk;
}

// Submits the scripts s.scripts[i] for i in `which`, recording each job id
// in the manifest as soon as sbatch gives it.
void submit_scripts(const std::string &dir, SlurmSweep &s, const std::vector<std::size_t> &which)
{
    for (const std::size_t i : which) {
        const std::string script = (fs::absolute(dir) / s.scripts[i].file).string();
        const std::string job = sbatch_submit(script);
        s.scripts[i].jobs.push_back(job);
        write_slurm_sweep(dir, s);
        std::cout << "submitted " << script << " as job " << job << " (" << s.scripts[i].tasks.size() << " task"
                  << (s.scripts[i].tasks.size() == 1 ? "" : "s") << ")\n";
    }
}

void print_scripts(const std::string &dir, const SlurmSweep &s, const std::vector<std::size_t> &which)
{
    for (const std::size_t i : which) {
        std::size_t points = 0;
        for (const auto &t : s.scripts[i].tasks)
            points += t.size();
        std::cout << "wrote " << (fs::path(dir) / s.scripts[i].file).string() << ": " << points << " point"
                  << (points == 1 ? "" : "s") << " in " << s.scripts[i].tasks.size() << " array task"
                  << (s.scripts[i].tasks.size() == 1 ? "" : "s") << "\n";
    }
}

int slurm_sweep(const SweepArgs &a)
{
    const Prepared p = prepare(a);
    const Scenario &s = p.scenario;
    const std::string dir = a.slurm_dir;
    if (fs::exists(slurm_manifest_path(dir)) || fs::exists(fs::path(dir) / "reproduce.json"))
        throw InputError(dir, "this folder holds a cluster run already: `schedscope-cli collect " + dir +
                                  " --only-missing` re-runs what is missing; a new sweep needs a new folder");
    SlurmSweep m;
    m.spec = scenario_sweep_spec(s, p.policy, p.param, p.values, p.repeat);
    m.scenario_name = s.name;
    m.workload_name = s.workload.name;
    m.fingerprint = sweep_fingerprint(read_whole(a.scenario_file), m.spec);
    m.chunk = a.chunk;
    for (const auto &o : a.sbatch_options)
        if (o.rfind("--", 0) != 0 || o.find('\n') != std::string::npos)
            throw InputError("--sbatch", "expected one sbatch option such as --partition=long, got '" + o + "'");
    m.sbatch_options = a.sbatch_options;
    std::string limit_from = "--array-limit";
    m.max_array_size = a.array_limit > 0 ? a.array_limit : cluster_max_array_size(limit_from);

    std::error_code ec;
    fs::create_directories(fs::path(dir) / "points", ec);
    fs::create_directories(fs::path(dir) / "logs", ec);
    if (ec)
        throw InputError(dir, "cannot create the folder: " + ec.message());
    const fs::path abs = fs::absolute(dir);
    // What one task runs: this very binary, the same sweep, absolute paths.
    m.command = {fs::read_symlink("/proc/self/exe", ec).string(), "sweep", "--scenario",
                 fs::absolute(a.scenario_file).string()};
    if (ec || m.command.front().empty())
        m.command.front() = "schedscope-cli";
    if (!a.policy.empty())
        m.command.insert(m.command.end(), {"--policy", a.policy});
    m.command.insert(m.command.end(),
                     {"--param", a.param, "--repeat", std::to_string(p.repeat), "--points-dir", abs.string()});

    const std::size_t points = sweep_point_count(m.spec);
    std::vector<std::size_t> all(points);
    for (std::size_t i = 0; i < points; ++i)
        all[i] = i;
    const auto scripts = write_array_scripts(dir, m, all, "sweep");
    write_slurm_sweep(dir, m);
    print_scripts(dir, m, scripts);
    if (scripts.size() > 1)
        std::cout << "(" << scripts.size() << " arrays: at most " << m.max_array_size << " tasks each, " << limit_from
                  << ")\n";
    if (a.submit) {
        submit_scripts(dir, m, scripts);
    } else {
        for (const std::size_t i : scripts)
            std::cout << "submit with: sbatch " << shell_quote((abs / m.scripts[i].file).string()) << "\n";
    }
    std::cout << "then: schedscope-cli collect " << shell_quote(dir) << " [--watch]\n";
    return kExitOk;
}

// One array task: run points a.points of the sweep and write each into
// a.points_dir. A point that fails leaves its reason in N.failed; the others
// still run.
int sweep_points(const SweepArgs &a)
{
    const Prepared p = prepare(a);
    const Scenario &s = p.scenario;
    const SlurmSweep m = read_slurm_sweep(a.points_dir);
    const SweepSpec spec = scenario_sweep_spec(s, p.policy, p.param, p.values, p.repeat);
    const std::string here = sweep_fingerprint(read_whole(a.scenario_file), spec);
    if (here != m.fingerprint)
        throw InputError(slurm_manifest_path(a.points_dir),
                         "written for another sweep: the scenario file or the sweep's options changed since "
                         "`sweep --slurm` (fingerprint " +
                             here + " here, " + m.fingerprint + " in the manifest)");
    const PointRange range = parse_point_range(a.points, sweep_point_count(spec), "--points");
    const auto topo = scenario_topology(s);
    int failed = 0;
    for (std::size_t i = range.first; i <= range.last; ++i) {
        const std::string what = "point " + std::to_string(i) + " (" + spec.param + "=" + sweep_point_value(spec, i) +
                                 ", seed " + std::to_string(sweep_point_seed(spec, i)) + ")";
        try {
            write_point_result(a.points_dir, m, i, run_scenario_sweep_point(s, spec, i, topo));
            std::cout << what << ": done\n" << std::flush;
        } catch (const std::exception &e) {
            ++failed;
            std::cerr << "schedscope-cli: " << what << ": " << e.what() << "\n";
            write_point_failure(a.points_dir, i, e.what());
        }
    }
    return failed > 0 ? kExitFailure : kExitOk;
}

int sweep_command(const SweepArgs &a)
{
    if (!a.points.empty() || !a.points_dir.empty()) {
        if (a.points.empty() || a.points_dir.empty())
            throw InputError(a.points.empty() ? "--points-dir" : "--points",
                             "--points and --points-dir go together (the job script passes both)");
        return sweep_points(a);
    }
    if (a.slurm_dir.empty()) {
        if (a.submit)
            throw InputError("--submit", "needs --slurm DIR");
        return local_sweep(a);
    }
    if (!a.json_file.empty())
        throw InputError("--json", "with --slurm the table comes from `schedscope-cli collect DIR --json FILE`");
    return slurm_sweep(a);
}

const CommandRegistrar registrar{Command{
    "sweep",
    [](CLI::App &app) -> std::function<int()> {
        auto args = std::make_shared<SweepArgs>();
        auto *sub = app.add_subcommand("sweep",
                                       "Vary one policy parameter over a scenario, relative to the first value");
        sub->add_option("--scenario", args->scenario_file, "Scenario JSON file")->required();
        sub->add_option("--policy", args->policy, "NAME[:key=value,...] (default: the scenario's first policy)");
        sub->add_option("--param", args->param, "NAME=V1,V2,... (the first value is the 100.0 reference)")->required();
        sub->add_option("--repeat", args->repeat, "Runs per value, seeds seed..seed+K-1 (default: the scenario's)")
            ->check(CLI::Range(1, 1000));
        sub->add_option("--json", args->json_file, "Write the table as JSON to FILE (atomically)");
        sub->add_option("--jobs", args->jobs, "Runs in parallel (default: number of cores)")->check(kWholeNumber64);
        sub->add_option("--slurm", args->slurm_dir,
                        "Write a Slurm job-array script for the sweep into DIR instead of running it "
                        "(then: schedscope-cli collect DIR)");
        sub->add_flag("--submit", args->submit, "With --slurm: submit the script(s) with sbatch");
        sub->add_option("--chunk", args->chunk, "With --slurm: points per array task (default 1)")
            ->check(CLI::Range(std::size_t{1}, std::size_t{1000000}));
        sub->add_option("--array-limit", args->array_limit,
                        "With --slurm: tasks per array (default: MaxArraySize from scontrol, else 1001)")
            ->check(CLI::Range(std::size_t{1}, std::size_t{100000000}));
        sub->add_option("--sbatch", args->sbatch_options,
                        "With --slurm: one more #SBATCH line for every script, e.g. --sbatch=--partition=long "
                        "(repeatable)")
            ->expected(1)
            ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
        sub->add_option("--points", args->points, "Run only points N or N-M (what a job-array task runs)");
        sub->add_option("--points-dir", args->points_dir, "With --points: the --slurm folder to write them into");
        return [args] { return sweep_command(*args); };
    },
}};

} // namespace

} // namespace schedscope::cli
