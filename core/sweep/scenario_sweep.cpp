#include "sweep/scenario_sweep.h"

#include "catalog/catalog.h"
#include "engine/wakeup_param.h"
#include "scenario/run.h"
#include "util/input_error.h"

namespace schedscope {

SweepSpec scenario_sweep_spec(const Scenario &s, const PolicySpec &policy, const std::string &param,
                              const std::vector<std::string> &values, int repeat)
{
    const std::string source = s.source.empty() ? "sweep" : s.source;
    const PolicyInfo &info = find_policy(policy.name, "--policy");
    bool known = param == wakeup_param_name();
    for (const auto &p : info.params)
        known = known || p.name == param;
    if (!known)
        throw InputError("--param", 0, param, "not a parameter of policy '" + policy.name + "'");
    // Every value must make a valid policy: fail now, not after an hour of runs.
    for (const auto &v : values) {
        ParamMap p = policy.params;
        p[param] = v;
        make_policy(policy.name, p, "--param " + param + "=" + v);
    }
    const auto [base, mode] = split_bind_suffix(s.workload.name);
    const WorkloadInfo &w = find_workload(base, source);

    SweepSpec spec;
    spec.policy = policy.name;
    spec.base_params = policy.params;
    spec.param = param;
    spec.values = values;
    spec.repeat = repeat > 0 ? repeat : std::max(1, s.repeat);
    spec.base_seed = s.seed;
    spec.fixed_work = w.fixed_work;
    return spec;
}

namespace {

SweepRun run_one(const Scenario &s, const SweepSpec &spec, const ParamMap &params, std::uint64_t seed,
                 const std::shared_ptr<const Topology> &topo)
{
    const RunResult r = run_policy(s, PolicySpec{spec.policy, params}, seed, topo);
    if (!r.finished)
        throw InputError(s.source.empty() ? "sweep" : s.source, "a run with " + spec.param + "=" +
                                                                    params.at(spec.param) +
                                                                    " did not finish its work within the run limit");
    SweepRun out;
    out.elapsed_s = r.elapsed_s;
    out.throughput = r.throughput;
    out.idle_pct = r.idle_pct;
    out.user_s = r.user_s;
    out.sys_s = r.sys_s;
    return out;
}

} // namespace

SweepRun run_scenario_sweep_point(const Scenario &s, const SweepSpec &spec, std::size_t point,
                                  const std::shared_ptr<const Topology> &topo)
{
    return run_one(s, spec, sweep_point_params(spec, point), sweep_point_seed(spec, point), topo);
}

SweepResult sweep_scenario(const Scenario &s, const PolicySpec &policy, const std::string &param,
                           const std::vector<std::string> &values, int repeat, unsigned threads,
                           const std::function<void(int, int)> &progress)
{
    const SweepSpec spec = scenario_sweep_spec(s, policy, param, values, repeat);
    const auto topo = scenario_topology(s);
    auto runner = [&](const ParamMap &params, std::uint64_t seed) { return run_one(s, spec, params, seed, topo); };
    return run_sweep(spec, runner, threads, progress);
}

} // namespace schedscope
