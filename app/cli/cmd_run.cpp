// schedscope-cli run: one scenario under one or more policies, repeated over
// seeds, reported as a table and optionally as JSON.

#include "command.h"
#include "run_progress.h"

#include "engine/catalog.h"
#include "profiler/profile_store.h" // write_file_atomically
#include "scenario/run.h"
#include "scenario/scenario.h"
#include "util/input_error.h"

#include <algorithm>
#include <iostream>
#include <mutex>
#include <thread>

namespace schedscope::cli {

namespace {

struct RunArgs {
    std::string scenario_file, topology, workload, duration, json_file, save_scenario;
    std::vector<std::string> policies;
    std::uint64_t seed = 0;
    bool seed_given = false;
    int repeat = 0;
    bool no_series = false;
    unsigned jobs = 0;
};

int run_command(const RunArgs &a)
{
    Scenario s;
    if (!a.scenario_file.empty())
        s = load_scenario(a.scenario_file);
    if (!a.topology.empty())
        s.topology = a.topology;
    if (!a.workload.empty()) {
        auto [name, params] = parse_name_params(a.workload, "--workload");
        s.workload = WorkloadSpec{name, params};
    }
    if (!a.policies.empty()) {
        s.policies.clear();
        for (auto &p : a.policies) {
            auto [name, params] = parse_name_params(p, "--policy");
            s.policies.push_back(PolicySpec{name, params});
        }
    }
    if (a.seed_given)
        s.seed = a.seed;
    if (a.repeat > 0)
        s.repeat = a.repeat;
    if (!a.duration.empty())
        s.duration_s = parse_duration_s(a.duration, "--duration");
    if (s.workload.name.empty())
        throw InputError("--workload", "no workload: give --workload NAME or --scenario FILE");
    if (s.policies.empty() && split_bind_suffix(s.workload.name).second.empty())
        throw InputError("--policy", "no policy: give --policy NAME (see schedscope-cli list)");
    if (!a.save_scenario.empty())
        save_scenario(s, a.save_scenario);

    const SigintStop stop_on_ctrl_c;
    auto topo = scenario_topology(s);
    const auto policies = effective_policies(s);
    // Validate every policy before any long run starts.
    for (auto &p : policies)
        make_policy(p.name, p.params, a.scenario_file.empty() ? "--policy" : a.scenario_file);

    struct Job {
        size_t policy;
        int rep;
    };
    std::vector<Job> jobs;
    for (size_t p = 0; p < policies.size(); ++p)
        for (int r = 0; r < s.repeat; ++r)
            jobs.push_back({p, r});
    std::vector<std::vector<RunResult>> results(policies.size(), std::vector<RunResult>(s.repeat));

    // Runs are independent and seeded, so the order they finish in does not
    // change any number.
    ProgressBoard board(jobs.size());
    std::mutex err_mu;
    std::exception_ptr first_error;
    std::atomic<size_t> next{0};
    auto worker = [&] {
        for (size_t j; (j = next++) < jobs.size();) {
            const Job &job = jobs[j];
            try {
                results[job.policy][job.rep] = run_policy(
                    s, policies[job.policy], s.seed + static_cast<std::uint64_t>(job.rep), topo,
                    [&, j](double f) {
                        board.update(j, f);
                        return !interrupted();
                    });
                board.update(j, 1.0);
            } catch (...) {
                std::lock_guard lock(err_mu);
                if (!first_error)
                    first_error = std::current_exception();
            }
        }
    };
    unsigned n = a.jobs > 0 ? a.jobs : std::max(1u, std::thread::hardware_concurrency());
    n = std::min<unsigned>(n, static_cast<unsigned>(jobs.size()));
    std::vector<std::thread> threads;
    for (unsigned i = 0; i < n; ++i)
        threads.emplace_back(worker);
    for (auto &t : threads)
        t.join();
    board.finish();
    if (first_error)
        std::rethrow_exception(first_error);

    std::cout << format_report(s, results);
    if (!a.json_file.empty())
        write_file_atomically(a.json_file, results_to_json(results, !a.no_series).dump() + "\n");
    return interrupted() ? kExitFailure : kExitOk;
}

const CommandRegistrar registrar{Command{
    "run",
    [](CLI::App &app) -> std::function<int()> {
        auto args = std::make_shared<RunArgs>();
        auto *sub = app.add_subcommand("run", "Run a workload under one or more policies and compare them");
        sub->add_option("--scenario", args->scenario_file, "Scenario JSON file (flags override it)");
        sub->add_option("--topology", args->topology, "detect | synthetic:STRING | sample:NAME | FILE");
        sub->add_option("--workload", args->workload, "NAME[:key=value,...]");
        sub->add_option("--policy", args->policies, "NAME[:key=value,...]; repeat to compare")->take_all();
        sub->add_option("--duration", args->duration, "Simulated duration, e.g. 10s, 500ms, 2m");
        sub->add_option("--seed", args->seed, "PRNG seed (runs use seed, seed+1, ...)")
            ->each([args](const std::string &) { args->seed_given = true; });
        sub->add_option("--repeat", args->repeat, "Runs per policy")->check(CLI::Range(1, 1000));
        sub->add_option("--json", args->json_file, "Write results as JSON to FILE (atomically)");
        sub->add_flag("--no-series", args->no_series, "Leave the time series out of the JSON");
        sub->add_option("--save-scenario", args->save_scenario, "Save the effective scenario to FILE");
        sub->add_option("--jobs", args->jobs, "Runs in parallel (default: number of cores)");
        return [args] { return run_command(*args); };
    },
}};

} // namespace

} // namespace schedscope::cli
