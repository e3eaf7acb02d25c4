// schedscope-cli collect DIR [--json FILE] [--watch] [--only-missing
// [--submit]]: the table of a sweep run as a Slurm job array (sweep
// --slurm DIR), put together from the points its tasks wrote. It is the
// table and JSON the local sweep writes, byte for byte, once every point is
// done; until then it lists the points that are missing or failed and exits
// 1, and --only-missing writes (and --submit submits) a script that re-runs
// just those. The same for the experiments of reproduce --slurm DIR.

#include "command.h"

#include "sweep/slurm_collect.h"
#include "sweep/slurm_reproduce.h"
#include "sweep/slurm_tools.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <thread>

namespace schedscope::cli {

namespace {

namespace fs = std::filesystem;

struct CollectArgs {
    std::string dir, json_file;
    bool watch = false, only_missing = false, submit = false;
    double interval_s = 10;
};

// Where the queue has the sweep's points: point -> "RUNNING", "PENDING" ...
struct QueueView {
    bool answered = false;
    std::map<std::size_t, std::string> state;
};

QueueView queued_points(const std::vector<SlurmScript> &scripts)
{
    QueueView v;
    std::vector<std::string> names;
    std::map<std::string, const SlurmScript *> by_name;
    for (const auto &s : scripts) {
        names.push_back(s.job_name);
        by_name[s.job_name] = &s;
    }
    const auto tasks = squeue_tasks(names);
    if (!tasks)
        return v;
    v.answered = true;
    for (const auto &t : *tasks) {
        const auto it = by_name.find(t.job_name);
        if (it == by_name.end() || t.task >= it->second->tasks.size())
            continue;
        const PointRange r = it->second->tasks[t.task];
        for (std::size_t p = r.first; p <= r.last; ++p)
            v.state[p] = t.state;
    }
    return v;
}

bool is_running(const std::string &state)
{
    return state == "RUNNING" || state == "COMPLETING" || state == "CONFIGURING";
}

struct Counts {
    std::size_t done = 0, failed = 0, queued = 0, running = 0, missing = 0;
};

// Queued and running count before what the files say: a point re-submitted
// after a failure is pending, not failed.
Counts count(const std::vector<PointStatus> &status, const QueueView &q)
{
    Counts c;
    for (std::size_t i = 0; i < status.size(); ++i) {
        const auto it = q.state.find(i);
        if (status[i].state == PointState::done)
            ++c.done;
        else if (it != q.state.end())
            ++(is_running(it->second) ? c.running : c.queued);
        else if (status[i].state == PointState::failed)
            ++c.failed;
        else
            ++c.missing;
    }
    return c;
}

std::string counts_line(const Counts &c, std::size_t total, const std::string &unit)
{
    return std::to_string(c.done) + "/" + std::to_string(total) + " " + unit + " done, " + std::to_string(c.failed) +
           " failed, " + std::to_string(c.queued) + " pending, " + std::to_string(c.running) + " running, " +
           std::to_string(c.missing) + " missing";
}

// A sweep's points or reproduce's experiments: what collect tells apart.
struct Run {
    std::string unit;                            // "points", "experiments"
    std::vector<SlurmScript> *scripts = nullptr; // the manifest's, which save() writes
    std::function<std::vector<PointStatus>()> scan;
    std::function<std::string(std::size_t)> describe; // "point 3 (x=1, seed 2)"
    // Writes and records scripts re-running `which`; returns their indices.
    std::function<std::vector<std::size_t>(const std::vector<std::size_t> &which)> write_rerun;
    std::function<void()> save; // the manifest
};

// Until no task of the run is in the queue, a line on stderr whenever the
// counts change.
void watch(const Run &run, double interval_s)
{
    // A controller busy with a burst of completions may miss a look or two;
    // this many in a row and the queue is taken as gone.
    constexpr int kSqueueTries = 5;
    std::string last;
    bool answered_once = false;
    int misses = 0;
    for (;;) {
        // The queue first: a task that leaves it between the two looks has
        // written its point by then.
        const QueueView q = queued_points(*run.scripts);
        if (!q.answered && answered_once && ++misses < kSqueueTries) {
            std::this_thread::sleep_for(std::chrono::duration<double>(interval_s));
            continue;
        }
        const auto status = run.scan();
        const Counts c = count(status, q);
        const std::string line = counts_line(c, status.size(), run.unit);
        if (line != last)
            std::cerr << "collect: " << line << "\n" << std::flush;
        last = line;
        if (!q.answered) {
            std::cerr << "collect: squeue does not answer here; not waiting for the queue\n";
            return;
        }
        answered_once = true;
        misses = 0;
        if (c.queued + c.running == 0)
            return;
        std::this_thread::sleep_for(std::chrono::duration<double>(interval_s));
    }
}

// What accounting says of the tasks of the submitted scripts, by (job, task).
std::map<std::pair<std::string, std::size_t>, std::string> accounting(const std::vector<SlurmScript> &scripts)
{
    std::vector<std::string> ids;
    for (const auto &s : scripts)
        ids.insert(ids.end(), s.jobs.begin(), s.jobs.end());
    std::map<std::pair<std::string, std::size_t>, std::string> out;
    if (const auto tasks = sacct_tasks(ids))
        for (const auto &t : *tasks)
            out[{t.job_id, t.task}] = t.state + ", exit " + t.exit_code;
    return out;
}

// Point p's latest submission: job id and array task, if it was submitted
// by --submit.
std::optional<std::pair<std::string, std::size_t>> task_of(const std::vector<SlurmScript> &scripts, std::size_t p)
{
    for (auto s = scripts.rbegin(); s != scripts.rend(); ++s)
        for (std::size_t t = 0; t < s->tasks.size(); ++t)
            if (p >= s->tasks[t].first && p <= s->tasks[t].last) {
                if (s->jobs.empty())
                    return std::nullopt;
                return std::make_pair(s->jobs.back(), t);
            }
    return std::nullopt;
}

// The log of a submitted task, if it is there.
std::string log_of(const std::string &dir, const std::optional<std::pair<std::string, std::size_t>> &task)
{
    if (!task)
        return {};
    const fs::path log = fs::path(dir) / "logs" / (task->first + "_" + std::to_string(task->second) + ".out");
    std::error_code ec;
    return fs::exists(log, ec) ? log.string() : std::string();
}

// What is not done, on stderr, then --only-missing. Exit 1 unless a re-run
// was written.
int report_not_done(const CollectArgs &a, const Run &run, const std::vector<PointStatus> &status)
{
    const auto not_done = points_not_done(status);
    const QueueView q = queued_points(*run.scripts);
    const auto accounted = accounting(*run.scripts);
    std::cerr << "collect: " << a.dir << ": " << status.size() - not_done.size() << " of " << status.size() << " "
              << run.unit << " done; not done:\n";
    std::vector<std::size_t> rerun;
    for (const std::size_t p : not_done) {
        std::cerr << "  " << run.describe(p) << ": ";
        const auto it = q.state.find(p);
        if (it != q.state.end()) {
            std::cerr << "still in the queue (" << it->second << ")\n";
            continue;
        }
        rerun.push_back(p);
        if (status[p].state == PointState::failed) {
            std::cerr << "failed: " << status[p].message << "\n";
        } else {
            const auto task = task_of(*run.scripts, p);
            const std::string log = log_of(a.dir, task);
            const auto slurm = task ? accounted.find(*task) : accounted.end();
            std::cerr << "missing: no result"
                      << (log.empty() ? std::string(" (its task was cancelled, killed or never ran)")
                                      : " (its task's output: " + log + ")")
                      << (slurm == accounted.end() ? std::string() : "; Slurm: " + slurm->second) << "\n";
        }
    }
    if (!a.only_missing) {
        if (!rerun.empty())
            std::cerr << "re-run the " << rerun.size() << " missing or failed with: schedscope-cli collect " << a.dir
                      << " --only-missing --submit\n";
        return kExitFailure;
    }
    if (rerun.empty()) {
        std::cerr << "collect: nothing to re-run: the " << run.unit << " not done are all in the queue\n";
        return kExitOk;
    }
    const auto scripts = run.write_rerun(rerun);
    run.save();
    for (const std::size_t i : scripts) {
        const SlurmScript s = (*run.scripts)[i];
        const std::string script = (fs::absolute(a.dir) / s.file).string();
        std::cout << "wrote " << script << ": " << s.tasks.size() << " array task" << (s.tasks.size() == 1 ? "" : "s")
                  << " re-running " << run.unit << " ";
        for (std::size_t t = 0; t < s.tasks.size(); ++t)
            std::cout << (t ? "," : "") << point_range_text(s.tasks[t]);
        std::cout << "\n";
        if (a.submit) {
            const std::string job = sbatch_submit(script);
            (*run.scripts)[i].jobs.push_back(job);
            run.save();
            std::cout << "submitted " << script << " as job " << job << "\n";
        } else {
            std::cout << "submit with: sbatch " << shell_quote(script) << "\n";
        }
    }
    return kExitOk;
}

// What both kinds do once set up: watch the queue if asked, then either
// report what is not done (and write re-run scripts) or, with every point
// done, hand the status to `finish` for the table.
int watch_and_collect(const CollectArgs &a, const Run &run,
                      const std::function<int(const std::vector<PointStatus> &)> &finish)
{
    if (a.watch)
        watch(run, a.interval_s);
    const auto status = run.scan();
    if (!points_not_done(status).empty())
        return report_not_done(a, run, status);
    return finish(status);
}

int collect_sweep(const CollectArgs &a)
{
    SlurmSweep m = read_slurm_sweep(a.dir);
    Run run;
    run.unit = "points";
    run.scripts = &m.scripts;
    run.scan = [&] { return scan_points(a.dir, m); };
    run.describe = [&](std::size_t p) {
        return "point " + std::to_string(p) + " (" + m.spec.param + "=" + sweep_point_value(m.spec, p) + ", seed " +
               std::to_string(sweep_point_seed(m.spec, p)) + ")";
    };
    run.write_rerun = [&](const std::vector<std::size_t> &which) {
        return write_array_scripts(a.dir, m, which, next_rerun_stem(m.scripts));
    };
    run.save = [&] { write_slurm_sweep(a.dir, m); };
    return watch_and_collect(a, run, [&](const std::vector<PointStatus> &status) {
        const SweepResult r = collect_result(m, status);
        std::cout << sweep_report(m.scenario_name, m.workload_name, r);
        if (!a.json_file.empty())
            write_file_atomically(a.json_file, sweep_report_json(m.scenario_name, m.workload_name, r));
        return kExitOk;
    });
}

// reproduce --slurm: as a local reproduce, exit 1 when a published
// direction does not hold.
int collect_reproduce_run(const CollectArgs &a)
{
    SlurmReproduce m = read_slurm_reproduce(a.dir);
    Run run;
    run.unit = "experiments";
    run.scripts = &m.scripts;
    run.scan = [&] { return scan_experiments(a.dir, m); };
    run.describe = [&](std::size_t k) { return "experiment " + std::to_string(k) + " (" + m.experiments[k] + ")"; };
    run.write_rerun = [&](const std::vector<std::size_t> &which) {
        return write_reproduce_scripts(a.dir, m, which, next_rerun_stem(m.scripts));
    };
    run.save = [&] { write_slurm_reproduce(a.dir, m); };
    return watch_and_collect(a, run, [&](const std::vector<PointStatus> &status) {
        const ReproduceCollected c = collect_reproduce(a.dir, m, status);
        std::cout << c.text;
        if (!a.json_file.empty())
            write_file_atomically(a.json_file, c.json_text);
        return c.all_hold ? kExitOk : kExitFailure;
    });
}

int collect_command(const CollectArgs &a)
{
    if (a.submit && !a.only_missing)
        throw InputError("--submit", "needs --only-missing (the first scripts were submitted by --slurm --submit)");
    std::error_code ec;
    if (!fs::exists(slurm_manifest_path(a.dir), ec) && fs::exists(slurm_reproduce_manifest_path(a.dir), ec))
        return collect_reproduce_run(a);
    return collect_sweep(a);
}

const CommandRegistrar registrar{Command{
    "collect",
    [](CLI::App &app) -> std::function<int()> {
        auto args = std::make_shared<CollectArgs>();
        auto *sub = app.add_subcommand(
            "collect", "Merge the points of a sweep run on Slurm (sweep --slurm DIR) into the sweep's table");
        sub->add_option("DIR", args->dir, "The folder sweep --slurm wrote")->required();
        sub->add_option("--json", args->json_file, "Write the table as JSON to FILE (atomically), as sweep --json");
        sub->add_flag("--watch", args->watch,
                      "First wait while tasks of the sweep are in the queue, showing done/failed/pending");
        sub->add_option("--interval", args->interval_s, "With --watch: seconds between looks (default 10)")
            ->check(CLI::Range(0.1, 3600.0));
        sub->add_flag("--only-missing", args->only_missing,
                      "Write a job-array script re-running the missing and failed points");
        sub->add_flag("--submit", args->submit, "With --only-missing: submit it with sbatch");
        return [args] { return collect_command(*args); };
    },
}};

} // namespace

} // namespace schedscope::cli
