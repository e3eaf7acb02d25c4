#include "sweep/slurm_tools.h"

#include "sweep/slurm_array.h"
#include "util/input_error.h"

#include <charconv>
#include <cstdio>
#include <sstream>
#include <sys/wait.h>

namespace schedscope {

CommandOutput run_capture(const std::string &command_line)
{
    CommandOutput out;
    FILE *p = ::popen((command_line + " </dev/null 2>&1").c_str(), "r");
    if (!p)
        return out;
    char buf[4096];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0)
        out.output.append(buf, n);
    const int status = ::pclose(p);
    // The shell exits 127 when it cannot find the command.
    out.exit_code = status == -1 ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return out;
}

std::size_t cluster_max_array_size(std::string &from)
{
    const CommandOutput r = run_capture("scontrol show config");
    if (r.exit_code == 0) {
        if (const auto n = parse_max_array_size(r.output)) {
            from = "MaxArraySize from `scontrol show config`";
            return *n;
        }
    }
    from = "Slurm's default MaxArraySize (`scontrol show config` did not answer)";
    return kDefaultMaxArraySize;
}

std::string sbatch_submit(const std::string &script)
{
    const CommandOutput r = run_capture("sbatch --parsable " + shell_quote(script));
    std::string text = r.output;
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.pop_back();
    if (r.exit_code == 127)
        throw InputError(script, "cannot submit: sbatch not found (is this a Slurm login node?)");
    // --parsable prints "jobid" or "jobid;cluster" and nothing else.
    const std::string id = text.substr(0, text.find(';'));
    if (r.exit_code != 0 || id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
        throw InputError(script, "sbatch refused it (exit " + std::to_string(r.exit_code) + "): " + text);
    return id;
}

std::vector<QueuedTask> parse_squeue(const std::string &output)
{
    std::vector<QueuedTask> out;
    std::istringstream in(output);
    std::string line;
    while (std::getline(in, line)) {
        const auto bar1 = line.find('|');
        const auto bar2 = bar1 == std::string::npos ? std::string::npos : line.find('|', bar1 + 1);
        if (bar2 == std::string::npos)
            continue;
        const std::string id = line.substr(0, bar1);
        const auto underscore = id.find('_');
        if (underscore == std::string::npos)
            continue;
        QueuedTask t;
        t.job_id = id.substr(0, underscore);
        const std::string task = id.substr(underscore + 1);
        const auto [end, ec] = std::from_chars(task.data(), task.data() + task.size(), t.task);
        if (ec != std::errc() || end != task.data() + task.size())
            continue; // "123_[4-9]": squeue without -r; not ours
        t.job_name = line.substr(bar1 + 1, bar2 - bar1 - 1);
        t.state = line.substr(bar2 + 1);
        while (!t.state.empty() && (t.state.back() == '\r' || t.state.back() == ' '))
            t.state.pop_back();
        out.push_back(std::move(t));
    }
    return out;
}

std::vector<AccountedTask> parse_sacct(const std::string &output)
{
    std::vector<AccountedTask> out;
    // The same "id|a|b" shape as squeue's lines.
    for (const auto &t : parse_squeue(output)) {
        AccountedTask a;
        a.job_id = t.job_id;
        a.task = t.task;
        a.state = t.job_name;
        a.exit_code = t.state;
        out.push_back(std::move(a));
    }
    return out;
}

std::optional<std::vector<AccountedTask>> sacct_tasks(const std::vector<std::string> &job_ids)
{
    if (job_ids.empty())
        return std::vector<AccountedTask>{};
    std::string ids;
    for (const auto &id : job_ids)
        ids += (ids.empty() ? "" : ",") + id;
    const CommandOutput r = run_capture("sacct -n -X -P -o JobID,State,ExitCode -j " + shell_quote(ids));
    if (r.exit_code != 0)
        return std::nullopt;
    return parse_sacct(r.output);
}

std::optional<std::vector<QueuedTask>> squeue_tasks(const std::vector<std::string> &job_names)
{
    if (job_names.empty())
        return std::vector<QueuedTask>{};
    std::string names;
    for (const auto &n : job_names)
        names += (names.empty() ? "" : ",") + n;
    const CommandOutput r = run_capture("squeue -h -r -o '%i|%j|%T' --name=" + shell_quote(names));
    if (r.exit_code != 0)
        return std::nullopt;
    return parse_squeue(r.output);
}

} // namespace schedscope
