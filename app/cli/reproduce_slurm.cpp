#include "reproduce_slurm.h"

#include "command.h"

#include "scenario/published.h"
#include "sweep/slurm_reproduce.h"
#include "sweep/slurm_tools.h"
#include "util/input_error.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <set>

namespace schedscope::cli {

namespace fs = std::filesystem;

void add_reproduce_slurm_options(CLI::App *sub, ReproduceSlurmOptions &o)
{
    sub->add_option("--slurm", o.dir,
                    "Write a Slurm job-array script (one task per experiment) into DIR instead of running "
                    "(then: schedscope-cli collect DIR)");
    sub->add_flag("--submit", o.submit, "With --slurm: submit the script(s) with sbatch");
    sub->add_option("--array-limit", o.array_limit,
                    "With --slurm: tasks per array (default: MaxArraySize from scontrol, else 1001)")
        ->check(CLI::Range(std::size_t{1}, std::size_t{100000000}));
    sub->add_option("--sbatch", o.sbatch_options, "With --slurm: one more #SBATCH line for every script (repeatable)")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

bool wants_slurm(const ReproduceSlurmOptions &o)
{
    if (o.dir.empty() && (o.submit || !o.sbatch_options.empty() || o.array_limit > 0))
        throw InputError(o.submit ? "--submit" : o.array_limit > 0 ? "--array-limit" : "--sbatch", "needs --slurm DIR");
    return !o.dir.empty();
}

int reproduce_on_slurm(const ReproduceSlurmOptions &o, const std::vector<std::string> &names,
                       const std::string &published, bool quick)
{
    const std::string source = published.empty() ? published_dir() : published;
    // The same checks and order as a local reproduce: every file parsed,
    // names known, each once, in the order given.
    const std::vector<PublishedExperiment> all = load_published_dir(source);
    std::vector<std::string> chosen;
    std::set<std::string> seen;
    for (const auto &n : names) {
        if (std::none_of(all.begin(), all.end(), [&](const PublishedExperiment &e) { return e.name == n; }))
            throw InputError(source, "no published experiment '" + n + "'");
        if (seen.insert(n).second)
            chosen.push_back(n);
    }
    if (names.empty())
        for (const auto &e : all)
            chosen.push_back(e.name);
    if (chosen.empty())
        throw InputError(source, "no published experiments (*.json) in this directory");
    if (fs::exists(slurm_reproduce_manifest_path(o.dir)) || fs::exists(fs::path(o.dir) / "sweep.json"))
        throw InputError(o.dir, "this folder holds a cluster run already: `schedscope-cli collect " + o.dir +
                                    " --only-missing` re-runs what is missing; a new run needs a new folder");
    for (const auto &opt : o.sbatch_options)
        if (opt.rfind("--", 0) != 0 || opt.find('\n') != std::string::npos)
            throw InputError("--sbatch", "expected one sbatch option such as --partition=long, got '" + opt + "'");

    SlurmReproduce r;
    r.experiments = chosen;
    std::error_code ec;
    r.command = {fs::read_symlink("/proc/self/exe", ec).string(), "reproduce"};
    if (ec || r.command.front().empty())
        r.command.front() = "schedscope-cli";
    if (quick)
        r.command.push_back("--quick");
    r.command.insert(r.command.end(), {"--dir", fs::absolute(source).string()});
    std::string limit_from = "--array-limit";
    r.max_array_size = o.array_limit > 0 ? o.array_limit : cluster_max_array_size(limit_from);
    r.sbatch_options = o.sbatch_options;

    fs::create_directories(fs::path(o.dir) / "points", ec);
    fs::create_directories(fs::path(o.dir) / "logs", ec);
    if (ec)
        throw InputError(o.dir, "cannot create the folder: " + ec.message());
    std::vector<std::size_t> every(chosen.size());
    for (std::size_t k = 0; k < every.size(); ++k)
        every[k] = k;
    const auto scripts = write_reproduce_scripts(o.dir, r, every, "reproduce");
    write_slurm_reproduce(o.dir, r);
    for (const std::size_t i : scripts) {
        const std::string script = (fs::absolute(o.dir) / r.scripts[i].file).string();
        std::cout << "wrote " << script << ": " << r.scripts[i].tasks.size() << " experiment(s), one per task\n";
        if (o.submit) {
            const std::string job = sbatch_submit(script);
            r.scripts[i].jobs.push_back(job);
            write_slurm_reproduce(o.dir, r);
            std::cout << "submitted " << script << " as job " << job << "\n";
        } else {
            std::cout << "submit with: sbatch " << shell_quote(script) << "\n";
        }
    }
    std::cout << "then: schedscope-cli collect " << shell_quote(o.dir) << " [--watch]\n";
    return kExitOk;
}

} // namespace schedscope::cli
