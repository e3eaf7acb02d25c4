#include "sweep/slurm_collect.h"
#include "sweep/slurm_manifest.h"

#include "util/atomic_file.h"
#include "util/input_error.h"
#include "util/json_input.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace schedscope {

namespace fs = std::filesystem;

namespace {

constexpr const char *kManifestKey = "schedscope_slurm_sweep";
constexpr int kManifestVersion = 1;
constexpr const char *kPointKey = "schedscope_sweep_point";
constexpr int kPointVersion = 1;

nlohmann::json spec_json(const SweepSpec &spec)
{
    return {{"policy", spec.policy},        {"policy_params", spec.base_params},  {"param", spec.param},
            {"values", spec.values},        {"repeat", std::max(1, spec.repeat)}, {"base_seed", spec.base_seed},
            {"fixed_work", spec.fixed_work}};
}

} // namespace

bool read_slurm_text(const std::string &path, std::string &out)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return false;
    std::ostringstream ss;
    ss << in.rdbuf();
    out = ss.str();
    return !in.bad();
}

nlohmann::json read_slurm_json(const std::string &path, const std::string &hint)
{
    std::string text;
    if (!read_slurm_text(path, text))
        throw InputError(path, "cannot read it" + hint);
    return parse_json_input(text, path);
}

void ManifestFields::fail(const std::string &field, const std::string &msg) const
{
    throw InputError(source_, 0, field, msg);
}

const nlohmann::json &ManifestFields::at(const nlohmann::json &obj, const std::string &key,
                                         const std::string &field) const
{
    if (!obj.is_object())
        fail(field, "expected an object");
    const auto it = obj.find(key);
    if (it == obj.end())
        fail(field.empty() ? key : field + "." + key, "missing (the file is cut short or not ours)");
    return *it;
}

std::string ManifestFields::str(const nlohmann::json &v, const std::string &field) const
{
    if (!v.is_string())
        fail(field, "expected a string");
    return v.get<std::string>();
}

double ManifestFields::num(const nlohmann::json &v, const std::string &field) const
{
    if (!v.is_number())
        fail(field, "expected a number");
    return v.get<double>();
}

std::uint64_t ManifestFields::whole(const nlohmann::json &v, const std::string &field) const
{
    if (!v.is_number_unsigned())
        fail(field, "expected a whole number");
    return v.get<std::uint64_t>();
}

bool ManifestFields::boolean(const nlohmann::json &v, const std::string &field) const
{
    if (!v.is_boolean())
        fail(field, "expected true or false");
    return v.get<bool>();
}

std::vector<std::string> ManifestFields::strings(const nlohmann::json &v, const std::string &field) const
{
    if (!v.is_array())
        fail(field, "expected an array of strings");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < v.size(); ++i)
        out.push_back(str(v[i], field + "[" + std::to_string(i) + "]"));
    return out;
}

std::vector<PointRange> ManifestFields::ranges(const nlohmann::json &v, std::size_t points,
                                               const std::string &field) const
{
    std::vector<PointRange> out;
    const auto texts = strings(v, field);
    for (std::size_t i = 0; i < texts.size(); ++i)
        out.push_back(
            parse_point_range(texts[i], points, source_ + ": field '" + field + "[" + std::to_string(i) + "]'"));
    return out;
}

std::vector<SlurmScript> ManifestFields::scripts(const nlohmann::json &manifest, std::size_t points) const
{
    const auto &scripts = at(manifest, "scripts", "");
    if (!scripts.is_array())
        fail("scripts", "expected an array");
    std::vector<SlurmScript> out;
    for (std::size_t i = 0; i < scripts.size(); ++i) {
        const std::string field = "scripts[" + std::to_string(i) + "]";
        SlurmScript t;
        t.file = str(at(scripts[i], "file", field), field + ".file");
        t.job_name = str(at(scripts[i], "job_name", field), field + ".job_name");
        t.tasks = ranges(at(scripts[i], "tasks", field), points, field + ".tasks");
        t.jobs = strings(at(scripts[i], "jobs", field), field + ".jobs");
        out.push_back(std::move(t));
    }
    return out;
}

