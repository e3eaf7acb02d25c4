// schedscope-cli reproduce [NAME...] [--list] [--json FILE] [--quick]
// [--dir DIR] [--jobs N]: the published experiments of samples/published/
// (core/scenario/published.h), ours beside theirs, then the scores (directions
// held, rows within ±30 %), fitted and predicted experiments apart. Exit 0 when every
// published direction holds in the model, 1 when one does not, 2 for bad
// input (a malformed experiment file, an unknown name).

#include "command.h"
#include "reproduce_slurm.h"
#include "run_progress.h"

#include "scenario/published.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>

namespace schedscope::cli {

namespace {

struct ReproduceArgs {
    std::vector<std::string> names;
    std::string json_file, dir;
    bool list = false, quick = false;
    unsigned jobs = 0;
};

int reproduce_command(const ReproduceArgs &a)
{
    const std::string dir = a.dir.empty() ? published_dir() : a.dir;
    // Every file is read and checked, also for --list and a single name: a
    // bad file in the directory is reported at once, naming itself.
    const std::vector<PublishedExperiment> all = load_published_dir(dir);
    if (a.list) {
        for (const auto &e : all)
            std::cout << e.name << "\n";
        return kExitOk;
    }
    std::vector<PublishedExperiment> chosen;
    if (a.names.empty()) {
        chosen = all;
    } else {
        std::set<std::string> seen;
        for (const auto &n : a.names) {
            auto it = std::find_if(all.begin(), all.end(), [&](const PublishedExperiment &e) { return e.name == n; });
            if (it == all.end()) {
                std::string known;
                for (const auto &e : all)
                    known += (known.empty() ? "" : ", ") + e.name;
                throw InputError(dir, "no published experiment '" + n + "' (known: " + known + ")");
            }
            if (seen.insert(n).second)
                chosen.push_back(*it);
        }
    }
    if (chosen.empty())
        throw InputError(dir, "no published experiments (*.json) in this directory");
    if (!a.json_file.empty()) {
        // Refuse an unwritable place now, not after minutes of runs.
        std::filesystem::path parent = std::filesystem::path(a.json_file).parent_path();
        if (parent.empty())
            parent = ".";
        if (!std::filesystem::is_directory(parent) || std::filesystem::is_directory(a.json_file))
            throw InputError("--json", "cannot write '" + a.json_file + "': no such directory, or it is one");
    }

    // No SigintStop: the runs do not poll it, so Ctrl-C ends the command as usual.
    std::unique_ptr<ProgressBoard> board;
    size_t reported = 0;
    const auto results = run_published(chosen, a.quick, a.jobs, [&](int done, int total) {
        if (!board)
            board = std::make_unique<ProgressBoard>(static_cast<size_t>(total));
        while (reported < static_cast<size_t>(done))
            board->update(reported++, 1.0);
    });
    if (board)
        board->finish();
    bool all_hold = true;
    for (size_t i = 0; i < results.size(); ++i) {
        std::cout << (i ? "\n" : "") << format_published(results[i]);
        all_hold = all_hold && results[i].direction_ok;
    }
    // The scores: the total, then fitted and predicted experiments apart.
    std::cout << "\n" << format_scores(results);
    if (a.quick)
        std::cout << kPublishedQuickNote;
    if (!a.json_file.empty())
        write_file_atomically(a.json_file, published_to_json(results).dump(2) + "\n");
    return all_hold ? kExitOk : kExitFailure;
}

const CommandRegistrar registrar{Command{
    "reproduce",
    [](CLI::App &app) -> std::function<int()> {
        auto args = std::make_shared<ReproduceArgs>();
        auto *sub = app.add_subcommand(
            "reproduce", "Run the published experiments and set ours beside theirs (exit 1 if a direction fails)");
        sub->add_option("names", args->names, "Experiments to run (default: all; see --list)");
        sub->add_flag("--list", args->list, "Print the experiments' names, one per line");
        sub->add_option("--json", args->json_file, "Write the tables as JSON to FILE (atomically)");
        sub->add_flag("--quick", args->quick,
                      "Fewer seeds and shorter runs, as each file's \"quick\" says (for tests; not comparable)");
        sub->add_option("--dir", args->dir,
                        "Directory of experiment files (default: $SCHEDSCOPE_PUBLISHED_DIR or samples/published)");
        sub->add_option("--jobs", args->jobs, "Runs in parallel (default: number of cores)")->check(kWholeNumber64);
        auto slurm = std::make_shared<ReproduceSlurmOptions>();
        add_reproduce_slurm_options(sub, *slurm);
        return [args, slurm] {
            return wants_slurm(*slurm) ? reproduce_on_slurm(*slurm, args->names, args->dir, args->quick)
                                       : reproduce_command(*args);
        };
    },
}};

} // namespace

} // namespace schedscope::cli
