#pragma once
// Slurm job arrays for sweeps: which points each array task runs, how a
// sweep larger than the cluster's array limit is split over several arrays,
// and the batch script each array runs. Text only: submitting and asking the
// queue is sweep/slurm_tools.h.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace schedscope {

// Points first..last, both included.
struct PointRange {
    std::size_t first = 0;
    std::size_t last = 0;
    std::size_t size() const { return last - first + 1; }
    bool operator==(const PointRange &) const = default;
};

// "7" or "3-9".
std::string point_range_text(PointRange r);
// The inverse; the range must lie in [0, points). Throws InputError(source).
PointRange parse_point_range(const std::string &text, std::size_t points, const std::string &source);

// Consecutive runs of `points` (ascending, no repeats) cut into array tasks
// of at most `chunk` points each. {0,1,2,5,6} with chunk 2 gives 0-1, 2, 5-6.
std::vector<PointRange> chunk_points(const std::vector<std::size_t> &points, std::size_t chunk);

// Slurm's MaxArraySize when slurm.conf does not set it: array indices run
// 0..1000 (slurm.conf(5), "MaxArraySize ... default value is 1001").
inline constexpr std::size_t kDefaultMaxArraySize = 1001;

// Array tasks are numbered 0..count-1 and an array may hold at most
// max_array_size of them; more tasks go to further arrays, in order.
std::vector<std::vector<PointRange>> split_arrays(const std::vector<PointRange> &tasks, std::size_t max_array_size);

// MaxArraySize from `scontrol show config` output, if it has a usable one.
std::optional<std::size_t> parse_max_array_size(const std::string &show_config);

// A word for a POSIX shell, single-quoted where it needs to be.
std::string shell_quote(const std::string &word);

struct ArrayScript {
    std::string job_name;             // also how collect finds the tasks in squeue
    std::string log_dir;              // absolute; one log per task, %A_%a.out
    std::vector<std::string> command; // the CLI run of one task, before "--points RANGE"
    std::vector<PointRange> tasks;    // task i runs tasks[i]
    std::size_t total_points = 0;     // of the whole sweep, for the header comment
    std::vector<std::string> options; // more #SBATCH lines: "--partition=long", "--time=2:00:00"
};

// The sbatch script: #SBATCH --array=0-(tasks-1), one CPU per task, and a
// body that runs `command --points RANGE` for its task.
std::string array_script_text(const ArrayScript &script);

} // namespace schedscope
