// schedscope-cli run: one scenario under one or more policies, repeated over
// seeds, reported as a table and optionally as JSON.

#include "command.h"
#include "run_progress.h"

#include "catalog/catalog.h"
#include "export/csv_export.h"
#include "export/trace_export.h"
#include "scenario/run.h"
#include "scenario/scenario.h"
#include "util/atomic_file.h"
#include "util/input_error.h"
#include "util/parallel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <iostream>

namespace schedscope::cli {

namespace {

struct RunArgs {
    std::string scenario_file, topology, workload, duration, json_file, save_scenario, noise;
    std::vector<std::string> policies;
    std::uint64_t seed = 0;
    bool seed_given = false;
    int repeat = 0;
    bool no_series = false;
    unsigned jobs = 0;
    // Exports (docs/export.md)
    std::string trace_file, trace_format = "chrome", trace_window, csv_dir;
    double trace_max_mb = static_cast<double>(kChromeViewerLimitBytes) / 1e6; // what the viewers open
    bool trace_force = false;
    bool trace_cpu_tracks = false;
};

// "autonuma" or "autonuma:scan_period_min_ms=500", as the user wrote it.
std::string policy_label(const PolicySpec &p)
{
    std::string label = p.name, params;
    for (auto &[k, v] : p.params)
        params += (params.empty() ? "" : ",") + k + "=" + v;
    return params.empty() ? label : label + ":" + params;
}

// The trace re-runs the first seed of each policy with an exporter attached.
// The engine is deterministic, so that is the report's first repeat, stopped
// at the end of the window.
struct TracePlan {
    TraceOptions options;
    std::vector<Simulation> sims;
    std::vector<std::string> names;
};

TracePlan plan_trace(const RunArgs &a, const Scenario &s, const std::vector<PolicySpec> &policies,
                     const std::shared_ptr<const Topology> &topo)
{
    TracePlan plan;
    // CLI::PositiveNumber lets NaN through, and "mb > NaN" never refuses.
    if (!(a.trace_max_mb > 0) || !std::isfinite(a.trace_max_mb))
        throw InputError("--trace-max-mb", "expected a positive number of MB");
    plan.options.format = parse_trace_format(a.trace_format, "--trace-format");
    if (!a.trace_window.empty())
        plan.options.window = parse_trace_window(a.trace_window, "--trace-window");
    plan.options.cpu_tracks = a.trace_cpu_tracks;
    plan.options.max_simulated_s = kDefaultMaxSimulatedS;
    for (auto &p : policies) {
        plan.sims.push_back(build_simulation(s, p, s.seed, topo));
        plan.names.push_back(policy_label(p));
    }
    std::vector<const Simulation *> ptrs;
    for (auto &sim : plan.sims)
        ptrs.push_back(&sim);
    const TraceSizeEstimate est = estimate_trace_size(ptrs, plan.names, plan.options);
    const double mb = static_cast<double>(est.bytes) / 1e6;
    char line[256];
    if (est.exact)
        std::snprintf(line, sizeof line, "trace: %.1f MB (%s, %.3g s simulated)\n", mb,
                      trace_format_name(plan.options.format), est.covered_s);
    else
        std::snprintf(line, sizeof line,
                      "trace: about %.1f MB (%s; %llu events over %.3g s simulated, counted in a pre-run; bytes per "
                      "event from the first %.3g s)\n",
                      mb, trace_format_name(plan.options.format), static_cast<unsigned long long>(est.events),
                      est.covered_s, est.sampled_s);
    std::cerr << line;
    if (const std::string warning = trace_size_warning(est, plan.options.format); !warning.empty())
        std::cerr << "trace: warning: " << warning << "\n";
    if (mb > a.trace_max_mb && !a.trace_force) {
        std::snprintf(line, sizeof line, "the trace would take about %.0f MB, over --trace-max-mb %.0f", mb,
                      a.trace_max_mb);
        throw InputError("--trace",
                         std::string(line) + ": narrow it with --trace-window START:END, or pass --trace-force");
    }
    return plan;
}

void write_trace(const std::string &path, const TracePlan &plan)
{
    std::vector<const Simulation *> ptrs;
    for (auto &sim : plan.sims)
        ptrs.push_back(&sim);
    ProgressBoard board(1);
    TraceOptions o = plan.options;
    o.progress = [&](double f) {
        board.update(0, f);
        return !interrupted();
    };
    const TraceExportResult r = export_trace(ptrs, plan.names, path, o);
    board.finish();
    if (r.cancelled) {
        std::cerr << "trace: interrupted, nothing written\n";
        return;
    }
    for (auto &f : r.files)
        std::cerr << "trace: wrote " << f << "\n";
}

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
    if (!a.noise.empty())
        s.model["os_noise"] = a.noise == "on" ? 1.0 : 0.0; // the CLI checked on|off
    if (s.workload.name.empty())
        throw InputError("--workload", "no workload: give --workload NAME or --scenario FILE");
    if (s.policies.empty() && split_bind_suffix(s.workload.name).second.empty())
        throw InputError("--policy", "no policy: give --policy NAME (see schedscope-cli list)");

