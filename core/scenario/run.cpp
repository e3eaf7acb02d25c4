#include "scenario/run.h"

#include "analysis/migration_analysis.h"
#include "analysis/migration_json.h"
#include "catalog/catalog.h"
#include "engine/wakeup_param.h"
#include "util/duration_text.h"
#include "util/input_error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace schedscope {

namespace {
constexpr double kNsPerS = 1e9;
const char *const kBindSuffixes[][2] = {{"_HARD_BIND", "hard"}, {"_INVERSE_BIND", "inverse"}};

bool ends_with(const std::string &s, const std::string &suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
} // namespace

std::pair<std::string, std::string> split_bind_suffix(const std::string &workload)
{
    for (auto &[suffix, mode] : kBindSuffixes)
        if (ends_with(workload, suffix) && workload.size() > std::string(suffix).size())
            return {workload.substr(0, workload.size() - std::string(suffix).size()), mode};
    return {workload, ""};
}

std::vector<PolicySpec> effective_policies(const Scenario &s)
{
    const auto [base, mode] = split_bind_suffix(s.workload.name);
    if (mode.empty())
        return s.policies;
    // Keep the wakeup knob the user chose for the first policy, if any.
    PolicySpec bind{"bind", {{"mode", mode}}};
    const std::string &wakeup = wakeup_param_name();
    if (!s.policies.empty() && s.policies.front().params.count(wakeup))
        bind.params[wakeup] = s.policies.front().params.at(wakeup);
    return {bind};
}

Simulation build_simulation(const Scenario &s, const PolicySpec &policy, std::uint64_t seed,
                            std::shared_ptr<const Topology> topo)
{
    SimConfig cfg;
    cfg.seed = seed;
    // The machine's own figures (a sample's "model:" lines), then the
    // scenario's overrides on top.
    if (topo)
        cfg.model.apply_machine_figures(*topo);
    for (auto &[k, v] : s.model)
        cfg.model.set(k, v, s.source.empty() ? "model" : s.source);
    // Rounded, not truncated: 2.05 s is held as a double just below.
    cfg.sample_interval_ns = static_cast<SimTime>(std::llround(s.sample_interval_ms * 1e6));
    cfg.duration_ns = seconds_as_ns(s.duration_s);
    const std::string src = s.source.empty() ? "scenario" : s.source;
    auto pol = make_policy(policy.name, policy.params, src);
    const auto [base, mode] = split_bind_suffix(s.workload.name);
    const WorkloadInfo &w = find_workload(base, src);
    if (!w.fixed_work && cfg.duration_ns <= 0)
        throw InputError(src, 0, "duration_s", "workload '" + w.name + "' measures throughput: give a duration");
    Simulation sim(std::move(topo), std::move(pol), cfg);
    w.build(sim, s.workload.params, src);
    sim.start();
    return sim;
}

namespace {

// The run's series, one array per figure, aligned on time_s: what --json
// writes unless --no-series.
nlohmann::json series_json(const Simulation &sim)
{
    const auto &samples = sim.recording().samples;
    nlohmann::json s;
    std::vector<double> t, u, sy, idle_pct, prog, ops, pm, hf, lw;
    std::vector<std::vector<double>> mig(kDistanceClassCount);
    const auto &procs = sim.processes();
    // null where the process made no memory access in the window: no
    // percentage to give (the engine's -1), as the GUI and traces leave a gap.
    std::vector<nlohmann::json> local_pct(procs.size(), nlohmann::json::array());
    std::vector<nlohmann::json> node_mb(procs.size(), nlohmann::json::array());
    const double npu = sim.topology().pu_count();
    for (size_t i = 0; i < samples.size(); ++i) {
        const auto &m = samples[i];
        t.push_back(static_cast<double>(m.time_ns) / kNsPerS);
        u.push_back(m.user_ns / kNsPerS);
        sy.push_back(m.sys_ns / kNsPerS);
        double busy = 0;
        for (float b : m.pu_busy)
            busy += b;
        idle_pct.push_back(100.0 * (1.0 - busy / npu));
        prog.push_back(m.progress);
        ops.push_back(static_cast<double>(m.ops));
        pm.push_back(static_cast<double>(m.page_migrations));
        hf.push_back(static_cast<double>(m.hinting_faults));
        lw.push_back(m.lock_wait_ns / kNsPerS);
        for (int c = 0; c < kDistanceClassCount; ++c)
            mig[c].push_back(static_cast<double>(m.migrations_by_class[c]));
        for (size_t p = 0; p < procs.size() && p < m.proc_local_pct.size(); ++p) {
            if (m.proc_local_pct[p] >= 0)
                local_pct[p].push_back(m.proc_local_pct[p]);
            else
                local_pct[p].push_back(nullptr);
            nlohmann::json mb = nlohmann::json::object(); // node -> MiB, nodes holding none left out
            for (const NodeBytes &nb : m.proc_node_bytes[p])
                mb[std::to_string(nb.node)] = nb.bytes / (1024.0 * 1024.0);
            node_mb[p].push_back(std::move(mb));
        }
    }
    s["time_s"] = t;
    s["user_s"] = u;
    s["sys_s"] = sy;
    s["idle_pct"] = idle_pct;
    s["progress"] = prog;
    s["ops"] = ops;
    s["page_migrations"] = pm;
    s["hinting_faults"] = hf;
    s["lock_wait_s"] = lw;
    nlohmann::json mj = nlohmann::json::object();
    for (int c = 0; c < kDistanceClassCount; ++c)
        mj[distance_class_name(static_cast<DistanceClass>(c))] = mig[c];
    s["migrations"] = mj;
    nlohmann::json lp = nlohmann::json::object(), nm = nlohmann::json::object();
    for (size_t p = 0; p < procs.size(); ++p) {
        if (procs[p].kernel)
            continue; // the OS's threads: no memory to converge
        const std::string key = std::to_string(p) + ":" + procs[p].name;
        lp[key] = local_pct[p];
        nm[key] = node_mb[p];
    }
    s["local_access_pct"] = lp;
    s["node_mb"] = nm;
    return s;
}

} // namespace

RunResult summarize(const Simulation &sim, bool fixed_work, bool with_series)
{
    RunResult r;
    r.policy = sim.policy().name();
    r.params = sim.policy().params();
    r.seed = sim.config().seed;
    r.finished = sim.finished();
    r.fixed_work = fixed_work;
    const SimTime end = sim.finished() ? sim.end_time() : sim.now();
    r.elapsed_s = static_cast<double>(end) / kNsPerS;
    double user = 0, sys = 0, idle = 0;
    for (auto &rq : sim.runqueues()) {
        user += static_cast<double>(rq.user_ns);
        sys += static_cast<double>(rq.sys_ns);
        idle += static_cast<double>(rq.idle_ns);
    }
    r.user_s = user / kNsPerS;
    r.sys_s = sys / kNsPerS;
    // Linux 3.6 kernel/sched/core.c account_process_tick(): a tick that
    // finds the CPU in user mode is the task's user time, whatever interrupt
    // work the CPU does around it; the task's system time is the ticks that
    // find it in the kernel on its own behalf (system calls, faults).
    double task_sys = 0, task_user = 0;
    for (const Task &t : sim.tasks())
        if (!t.kernel && !t.untimed) {
            task_sys += static_cast<double>(t.stats.sys_ns - t.stats.irq_ns);
            task_user += static_cast<double>(t.stats.user_ns + t.stats.irq_ns);
        }
    r.task_sys_s = task_sys / kNsPerS;
    r.task_user_s = task_user / kNsPerS;
    r.idle_pct = user + sys + idle > 0 ? 100.0 * idle / (user + sys + idle) : 0.0;
    r.throughput = r.elapsed_s > 0 ? static_cast<double>(sim.total_ops()) / r.elapsed_s : 0.0;
    const auto &samples = sim.recording().samples;
    if (!samples.empty()) {
        r.migrations = samples.back().migrations_by_class;
        r.page_migrations = samples.back().page_migrations;
        r.hinting_faults = samples.back().hinting_faults;
        r.lock_wait_s = samples.back().lock_wait_ns / kNsPerS;
    }
    for (auto m : r.migrations)
        r.migrations_total += m;
    double acc = 0, local = 0;
    for (auto &t : sim.tasks()) {
        acc += t.stats.accesses;
        local += t.stats.local_accesses;
    }
    r.local_access_pct = acc > 0 ? 100.0 * local / acc : 100.0;
    r.events = sim.events_processed();
    const MigrationAnalysis ma = analyze_migrations(sim);
    r.hot_migration_pct = 100.0 * ma.totals.hot_share;
    r.refill_cost_ms = ma.totals.refill_stall_ns / 1e6;
    r.migrations_detail = migrations_detail_json(ma);
    if (with_series)
        r.series = series_json(sim);
    return r;
}

RunResult run_policy(const Scenario &s, const PolicySpec &policy, std::uint64_t seed,
                     std::shared_ptr<const Topology> topo, const RunProgress &progress, double max_simulated_s,
                     bool with_series)
{
    Simulation sim = build_simulation(s, policy, seed, std::move(topo));
    const auto [base, mode] = split_bind_suffix(s.workload.name);
    const bool fixed = find_workload(base, s.source).fixed_work;
    const SimTime limit = sim.config().duration_ns > 0 ? sim.config().duration_ns
                                                       : static_cast<SimTime>(max_simulated_s * kNsPerS);
    // Advance in slices so progress can be reported and a caller can stop.
    constexpr SimTime kSliceNs = 100'000'000;
    while (!sim.finished() && sim.now() < limit) {
        sim.run_until(std::min(limit, sim.now() + kSliceNs));
        if (progress) {
            const double f = fixed && sim.config().duration_ns <= 0 ? sim.progress()
                                                                    : static_cast<double>(sim.now()) / limit;
            if (!progress(f))
                break;
        }
    }
    sim.account_to_now(); // stopped at the cap or by the caller
    return summarize(sim, fixed, with_series);
}

std::string format_report(const Scenario &s, const std::vector<std::vector<RunResult>> &by_policy)
{
    struct Figure {
        const char *name;
        double (*get)(const RunResult &);
        bool lower_is_better;
    };
    const bool fixed = !by_policy.empty() && !by_policy.front().empty() && by_policy.front().front().fixed_work;
    std::vector<Figure> figures;
    if (fixed)
        figures.push_back({"Elapsed (s)", [](const RunResult &r) { return r.elapsed_s; }, true});
    else
        figures.push_back({"Throughput (ops/s)", [](const RunResult &r) { return r.throughput; }, false});
    figures.push_back({"User (s)", [](const RunResult &r) { return r.user_s; }, true});
    figures.push_back({"System (s)", [](const RunResult &r) { return r.sys_s; }, true});
    figures.push_back({"Idle (%)", [](const RunResult &r) { return r.idle_pct; }, true});
    figures.push_back({"Migrations", [](const RunResult &r) { return static_cast<double>(r.migrations_total); }, true});
    figures.push_back({"Hot migrations (%)", [](const RunResult &r) { return r.hot_migration_pct; }, true});
    figures.push_back({"Refill cost (ms)", [](const RunResult &r) { return r.refill_cost_ms; }, true});
    figures.push_back(
        {"Page migrations", [](const RunResult &r) { return static_cast<double>(r.page_migrations); }, true});
    figures.push_back({"Local access (%)", [](const RunResult &r) { return r.local_access_pct; }, false});

    std::ostringstream os;
    const int runs = by_policy.empty() ? 0 : static_cast<int>(by_policy.front().size());
    os << (s.name.empty() ? s.workload.name : s.name) << ": workload " << s.workload.name << ", " << runs
       << (runs == 1 ? " run" : " runs") << " per policy\n";
    char line[256];
    std::vector<double> first_avg(figures.size(), 0);
    for (size_t p = 0; p < by_policy.size(); ++p) {
        const auto &rs = by_policy[p];
        if (rs.empty())
            continue;
        std::string title = rs.front().policy;
        std::string params;
        for (auto &[k, v] : rs.front().params)
            params += (params.empty() ? "" : ",") + k + "=" + v;
        os << "\n" << title << (params.empty() ? "" : " (" + params + ")");
        bool all_done = std::all_of(rs.begin(), rs.end(), [](auto &r) { return r.finished; });
        os << (all_done ? "" : "  [not finished: stopped at the time limit]") << "\n";
        std::snprintf(line, sizeof line, "  %-20s %12s %12s %12s %9s\n", "", "Min", "Max", "Avg", "%Change");
        os << line;
        for (size_t f = 0; f < figures.size(); ++f) {
            double mn = 1e300, mx = -1e300, sum = 0;
            for (auto &r : rs) {
                const double v = figures[f].get(r);
                mn = std::min(mn, v);
                mx = std::max(mx, v);
                sum += v;
            }
            const double avg = sum / static_cast<double>(rs.size());
            if (p == 0)
                first_avg[f] = avg;
            // Only against a figure that shows as non-zero: a change from
            // 0.000 (a system time of a few microseconds) means nothing.
            char change[32] = "";
            if (p > 0 && std::fabs(first_avg[f]) >= 0.0005)
                std::snprintf(change, sizeof change, "%+.1f%%", 100.0 * (avg - first_avg[f]) / std::fabs(first_avg[f]));
            std::snprintf(line, sizeof line, "  %-20s %12.3f %12.3f %12.3f %9s\n", figures[f].name, mn, mx, avg,
                          change);
            os << line;
        }
    }
    return os.str();
}

} // namespace schedscope
