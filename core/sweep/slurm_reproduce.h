#pragma once
// `reproduce --slurm DIR`: the published experiments as a Slurm job array,
// one task per experiment, each an ordinary `schedscope-cli reproduce NAME
// --json` run. The folder is laid out as a sweep's (sweep/slurm_collect.h):
//
//   DIR/reproduce.json  the manifest: the experiments in the order a local
//                       reproduce prints them, the command, scripts, jobs
//   DIR/*.sbatch        the array scripts
//   DIR/points/K.txt    experiment K's table, as `reproduce NAME` prints it
//   DIR/points/K.json   its --json (written last: K is done when it is there)
//   DIR/points/K.failed why its run failed
//
// Collecting joins the tables and the experiments of the JSON files in the
// manifest's order: what `reproduce NAME...` prints and writes, byte for
// byte, since each experiment's runs depend on nothing but the experiment.

#include "sweep/slurm_collect.h"

#include <string>
#include <vector>

namespace schedscope {

struct SlurmReproduce {
    std::vector<std::string> experiments; // by name, in the local run's order
    std::vector<std::string> command;     // `schedscope-cli reproduce` with --quick / --dir, before the name
    std::size_t max_array_size = kDefaultMaxArraySize;
    std::vector<std::string> sbatch_options;
    std::vector<SlurmScript> scripts; // tasks are experiment indices (ranges of one)
};

std::string slurm_reproduce_manifest_path(const std::string &dir);
nlohmann::json slurm_reproduce_json(const SlurmReproduce &r);
SlurmReproduce read_slurm_reproduce(const std::string &dir); // InputError naming the file and field
void write_slurm_reproduce(const std::string &dir, const SlurmReproduce &r);

// Scripts running experiments `which` (ascending indices), split at
// r.max_array_size; appended to r.scripts, their indices returned.
std::vector<std::size_t> write_reproduce_scripts(const std::string &dir, SlurmReproduce &r,
                                                 const std::vector<std::size_t> &which, const std::string &stem);

// One status per experiment (PointStatus::run unused).
std::vector<PointStatus> scan_experiments(const std::string &dir, const SlurmReproduce &r);

struct ReproduceCollected {
    std::string text;      // stdout of the local reproduce
    std::string json_text; // its --json file
    bool all_hold = true;  // its exit status: 0 when every direction holds
};
// When every experiment is done (else throws InputError).
ReproduceCollected collect_reproduce(const std::string &dir, const SlurmReproduce &r,
                                     const std::vector<PointStatus> &status);

} // namespace schedscope
