#pragma once
// A sweep spread over Slurm array tasks, kept in one folder:
//
//   DIR/sweep.json      the manifest: the sweep's spec, the command each task
//                       runs, the scripts written and the jobs submitted
//   DIR/*.sbatch        the array scripts (sweep/slurm_array.h)
//   DIR/points/N.json   point N's run, written atomically by its task
//   DIR/points/N.failed why point N failed, when its run threw
//   DIR/logs/           the tasks' output (%A_%a.out)
//
// Collecting reads every point back and puts the table together with
// assemble_sweep, so it is byte for byte the table a local sweep prints.
// A point is done, failed (a .failed file, or a result file that cannot be
// read or belongs to another sweep) or missing; nothing is dropped silently.

#include "sweep/slurm_array.h"
#include "sweep/sweep.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace schedscope {

struct SlurmScript {
    std::string file;              // relative to DIR
    std::string job_name;          // as in the script's #SBATCH --job-name
    std::vector<PointRange> tasks; // array task i runs tasks[i]
    std::vector<std::string> jobs; // job ids it was submitted as (by --submit)
};

struct SlurmSweep {
    std::string scenario_name; // for the table's heading and the JSON
    std::string workload_name;
    std::string fingerprint; // sweep_fingerprint of the scenario and spec
    SweepSpec spec;
    std::vector<std::string> command; // one task's run, before "--points RANGE"
    std::size_t chunk = 1;            // points per array task
    std::size_t max_array_size = kDefaultMaxArraySize;
    std::vector<std::string> sbatch_options; // extra #SBATCH lines of every script
    std::vector<SlurmScript> scripts;
};

// Names the scenario text and the sweep: points written for another
// scenario or spec are refused. FNV-1a 64, hex.
std::string sweep_fingerprint(const std::string &scenario_text, const SweepSpec &spec);

std::string slurm_manifest_path(const std::string &dir);
std::string slurm_point_path(const std::string &dir, std::size_t point);
std::string slurm_failure_path(const std::string &dir, std::size_t point);

// The manifests' "scripts" array (sweeps and reproduce runs alike).
nlohmann::json slurm_scripts_json(const std::vector<SlurmScript> &scripts);
nlohmann::json slurm_sweep_json(const SlurmSweep &s);
// Throws InputError naming DIR/sweep.json and the field.
SlurmSweep read_slurm_sweep(const std::string &dir);
void write_slurm_sweep(const std::string &dir, const SlurmSweep &s);

// What a task writes. A result replaces an earlier failure of the point.
void write_point_result(const std::string &dir, const SlurmSweep &s, std::size_t point, const SweepRun &run);
void write_point_failure(const std::string &dir, std::size_t point, const std::string &message);

// Point `point`'s result file read back; throws InputError naming the file
// (and the field) when it is not valid JSON, is cut short, or belongs to
// another point or sweep.
SweepRun read_point_result(const std::string &path, const SlurmSweep &s, std::size_t point);

enum class PointState { done, failed, missing };

struct PointStatus {
    PointState state = PointState::missing;
    std::string message; // failed: why, naming the file
    SweepRun run;        // done
};

// Writes the array scripts that run `points` (ascending) in tasks of
// s.chunk points, split at s.max_array_size tasks per array: DIR/STEM.sbatch,
// or DIR/STEM-1.sbatch, DIR/STEM-2.sbatch ... when split. Appends them to
// s.scripts (the caller writes the manifest) and returns their indices.
std::vector<std::size_t> write_array_scripts(const std::string &dir, SlurmSweep &s,
                                             const std::vector<std::size_t> &points, const std::string &stem);

// The first "rerun-N" none of `scripts` is named after yet (a sweep's or a
// reproduce run's manifest).
std::string next_rerun_stem(const std::vector<SlurmScript> &scripts);

std::vector<PointStatus> scan_points(const std::string &dir, const SlurmSweep &s);

// Points not done, ascending.
std::vector<std::size_t> points_not_done(const std::vector<PointStatus> &status);

// The sweep's table, when every point is done (else throws InputError).
SweepResult collect_result(const SlurmSweep &s, const std::vector<PointStatus> &status);

} // namespace schedscope
