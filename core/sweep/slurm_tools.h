#pragma once
// The Slurm commands a sweep talks to: scontrol for the array limit, sbatch
// to submit, squeue for what is still queued. Each runs as a child process
// through the shell with SLURM_CONF and PATH as this process has them.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace schedscope {

struct CommandOutput {
    int exit_code = -1; // -1: could not run it
    std::string output; // stdout and stderr
};
CommandOutput run_capture(const std::string &command_line);

// MaxArraySize from `scontrol show config`, or kDefaultMaxArraySize when
// scontrol is not there or does not answer; `from` says which.
std::size_t cluster_max_array_size(std::string &from);

// `sbatch --parsable SCRIPT`: the job id. Throws InputError(script) with
// sbatch's own message when it refuses.
std::string sbatch_submit(const std::string &script);

// One array task in the queue.
struct QueuedTask {
    std::string job_id; // the array's job id
    std::string job_name;
    std::size_t task = 0; // SLURM_ARRAY_TASK_ID
    std::string state;    // PENDING, RUNNING, COMPLETING ...
};

// Lines of `squeue -h -r -o '%i|%j|%T'`: "123_4|name|RUNNING". Lines that
// are not array tasks are skipped.
std::vector<QueuedTask> parse_squeue(const std::string &output);

// The queued tasks of jobs with these names; nullopt when squeue cannot be
// run or fails (no cluster here).
std::optional<std::vector<QueuedTask>> squeue_tasks(const std::vector<std::string> &job_names);

// An array task as accounting saw it end.
struct AccountedTask {
    std::string job_id;
    std::size_t task = 0;
    std::string state;     // COMPLETED, FAILED, CANCELLED by 0, TIMEOUT, OUT_OF_MEMORY ...
    std::string exit_code; // "0:0", "1:0", "0:9" (return code:signal)
};

// Lines of `sacct -n -X -P -o JobID,State,ExitCode`: "123_4|CANCELLED by 0|0:0".
std::vector<AccountedTask> parse_sacct(const std::string &output);

// The array tasks of these jobs in accounting; nullopt where sacct cannot
// be run or accounting is off (AccountingStorageType=accounting_storage/none).
std::optional<std::vector<AccountedTask>> sacct_tasks(const std::vector<std::string> &job_ids);

} // namespace schedscope
