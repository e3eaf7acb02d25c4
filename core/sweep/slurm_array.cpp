#include "sweep/slurm_array.h"

#include "util/input_error.h"

#include <charconv>
#include <sstream>

namespace schedscope {

std::string point_range_text(PointRange r)
{
    return r.first == r.last ? std::to_string(r.first) : std::to_string(r.first) + "-" + std::to_string(r.last);
}

namespace {

bool parse_index(const std::string &text, std::size_t &out)
{
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
        return false;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size();
}

} // namespace

PointRange parse_point_range(const std::string &text, std::size_t points, const std::string &source)
{
    const auto dash = text.find('-');
    PointRange r;
    const bool ok = dash == std::string::npos
                        ? parse_index(text, r.first) && (r.last = r.first, true)
                        : parse_index(text.substr(0, dash), r.first) && parse_index(text.substr(dash + 1), r.last);
    if (!ok)
        throw InputError(source, "expected a point N or a range N-M, got '" + text + "'");
    if (r.first > r.last || r.last >= points)
        throw InputError(source, "points '" + text + "' outside 0-" + std::to_string(points == 0 ? 0 : points - 1) +
                                     " of this sweep");
    return r;
}

std::vector<PointRange> chunk_points(const std::vector<std::size_t> &points, std::size_t chunk)
{
    if (chunk == 0)
        chunk = 1;
    std::vector<PointRange> tasks;
    for (const std::size_t p : points) {
        if (!tasks.empty() && tasks.back().last + 1 == p && tasks.back().size() < chunk)
            tasks.back().last = p;
        else
            tasks.push_back({p, p});
    }
    return tasks;
}

std::vector<std::vector<PointRange>> split_arrays(const std::vector<PointRange> &tasks, std::size_t max_array_size)
{
    if (max_array_size == 0)
        max_array_size = 1;
    std::vector<std::vector<PointRange>> arrays;
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        if (i % max_array_size == 0)
            arrays.emplace_back();
        arrays.back().push_back(tasks[i]);
    }
    return arrays;
}

std::optional<std::size_t> parse_max_array_size(const std::string &show_config)
{
    std::istringstream in(show_config);
    std::string line;
    while (std::getline(in, line)) {
        // "MaxArraySize            = 1001"
        if (line.rfind("MaxArraySize", 0) != 0)
            continue;
        const auto eq = line.find('=');
        if (eq == std::string::npos || line.substr(0, eq).find_first_not_of(' ', 12) != std::string::npos)
            continue;
        std::string value = line.substr(eq + 1);
        value.erase(0, value.find_first_not_of(" \t"));
        value.erase(value.find_last_not_of(" \t\r") + 1);
        std::size_t n = 0;
        // MaxArraySize=0 disables job arrays: no use here.
        if (parse_index(value, n) && n > 0)
            return n;
        return std::nullopt;
    }
    return std::nullopt;
}

std::string shell_quote(const std::string &word)
{
    if (!word.empty() && word.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
                                                "_-+=./:,@%") == std::string::npos)
        return word;
    std::string out = "'";
    for (const char c : word)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string array_script_text(const ArrayScript &s)
{
    std::string out = "#!/bin/bash\n";
    const std::size_t first = s.tasks.empty() ? 0 : s.tasks.front().first;
    const std::size_t last = s.tasks.empty() ? 0 : s.tasks.back().last;
    std::size_t points = 0;
    for (const auto &t : s.tasks)
        points += t.size();
    out += "# A schedscope sweep as a Slurm job array: " + std::to_string(s.tasks.size()) + " task" +
           (s.tasks.size() == 1 ? "" : "s") + " running " + std::to_string(points) + " of the sweep's " +
           std::to_string(s.total_points) + " points (" + std::to_string(first) + " to " + std::to_string(last) +
           ").\n";
    out += "# Each task is one deterministic schedscope-cli run writing points/N.json;\n"
           "# `schedscope-cli collect` on this folder merges them into the sweep's table.\n";
    out += "#SBATCH --job-name=" + s.job_name + "\n";
    out += "#SBATCH --array=0-" + std::to_string(s.tasks.empty() ? 0 : s.tasks.size() - 1) + "\n";
    out += "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n";
    out += "#SBATCH --output=" + s.log_dir + "/%A_%a.out\n";
    for (const auto &o : s.options)
        out += "#SBATCH " + o + "\n";
    out += "set -eu\n";
    out += "TASKS=(";
    for (std::size_t i = 0; i < s.tasks.size(); ++i)
        out += (i == 0 ? "" : " ") + point_range_text(s.tasks[i]);
    out += ")\n";
    out += "exec";
    for (const auto &w : s.command)
        out += " " + shell_quote(w);
    out += " --points \"${TASKS[$SLURM_ARRAY_TASK_ID]}\"\n";
    return out;
}

} // namespace schedscope
