#include "sweep/slurm_reproduce.h"
#include "sweep/slurm_manifest.h"

#include "scenario/published.h"

#include "util/atomic_file.h"
#include "util/input_error.h"
#include "util/json_input.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace schedscope {

namespace fs = std::filesystem;

namespace {

constexpr const char *kManifestKey = "schedscope_slurm_reproduce";
constexpr int kManifestVersion = 1;

std::string points_file(const std::string &dir, std::size_t k, const char *ext)
{
    return (fs::path(dir) / "points" / (std::to_string(k) + ext)).string();
}

// Experiment K's --json: one experiment, the one the manifest names.
nlohmann::json read_experiment(const std::string &path, const std::string &name)
{
    const nlohmann::json j = read_slurm_json(path);
    const ManifestFields f(path);
    if (!j.is_object() || !j.contains("experiments") || !j["experiments"].is_array() || j["experiments"].size() != 1 ||
        !j["experiments"][0].is_object())
        f.fail("experiments", "expected one experiment (the file is cut short or not a reproduce --json)");
    const auto &e = j["experiments"][0];
    if (!e.contains("name") || e["name"] != name)
        f.fail("experiments[0].name", "is not '" + name + "', the experiment the manifest runs here");
    if (!e.contains("direction_ok") || !e["direction_ok"].is_boolean())
        f.fail("experiments[0].direction_ok", "missing or not true/false");
    return e;
}

} // namespace

std::string slurm_reproduce_manifest_path(const std::string &dir)
{
    return (fs::path(dir) / "reproduce.json").string();
}

nlohmann::json slurm_reproduce_json(const SlurmReproduce &r)
{
    nlohmann::json j;
    j[kManifestKey] = kManifestVersion;
    j["experiments"] = r.experiments;
    j["command"] = r.command;
    j["max_array_size"] = r.max_array_size;
    j["sbatch_options"] = r.sbatch_options;
    j["scripts"] = slurm_scripts_json(r.scripts);
    return j;
}

SlurmReproduce read_slurm_reproduce(const std::string &dir)
{
    const std::string path = slurm_reproduce_manifest_path(dir);
    const nlohmann::json j = read_slurm_json(path);
    const ManifestFields f(path);
    if (!j.is_object() || !j.contains(kManifestKey) || j[kManifestKey] != kManifestVersion)
        f.fail(kManifestKey, "missing or not version 1: not written by `schedscope-cli reproduce --slurm`");
    SlurmReproduce r;
    r.experiments = f.strings(f.at(j, "experiments", ""), "experiments");
    if (r.experiments.empty())
        f.fail("experiments", "no experiments");
    r.command = f.strings(f.at(j, "command", ""), "command");
    r.sbatch_options = f.strings(f.at(j, "sbatch_options", ""), "sbatch_options");
    r.max_array_size = f.whole(f.at(j, "max_array_size", ""), "max_array_size");
    if (r.max_array_size < 1)
        f.fail("max_array_size", "must be at least 1");
    r.scripts = f.scripts(j, r.experiments.size());
    return r;
}

void write_slurm_reproduce(const std::string &dir, const SlurmReproduce &r)
{
    write_file_atomically(slurm_reproduce_manifest_path(dir), slurm_reproduce_json(r).dump(2) + "\n");
}

