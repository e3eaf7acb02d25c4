#pragma once
// `schedscope-cli reproduce --slurm DIR`: the experiments as a Slurm job
// array (sweep/slurm_reproduce.h) instead of runs here. Kept out of
// cmd_reproduce.cpp, which only registers these options and calls
// reproduce_on_slurm when --slurm is given.

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace schedscope::cli {

struct ReproduceSlurmOptions {
    std::string dir;
    bool submit = false;
    std::size_t array_limit = 0;
    std::vector<std::string> sbatch_options;
};

void add_reproduce_slurm_options(CLI::App *sub, ReproduceSlurmOptions &o);

// True when --slurm was given; throws InputError for --submit without it.
bool wants_slurm(const ReproduceSlurmOptions &o);

// names: as given to reproduce (empty = all); published: its --dir (empty =
// the default directory).
int reproduce_on_slurm(const ReproduceSlurmOptions &o, const std::vector<std::string> &names,
                       const std::string &published, bool quick);

} // namespace schedscope::cli
