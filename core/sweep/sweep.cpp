#include "sweep/sweep.h"

#include "util/input_error.h"
#include "util/parallel.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace schedscope {

std::vector<std::string> split_values(const std::string &list, const std::string &source)
{
    std::vector<std::string> out;
    size_t pos = 0;
    for (;;) {
        const size_t comma = list.find(',', pos);
        std::string item = list.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        if (item.empty())
            throw InputError(source, "empty value in '" + list + "'");
        out.push_back(std::move(item));
        if (comma == std::string::npos)
            break;
        pos = comma + 1;
    }
    return out;
}

namespace {

// Higher is better for both kinds, so the table reads the same way.
double performance(const SweepRun &r, bool fixed_work)
{
    if (fixed_work)
        return r.elapsed_s > 0 ? 1.0 / r.elapsed_s : 0.0;
    return r.throughput;
}

SweepRun mean_of(const std::vector<SweepRun> &runs)
{
    SweepRun m;
    if (runs.empty())
        return m;
    for (const auto &r : runs) {
        m.elapsed_s += r.elapsed_s;
        m.throughput += r.throughput;
        m.idle_pct += r.idle_pct;
        m.user_s += r.user_s;
        m.sys_s += r.sys_s;
    }
    const double n = static_cast<double>(runs.size());
    m.elapsed_s /= n;
    m.throughput /= n;
    m.idle_pct /= n;
    m.user_s /= n;
    m.sys_s /= n;
    return m;
}

} // namespace

std::size_t sweep_point_count(const SweepSpec &spec)
{
    return spec.values.size() * static_cast<std::size_t>(std::max(1, spec.repeat));
}

const std::string &sweep_point_value(const SweepSpec &spec, std::size_t point)
{
    return spec.values.at(point / static_cast<std::size_t>(std::max(1, spec.repeat)));
}

std::uint64_t sweep_point_seed(const SweepSpec &spec, std::size_t point)
{
    return spec.base_seed + static_cast<std::uint64_t>(point % static_cast<std::size_t>(std::max(1, spec.repeat)));
}

ParamMap sweep_point_params(const SweepSpec &spec, std::size_t point)
{
    ParamMap params = spec.base_params;
    params[spec.param] = sweep_point_value(spec, point);
    return params;
}

SweepResult run_sweep(const SweepSpec &spec, const SweepRunner &runner, unsigned threads,
                      const std::function<void(int, int)> &progress)
{
    if (spec.values.empty())
        throw InputError("sweep", "no values to sweep");
    const int total = static_cast<int>(sweep_point_count(spec));
    std::vector<SweepRun> slots(static_cast<size_t>(total));
    run_parallel(
        static_cast<size_t>(total), threads,
        [&](size_t job) { slots[job] = runner(sweep_point_params(spec, job), sweep_point_seed(spec, job)); },
        [&](size_t done) {
            if (progress)
                progress(static_cast<int>(done), total);
        });
    return assemble_sweep(spec, slots);
}

SweepResult assemble_sweep(const SweepSpec &spec, const std::vector<SweepRun> &slots)
{
    if (spec.values.empty())
        throw InputError("sweep", "no values to sweep");
    if (slots.size() != sweep_point_count(spec))
        throw std::logic_error("assemble_sweep: " + std::to_string(slots.size()) + " runs for " +
                               std::to_string(sweep_point_count(spec)) + " points");
    const size_t repeat = static_cast<size_t>(std::max(1, spec.repeat));
    SweepResult result;
    result.spec = spec;
    for (size_t v = 0; v < spec.values.size(); ++v) {
        SweepPoint pt;
        pt.value = spec.values[v];
        pt.runs.assign(slots.begin() + static_cast<std::ptrdiff_t>(v * repeat),
                       slots.begin() + static_cast<std::ptrdiff_t>((v + 1) * repeat));
        pt.mean = mean_of(pt.runs);
        result.points.push_back(std::move(pt));
    }
    const double base = performance(result.points.front().mean, spec.fixed_work);
    for (auto &pt : result.points) {
        const double perf = performance(pt.mean, spec.fixed_work);
        pt.relative = base > 0 ? 100.0 * perf / base : 0.0;
        double var = 0;
        for (const auto &r : pt.runs) {
            const double rel = base > 0 ? 100.0 * performance(r, spec.fixed_work) / base : 0.0;
            var += (rel - pt.relative) * (rel - pt.relative);
        }
        pt.relative_stddev = pt.runs.size() > 1 ? std::sqrt(var / static_cast<double>(pt.runs.size() - 1)) : 0.0;
    }
    return result;
}