std::vector<std::size_t> write_reproduce_scripts(const std::string &dir, SlurmReproduce &r,
                                                 const std::vector<std::size_t> &which, const std::string &stem)
{
    const fs::path abs = fs::absolute(dir);
    const std::string out = (abs / "points").string();
    std::string names;
    for (const auto &n : r.experiments)
        names += (names.empty() ? "" : " ") + shell_quote(n);
    const std::string job_prefix = "schedscope-" +
                                   sweep_fingerprint(abs.string() + '\0' + names, SweepSpec{}).substr(0, 8);
    std::vector<PointRange> tasks;
    for (const std::size_t k : which)
        tasks.push_back({k, k});
    const auto arrays = split_arrays(tasks, r.max_array_size);
    std::vector<std::size_t> added;
    for (std::size_t a = 0; a < arrays.size(); ++a) {
        const std::string name = arrays.size() == 1 ? stem : stem + "-" + std::to_string(a + 1);
        SlurmScript s;
        s.file = name + ".sbatch";
        s.job_name = job_prefix + "-" + name;
        s.tasks = arrays[a];
        std::string text = "#!/bin/bash\n";
        text += "# Published experiments as a Slurm job array: " + std::to_string(s.tasks.size()) +
                " task(s), one experiment each. Each is one `schedscope-cli reproduce NAME` run writing\n"
                "# points/K.txt and points/K.json; `schedscope-cli collect` on this folder joins them.\n";
        text += "#SBATCH --job-name=" + s.job_name + "\n";
        text += "#SBATCH --array=0-" + std::to_string(s.tasks.size() - 1) + "\n";
        text += "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n";
        text += "#SBATCH --output=" + (abs / "logs").string() + "/%A_%a.out\n";
        for (const auto &o : r.sbatch_options)
            text += "#SBATCH " + o + "\n";
        text += "set -u\n";
        text += "TASKS=(";
        for (std::size_t i = 0; i < s.tasks.size(); ++i)
            text += (i ? " " : "") + std::to_string(s.tasks[i].first);
        text += ")\nNAMES=(" + names + ")\n";
        text += "k=${TASKS[$SLURM_ARRAY_TASK_ID]}\nout=" + shell_quote(out) + "\n";
        text += "rm -f \"$out/$k.failed\"\n";
        for (const auto &w : r.command)
            text += shell_quote(w) + " ";
        text += "\"${NAMES[$k]}\" --jobs 1 --json \"$out/$k.json.part\" >\"$out/$k.txt.part\"\n";
        text += "rc=$?\n"
                "# 1: a published direction does not hold in the model, a result all the same.\n"
                "if [ $rc -le 1 ]; then\n"
                "  mv -f \"$out/$k.txt.part\" \"$out/$k.txt\" && mv -f \"$out/$k.json.part\" \"$out/$k.json\"\n"
                "  exit $?\n"
                "fi\n"
                "echo \"schedscope-cli reproduce ${NAMES[$k]} exited $rc (its output is in this task's log)\" "
                ">\"$out/$k.failed\"\n"
                "exit $rc\n";
        write_file_atomically((abs / s.file).string(), text);
        added.push_back(r.scripts.size());
        r.scripts.push_back(std::move(s));
    }
    return added;
}

std::vector<PointStatus> scan_experiments(const std::string &dir, const SlurmReproduce &r)
{
    std::vector<PointStatus> out(r.experiments.size());
    for (std::size_t k = 0; k < r.experiments.size(); ++k) {
        const std::string json = points_file(dir, k, ".json");
        const std::string txt = points_file(dir, k, ".txt");
        const std::string failed = points_file(dir, k, ".failed");
        std::error_code ec;
        if (fs::exists(json, ec)) {
            try {
                read_experiment(json, r.experiments[k]);
                std::string text;
                if (!read_slurm_text(txt, text))
                    throw InputError(txt, "cannot read it (the task wrote its JSON but not its table)");
                out[k].state = PointState::done;
            } catch (const InputError &e) {
                out[k].state = PointState::failed;
                out[k].message = e.what();
            }
        } else if (fs::exists(failed, ec)) {
            std::string text;
            read_slurm_text(failed, text);
            while (!text.empty() && text.back() == '\n')
                text.pop_back();
            out[k].state = PointState::failed;
            out[k].message = failed + ": " + (text.empty() ? std::string("the run failed") : text);
        }
    }
    return out;
}

ReproduceCollected collect_reproduce(const std::string &dir, const SlurmReproduce &r,
                                     const std::vector<PointStatus> &status)
{
    const auto missing = points_not_done(status);
    if (!missing.empty())
        throw InputError("collect", std::to_string(missing.size()) + " of " + std::to_string(status.size()) +
                                        " experiments are not done");
    ReproduceCollected c;
    nlohmann::json exps = nlohmann::json::array();
    std::vector<PublishedResult> summaries;
    bool quick = false;
    for (std::size_t k = 0; k < r.experiments.size(); ++k) {
        const std::string txt = points_file(dir, k, ".txt");
        std::string text;
        if (!read_slurm_text(txt, text))
            throw InputError(txt, "cannot read it");
        // Each task printed its table, a blank line and its own scores;
        // reproduce prints the tables one blank line apart, then the scores
        // of them all.
        const std::size_t scores = text.rfind("\nscore, ");
        if (scores == std::string::npos)
            throw InputError(txt, "no score lines: not the output of `schedscope-cli reproduce`");
        c.text += (k ? "\n" : "") + text.substr(0, scores);
        const std::string json_path = points_file(dir, k, ".json");
        nlohmann::json e = read_experiment(json_path, r.experiments[k]);
        try {
            summaries.push_back(published_summary_from_json(e));
        } catch (const std::exception &ex) {
            throw InputError(json_path, std::string("not a reproduce result: ") + ex.what());
        }
        c.all_hold = c.all_hold && summaries.back().direction_ok;
        quick = quick || summaries.back().quick;
        exps.push_back(std::move(e));
    }
    c.text += "\n" + format_scores(summaries) + (quick ? kPublishedQuickNote : "");
    c.json_text = nlohmann::json{{"experiments", exps}, {"score", published_score_json(summaries)}}.dump(2) + "\n";
    return c;
}

} // namespace schedscope