    const SigintStop stop_on_ctrl_c;
    auto topo = scenario_topology(s);
    const auto policies = effective_policies(s);
    // Validate every policy before any long run starts.
    for (auto &p : policies)
        make_policy(p.name, p.params, a.scenario_file.empty() ? "--policy" : a.scenario_file);
    // Options and the size limit too: refusing a trace after the runs would waste them.
    TracePlan trace;
    if (!a.trace_file.empty())
        trace = plan_trace(a, s, policies, topo);

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
    // The CSV files are flattened from the series.
    const bool want_series = !a.no_series || !a.csv_dir.empty();
    // The board is finished before any error is reported, so that the
    // message does not land in the middle of a progress line.
    std::exception_ptr error;
    try {
        run_parallel(jobs.size(), a.jobs, [&](size_t j) {
            const Job &job = jobs[j];
            results[job.policy][job.rep] = run_policy(
                s, policies[job.policy], s.seed + static_cast<std::uint64_t>(job.rep), topo,
                [&, j](double f) {
                    board.update(j, f);
                    return !interrupted();
                },
                kDefaultMaxSimulatedS, want_series);
            board.update(j, 1.0);
        });
    } catch (...) {
        error = std::current_exception();
    }
    board.finish();
    if (error)
        std::rethrow_exception(error);
    // Only now: the workload, its parameters and the model constants are
    // checked when a run is built, and a refused scenario must not replace a
    // good file.
    if (!a.save_scenario.empty())
        save_scenario(s, a.save_scenario);

    std::cout << format_report(s, results);
    if (!a.json_file.empty())
        write_file_atomically(a.json_file, results_to_json(results, !a.no_series).dump() + "\n");
    if (!a.csv_dir.empty() && !interrupted()) {
        const auto files = write_results_csv(results, a.csv_dir);
        std::cerr << "csv: wrote " << files.size() << " files to " << a.csv_dir << "\n";
    }
    if (!a.trace_file.empty() && !interrupted())
        write_trace(a.trace_file, trace);
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
            ->check(kWholeNumber64)
            ->each([args](const std::string &) { args->seed_given = true; });
        sub->add_option("--repeat", args->repeat, "Runs per policy")->check(CLI::Range(1, 1000));
        sub->add_option("--noise", args->noise,
                        "on | off: OS noise (kernel threads, interrupts, timer slack); off for teaching")
            ->check(CLI::IsMember({"on", "off"}));
        sub->add_option("--json", args->json_file, "Write results as JSON to FILE (atomically)");
        sub->add_flag("--no-series", args->no_series, "Leave the time series out of the JSON");
        sub->add_option("--save-scenario", args->save_scenario, "Save the effective scenario to FILE");
        sub->add_option("--jobs", args->jobs, "Runs in parallel (default: number of cores)")->check(kWholeNumber64);
        sub->add_option("--csv", args->csv_dir,
                        "Write summary.csv and one CSV of time series per run into DIR (created if missing)");
        sub->add_option("--trace", args->trace_file,
                        "Write a scheduling trace of the first seed of each policy to FILE (docs/export.md)");
        sub->add_option("--trace-format", args->trace_format,
                        "chrome: Trace Event JSON (Perfetto, chrome://tracing); ftrace: kernel sched_switch text "
                        "(one file per policy)")
            ->check(CLI::IsMember({"chrome", "ftrace"}))
            ->capture_default_str();
        sub->add_option("--trace-window", args->trace_window,
                        "Simulated time to keep, START:END, e.g. 1s:2s, 500ms: (to the end), :3s");
        sub->add_option("--trace-max-mb", args->trace_max_mb,
                        "Refuse a trace whose estimated size is larger than this (MB; the default is the most "
                        "the trace viewers open)")
            ->check(CLI::PositiveNumber)
            ->capture_default_str();
        sub->add_flag("--trace-force", args->trace_force, "Write the trace whatever its estimated size");
        sub->add_flag("--trace-cpu-tracks", args->trace_cpu_tracks,
                      "Chrome trace: add one track per CPU showing the task it runs");
        return [args] { return run_command(*args); };
    },
}};

} // namespace

} // namespace schedscope::cli