std::string sweep_table(const SweepResult &r)
{
    const bool fixed = r.spec.fixed_work;
    std::string out;
    char line[256];
    std::snprintf(line, sizeof line, "%-16s %10s %8s %14s %10s %10s\n", r.spec.param.c_str(),
                  fixed ? "perf" : "throughput", "idle %", fixed ? "elapsed s" : "ops/s", "user s", "sys s");
    out += line;
    for (const auto &pt : r.points) {
        std::snprintf(line, sizeof line, "%-16s %10.1f %8.1f %14.*f %10.2f %10.2f\n", pt.value.c_str(), pt.relative,
                      pt.mean.idle_pct, fixed ? 3 : 1, fixed ? pt.mean.elapsed_s : pt.mean.throughput, pt.mean.user_s,
                      pt.mean.sys_s);
        out += line;
    }
    const int repeat = std::max(1, r.spec.repeat);
    std::snprintf(line, sizeof line, "(%s = 100.0; %s; mean of %d run%s, seeds %llu..%llu)\n",
                  r.points.empty() ? "" : r.points.front().value.c_str(),
                  fixed ? "performance = 1 / elapsed" : "throughput in ops/s", repeat, repeat == 1 ? "" : "s",
                  static_cast<unsigned long long>(r.spec.base_seed),
                  static_cast<unsigned long long>(r.spec.base_seed + static_cast<std::uint64_t>(repeat) - 1));
    out += line;
    return out;
}

nlohmann::json sweep_json(const SweepResult &r)
{
    nlohmann::json j;
    j["policy"] = r.spec.policy;
    j["policy_params"] = r.spec.base_params;
    j["param"] = r.spec.param;
    j["repeat"] = std::max(1, r.spec.repeat);
    j["base_seed"] = r.spec.base_seed;
    j["metric"] = r.spec.fixed_work ? "1/elapsed" : "throughput";
    j["points"] = nlohmann::json::array();
    for (const auto &pt : r.points) {
        nlohmann::json p;
        p["value"] = pt.value;
        p["relative"] = pt.relative;
        p["relative_stddev"] = pt.relative_stddev;
        p["idle_pct"] = pt.mean.idle_pct;
        p["elapsed_s"] = pt.mean.elapsed_s;
        p["throughput"] = pt.mean.throughput;
        p["user_s"] = pt.mean.user_s;
        p["sys_s"] = pt.mean.sys_s;
        p["runs"] = nlohmann::json::array();
        for (const auto &run : pt.runs)
            p["runs"].push_back({{"elapsed_s", run.elapsed_s},
                                 {"throughput", run.throughput},
                                 {"idle_pct", run.idle_pct},
                                 {"user_s", run.user_s},
                                 {"sys_s", run.sys_s}});
        j["points"].push_back(std::move(p));
    }
    return j;
}

std::string sweep_report(const std::string &scenario, const std::string &workload, const SweepResult &r)
{
    return scenario + ": " + r.spec.policy + ", " + r.spec.param + " swept over " + workload + "\n" + sweep_table(r);
}

std::string sweep_report_json(const std::string &scenario, const std::string &workload, const SweepResult &r)
{
    nlohmann::json j = sweep_json(r);
    j["scenario"] = scenario;
    j["workload"] = workload;
    return j.dump(2) + "\n";
}

} // namespace schedscope