std::string sweep_fingerprint(const std::string &scenario_text, const SweepSpec &spec)
{
    const std::string text = scenario_text + '\0' + spec_json(spec).dump();
    std::uint64_t h = 14695981039346656037ull; // FNV-1a 64 offset basis
    for (const unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ull; // FNV-1a 64 prime
    }
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

std::string slurm_manifest_path(const std::string &dir) { return (fs::path(dir) / "sweep.json").string(); }

std::string slurm_point_path(const std::string &dir, std::size_t point)
{
    return (fs::path(dir) / "points" / (std::to_string(point) + ".json")).string();
}

std::string slurm_failure_path(const std::string &dir, std::size_t point)
{
    return (fs::path(dir) / "points" / (std::to_string(point) + ".failed")).string();
}

nlohmann::json slurm_scripts_json(const std::vector<SlurmScript> &scripts)
{
    nlohmann::json all = nlohmann::json::array();
    for (const auto &script : scripts) {
        nlohmann::json t;
        t["file"] = script.file;
        t["job_name"] = script.job_name;
        t["tasks"] = nlohmann::json::array();
        for (const auto &r : script.tasks)
            t["tasks"].push_back(point_range_text(r));
        t["jobs"] = script.jobs;
        all.push_back(std::move(t));
    }
    return all;
}

nlohmann::json slurm_sweep_json(const SlurmSweep &s)
{
    nlohmann::json j;
    j[kManifestKey] = kManifestVersion;
    j["scenario"] = s.scenario_name;
    j["workload"] = s.workload_name;
    j["fingerprint"] = s.fingerprint;
    j["spec"] = spec_json(s.spec);
    j["command"] = s.command;
    j["chunk"] = s.chunk;
    j["max_array_size"] = s.max_array_size;
    j["sbatch_options"] = s.sbatch_options;
    j["scripts"] = slurm_scripts_json(s.scripts);
    return j;
}

SlurmSweep read_slurm_sweep(const std::string &dir)
{
    const std::string path = slurm_manifest_path(dir);
    const nlohmann::json j = read_slurm_json(path,
                                             ": is " + dir + " a folder written by `schedscope-cli sweep --slurm`?");
    const ManifestFields f(path);
    if (!j.is_object() || !j.contains(kManifestKey))
        f.fail(kManifestKey, "missing: not a sweep manifest written by `schedscope-cli sweep --slurm`");
    if (f.whole(j[kManifestKey], kManifestKey) != kManifestVersion)
        f.fail(kManifestKey, "version " + j[kManifestKey].dump() + " is not one this build reads (1)");
    SlurmSweep s;
    s.scenario_name = f.str(f.at(j, "scenario", ""), "scenario");
    s.workload_name = f.str(f.at(j, "workload", ""), "workload");
    s.fingerprint = f.str(f.at(j, "fingerprint", ""), "fingerprint");
    const auto &spec = f.at(j, "spec", "");
    s.spec.policy = f.str(f.at(spec, "policy", "spec"), "spec.policy");
    const auto &params = f.at(spec, "policy_params", "spec");
    if (!params.is_object())
        f.fail("spec.policy_params", "expected an object");
    for (const auto &[k, v] : params.items())
        s.spec.base_params[k] = f.str(v, "spec.policy_params." + k);
    s.spec.param = f.str(f.at(spec, "param", "spec"), "spec.param");
    s.spec.values = f.strings(f.at(spec, "values", "spec"), "spec.values");
    if (s.spec.values.empty())
        f.fail("spec.values", "no values");
    const std::uint64_t repeat = f.whole(f.at(spec, "repeat", "spec"), "spec.repeat");
    if (repeat < 1 || repeat > 1000000)
        f.fail("spec.repeat", "expected 1 to 1000000");
    s.spec.repeat = static_cast<int>(repeat);
    s.spec.base_seed = f.whole(f.at(spec, "base_seed", "spec"), "spec.base_seed");
    s.spec.fixed_work = f.boolean(f.at(spec, "fixed_work", "spec"), "spec.fixed_work");
    s.command = f.strings(f.at(j, "command", ""), "command");
    s.chunk = f.whole(f.at(j, "chunk", ""), "chunk");
    s.max_array_size = f.whole(f.at(j, "max_array_size", ""), "max_array_size");
    if (s.chunk < 1 || s.max_array_size < 1)
        f.fail(s.chunk < 1 ? "chunk" : "max_array_size", "must be at least 1");
    s.sbatch_options = f.strings(f.at(j, "sbatch_options", ""), "sbatch_options");
    const std::size_t points = sweep_point_count(s.spec);
    s.scripts = f.scripts(j, points);
    return s;
}

void write_slurm_sweep(const std::string &dir, const SlurmSweep &s)
{
    write_file_atomically(slurm_manifest_path(dir), slurm_sweep_json(s).dump(2) + "\n");
}

void write_point_result(const std::string &dir, const SlurmSweep &s, std::size_t point, const SweepRun &run)
{
    for (const double v : {run.elapsed_s, run.throughput, run.idle_pct, run.user_s, run.sys_s})
        if (!std::isfinite(v))
            throw InputError(slurm_point_path(dir, point), "the run's figures are not finite numbers");
    nlohmann::json j;
    j[kPointKey] = kPointVersion;
    j["fingerprint"] = s.fingerprint;
    j["point"] = point;
    j["value"] = sweep_point_value(s.spec, point);
    j["seed"] = sweep_point_seed(s.spec, point);
    // Doubles print in their shortest form that reads back to the same
    // bits, so the collected table is the local one to the last digit.
    j["run"] = {{"elapsed_s", run.elapsed_s},
                {"throughput", run.throughput},
                {"idle_pct", run.idle_pct},
                {"user_s", run.user_s},
                {"sys_s", run.sys_s}};
    write_file_atomically(slurm_point_path(dir, point), j.dump(2) + "\n");
    std::error_code ec;
    fs::remove(slurm_failure_path(dir, point), ec);
}

void write_point_failure(const std::string &dir, std::size_t point, const std::string &message)
{
    write_file_atomically(slurm_failure_path(dir, point), message + "\n");
}

SweepRun read_point_result(const std::string &path, const SlurmSweep &s, std::size_t point)
{
    const nlohmann::json j = read_slurm_json(path);
    const ManifestFields f(path);
    if (!j.is_object() || !j.contains(kPointKey))
        f.fail(kPointKey, "missing: not a sweep point written by schedscope-cli");
    if (f.whole(j[kPointKey], kPointKey) != kPointVersion)
        f.fail(kPointKey, "version " + j[kPointKey].dump() + " is not one this build reads (1)");
    if (f.str(f.at(j, "fingerprint", ""), "fingerprint") != s.fingerprint)
        f.fail("fingerprint", "written by another sweep (another scenario file or spec) than " +
                                  slurm_manifest_path(fs::path(path).parent_path().parent_path().string()));
    if (f.whole(f.at(j, "point", ""), "point") != point)
        f.fail("point", "holds point " + j["point"].dump() + ", not " + std::to_string(point));
    if (f.str(f.at(j, "value", ""), "value") != sweep_point_value(s.spec, point) ||
        f.whole(f.at(j, "seed", ""), "seed") != sweep_point_seed(s.spec, point))
        f.fail("value", "value or seed differ from the manifest's point " + std::to_string(point));
    const auto &r = f.at(j, "run", "");
    SweepRun run;
    run.elapsed_s = f.num(f.at(r, "elapsed_s", "run"), "run.elapsed_s");
    run.throughput = f.num(f.at(r, "throughput", "run"), "run.throughput");
    run.idle_pct = f.num(f.at(r, "idle_pct", "run"), "run.idle_pct");
    run.user_s = f.num(f.at(r, "user_s", "run"), "run.user_s");
    run.sys_s = f.num(f.at(r, "sys_s", "run"), "run.sys_s");
    return run;
}

std::vector<std::size_t> write_array_scripts(const std::string &dir, SlurmSweep &s,
                                             const std::vector<std::size_t> &points, const std::string &stem)
{
    const fs::path abs = fs::absolute(dir);
    // The job name carries the folder's identity, so that collect finds its
    // own tasks in squeue and not those of the same sweep run elsewhere.
    const std::string job_prefix = "schedscope-" +
                                   sweep_fingerprint(abs.string() + '\0' + s.fingerprint, s.spec).substr(0, 8);
    const auto arrays = split_arrays(chunk_points(points, s.chunk), s.max_array_size);
    std::vector<std::size_t> added;
    for (std::size_t k = 0; k < arrays.size(); ++k) {
        const std::string name = arrays.size() == 1 ? stem : stem + "-" + std::to_string(k + 1);
        SlurmScript script;
        script.file = name + ".sbatch";
        script.job_name = job_prefix + "-" + name;
        script.tasks = arrays[k];
        ArrayScript text;
        text.job_name = script.job_name;
        text.log_dir = (abs / "logs").string();
        text.command = s.command;
        text.tasks = arrays[k];
        text.total_points = sweep_point_count(s.spec);
        text.options = s.sbatch_options;
        write_file_atomically((abs / script.file).string(), array_script_text(text));
        added.push_back(s.scripts.size());
        s.scripts.push_back(std::move(script));
    }
    return added;
}

std::string next_rerun_stem(const std::vector<SlurmScript> &scripts)
{
    for (int n = 1;; ++n) {
        std::string stem = "rerun-" + std::to_string(n);
        bool used = false;
        for (const auto &script : scripts)
            used = used || script.file == stem + ".sbatch" || script.file.rfind(stem + "-", 0) == 0;
        if (!used)
            return stem;
    }
}

std::vector<PointStatus> scan_points(const std::string &dir, const SlurmSweep &s)
{
    const std::size_t points = sweep_point_count(s.spec);
    std::vector<PointStatus> out(points);
    for (std::size_t i = 0; i < points; ++i) {
        const std::string result = slurm_point_path(dir, i);
        const std::string failure = slurm_failure_path(dir, i);
        std::error_code ec;
        if (fs::exists(result, ec)) {
            try {
                out[i].run = read_point_result(result, s, i);
                out[i].state = PointState::done;
            } catch (const InputError &e) {
                out[i].state = PointState::failed;
                out[i].message = e.what();
            }
        } else if (fs::exists(failure, ec)) {
            std::string text;
            read_slurm_text(failure, text);
            while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
                text.pop_back();
            out[i].state = PointState::failed;
            out[i].message = failure + ": " + (text.empty() ? std::string("the run failed") : text);
        }
    }
    return out;
}

std::vector<std::size_t> points_not_done(const std::vector<PointStatus> &status)
{
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < status.size(); ++i)
        if (status[i].state != PointState::done)
            out.push_back(i);
    return out;
}

SweepResult collect_result(const SlurmSweep &s, const std::vector<PointStatus> &status)
{
    const auto missing = points_not_done(status);
    if (!missing.empty())
        throw InputError("collect", std::to_string(missing.size()) + " of " + std::to_string(status.size()) +
                                        " points are not done");
    std::vector<SweepRun> runs;
    runs.reserve(status.size());
    for (const auto &p : status)
        runs.push_back(p.run);
    return assemble_sweep(s.spec, runs);
}

} // namespace schedscope
