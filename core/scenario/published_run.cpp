// Running published experiments (published.h): every (row, seed) as one
// scenario run on the sweep pool, runs shared by several rows once; profile
// experiments through the migration profiler's model mode. Then ours beside
// theirs, and the direction's claims checked on our figures.

#include "scenario/published.h"

#include "profiler/migration_profiler.h"
#include "scenario/run.h"
#include "topology/import.h"
#include "util/input_error.h"
#include "util/parallel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace schedscope {

namespace {

double metric_value(const RunResult &r, const std::string &name)
{
    if (name == "elapsed_s")
        return r.elapsed_s;
    if (name == "throughput")
        return r.throughput;
    if (name == "user_s")
        return r.user_s;
    if (name == "sys_s")
        return r.sys_s;
    if (name == "task_sys_s")
        return r.task_sys_s;
    if (name == "task_user_s")
        return r.task_user_s;
    if (name == "idle_pct")
        return r.idle_pct;
    if (name == "migrations_total")
        return static_cast<double>(r.migrations_total);
    if (name == "page_migrations")
        return static_cast<double>(r.page_migrations);
    if (name == "hinting_faults")
        return static_cast<double>(r.hinting_faults);
    if (name == "lock_wait_s")
        return r.lock_wait_s;
    if (name == "local_access_pct")
        return r.local_access_pct;
    if (name == "hot_migration_pct")
        return r.hot_migration_pct;
    if (name == "refill_cost_ms")
        return r.refill_cost_ms;
    for (int c = 1; c < kDistanceClassCount; ++c)
        if (name == std::string("migrations.") + distance_class_name(static_cast<DistanceClass>(c)))
            return static_cast<double>(r.migrations[static_cast<size_t>(c)]);
    throw std::logic_error("metric '" + name + "' passed validation but has no getter");
}

double mean(const std::vector<double> &v)
{
    return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

// One simulation the experiments need, and the (experiment, row, seed) slots
// that read it.
struct Job {
    Scenario scenario;
    PolicySpec policy;
    std::uint64_t seed = 0;
    std::shared_ptr<const Topology> topo;
    std::string where; // "name: row 'label'" for messages
    RunResult result;
};

Scenario effective_scenario(const PublishedExperiment &e, const PublishedRow &row, bool quick)
{
    Scenario s = row.scenario;
    const double duration = quick ? e.quick_duration_s : e.duration_s;
    if (duration > 0)
        s.duration_s = duration;
    if (quick)
        for (auto &[k, v] : e.quick_workload_params)
            s.workload.params[k] = v;
    return s;
}

std::string job_key(const Scenario &s, const PolicySpec &p, std::uint64_t seed)
{
    nlohmann::json j = scenario_to_json(s);
    j.erase("name");
    j.erase("description");
    j.erase("policies");
    j["source"] = s.source; // relative topology paths resolve against it
    j["policy"] = p.name;
    j["policy_params"] = p.params;
    j["seed"] = seed;
    return j.dump();
}

// Profile rows: the matrix entries a row selects.
std::vector<double> profile_values(const MigrationProfile &p, const Topology &topo, const PublishedRow &row)
{
    std::vector<double> out;
    const int n = static_cast<int>(p.matrix_ms.size());
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b) {
            const double v = p.matrix_ms[static_cast<size_t>(a)][static_cast<size_t>(b)];
            if (std::isnan(v))
                continue;
            const bool pick = row.pairs == "diagonal"       ? a == b
                              : row.pairs == "off-diagonal" ? a != b
                                                            : row.pairs == distance_class_name(topo.distance(a, b).cls);
            if (pick)
                out.push_back(v);
        }
    return out;
}

double stat_of(const std::vector<double> &v, const std::string &stat)
{
    if (stat == "min")
        return *std::min_element(v.begin(), v.end());
    if (stat == "max")
        return *std::max_element(v.begin(), v.end());
    return mean(v);
}

} // namespace

std::string format_published_value(double v)
{
    char buf[64];
    const double a = std::fabs(v);
    if (a >= 10000)
        std::snprintf(buf, sizeof buf, "%.0f", v);
    else if (a >= 100)
        std::snprintf(buf, sizeof buf, "%.1f", v);
    else if (a >= 1 || a == 0)
        std::snprintf(buf, sizeof buf, "%.2f", v);
    else
        std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

namespace {

std::string fmt(double v) { return format_published_value(v); }

std::string quoted_list(const std::vector<std::string> &v)
{
    std::string s;
    for (const auto &x : v)
        s += (s.empty() ? "'" : ", '") + x + "'";
    return s;
}

} // namespace

bool claim_holds(const PublishedClaim &c, const std::map<std::string, double> &values)
{
    auto at = [&](const std::string &l) { return values.at(l); };
    if (c.kind == PublishedClaim::Kind::Flat) {
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        for (const auto &l : c.rows) {
            lo = std::min(lo, at(l));
            hi = std::max(hi, at(l));
        }
        if (lo <= 0)
            return hi - lo <= 0;
        return hi <= lo * (1.0 + c.within_pct / 100.0);
    }
    const bool above = c.kind == PublishedClaim::Kind::Above;
    // With several rows, the best of them for the claim: the peak of a group.
    double v = at(c.rows.front());
    for (const auto &l : c.rows)
        v = above ? std::max(v, at(l)) : std::min(v, at(l));
    for (const auto &l : c.than) {
        const double other = at(l);
        const double margin = std::fabs(other) * c.by_pct / 100.0;
        if (above ? !(v > other + margin) : !(v < other - margin))
            return false;
    }
    return true;
}

std::string describe_claim(const PublishedClaim &c)
{
    if (c.kind == PublishedClaim::Kind::Flat) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g", c.within_pct);
        return quoted_list(c.rows) + " within " + buf + " % of each other";
    }
    std::string s = (c.rows.size() > 1 ? "the best of " : "") + quoted_list(c.rows) +
                    (c.kind == PublishedClaim::Kind::Above ? " above " : " below ");
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", std::fabs(c.by_pct));
    if (c.by_pct > 0)
        s += std::string("by more than ") + buf + " % ";
    s += quoted_list(c.than);
    if (c.by_pct < 0)
        s += std::string(", or at most ") + buf + " % " + (c.kind == PublishedClaim::Kind::Above ? "below" : "above");
    return s;
}

bool row_within(const PublishedRowResult &row)
{
    const bool in_range = row.published_min && row.published_max && row.ours >= *row.published_min &&
                          row.ours <= *row.published_max;
    if (row.within_rule == PublishedWithin::Range)
        return in_range;
    return in_range || (row.ratio && std::fabs(*row.ratio - 1.0) <= kPublishedWithinFraction);
}

namespace {

PublishedScore score_of(const std::vector<PublishedResult> &results, const CalibrationStatus *only)
{
    PublishedScore s;
    for (const auto &r : results) {
        if (only && r.calibration.status != *only)
            continue;
        ++s.experiments;
        if (r.has_direction) {
            ++s.directions;
            s.directions_held += r.direction_ok ? 1 : 0;
        }
        s.claims += r.claims;
        s.claims_held += r.claims_held;
        s.rows += r.compared;
        s.rows_within += r.within_30pct;
    }
    return s;
}

} // namespace

PublishedScore score_published(const std::vector<PublishedResult> &results) { return score_of(results, nullptr); }

PublishedScore score_published(const std::vector<PublishedResult> &results, CalibrationStatus status)
{
    return score_of(results, &status);
}

std::string format_score(const PublishedScore &s)
{
    return "directions held " + std::to_string(s.directions_held) + " of " + std::to_string(s.directions) +
           " (claims " + std::to_string(s.claims_held) + " of " + std::to_string(s.claims) + "), rows within ±30 % " +
           std::to_string(s.rows_within) + " of " + std::to_string(s.rows);
}

std::string format_scores(const std::vector<PublishedResult> &results)
{
    std::string out;
    const PublishedScore all = score_published(results);
    out += "score, " + std::to_string(all.experiments) + (all.experiments == 1 ? " experiment: " : " experiments: ") +
           format_score(all) + "\n";
    for (CalibrationStatus st : {CalibrationStatus::Fitted, CalibrationStatus::Predicted}) {
        const PublishedScore s = score_published(results, st);
        out += "  " + calibration_status_name(st) + " (" + std::to_string(s.experiments) + "): " + format_score(s) +
               "\n";
    }
    return out;
}

namespace {

// The distinct simulations of the experiments, and for each experiment,
// row and seed the job that runs it (slot[e][row][seed]).
struct JobPlan {
    std::vector<Job> jobs;
    std::vector<std::vector<std::vector<size_t>>> slot;
};

JobPlan plan_jobs(const std::vector<PublishedExperiment> &experiments, bool quick)
{
    JobPlan plan;
    std::map<std::string, size_t> job_of_key;
    std::map<std::string, std::shared_ptr<const Topology>> topo_of;
    plan.slot.resize(experiments.size());
    for (size_t ei = 0; ei < experiments.size(); ++ei) {
        const PublishedExperiment &e = experiments[ei];
        if (e.kind != PublishedKind::Simulation)
            continue;
        const int seeds = quick ? e.quick_seeds : e.seeds;
        plan.slot[ei].resize(e.rows.size());
        for (size_t ri = 0; ri < e.rows.size(); ++ri) {
            const Scenario s = effective_scenario(e, e.rows[ri], quick);
            const std::string tkey = s.topology.dump() + "@" + s.source;
            if (!topo_of.count(tkey))
                topo_of[tkey] = scenario_topology(s);
            for (int k = 0; k < seeds; ++k) {
                const std::uint64_t seed = s.seed + static_cast<std::uint64_t>(k);
                const std::string key = job_key(s, e.rows[ri].policy, seed);
                auto [it, fresh] = job_of_key.emplace(key, plan.jobs.size());
                if (fresh)
                    plan.jobs.push_back(Job{
                        s, e.rows[ri].policy, seed, topo_of[tkey], e.name + ": row '" + e.rows[ri].label + "'", {}});
                plan.slot[ei][ri].push_back(it->second);
            }
        }
    }
    return plan;
}

// Runs the jobs on `threads` threads; throws PublishedCancelled once
// `cancel` is set.
void run_jobs(std::vector<Job> &jobs, unsigned threads, const std::function<void(int, int)> &progress,
              const std::atomic<bool> *cancel)
{
    auto cancelled = [cancel] { return cancel && cancel->load(std::memory_order_relaxed); };
    const int total = static_cast<int>(jobs.size());
    run_parallel(
        jobs.size(), threads,
        [&](size_t j) {
            Job &job = jobs[j];
            if (cancelled())
                return;
            RunProgress keep_going;
            if (cancel)
                keep_going = [&](double) { return !cancelled(); };
            job.result = run_policy(job.scenario, job.policy, job.seed, job.topo, keep_going, kDefaultMaxSimulatedS,
                                    false);
            if (cancelled())
                return; // a stopped run's figures are not results
            if (!job.result.finished && job.result.fixed_work)
                throw std::runtime_error(job.where + ", seed " + std::to_string(job.seed) +
                                         ": the run did not finish its work within " +
                                         std::to_string(static_cast<int>(kDefaultMaxSimulatedS)) + " simulated s");
        },
        [&](size_t done) {
            if (progress)
                progress(static_cast<int>(done), total);
        });
    if (cancelled())
        throw PublishedCancelled();
}

// An experiment's raw values per row (seeds, or the profile's selected
// pairs) and each row's point estimate (mean over seeds, or the row's
// statistic).
struct RowValues {
    std::vector<std::vector<double>> raw;
    std::vector<double> point;
};

RowValues simulation_row_values(const PublishedExperiment &e, const std::vector<std::vector<size_t>> &slot,
                                const std::vector<Job> &jobs)
{
    RowValues v{std::vector<std::vector<double>>(e.rows.size()), std::vector<double>(e.rows.size())};
    for (size_t ri = 0; ri < e.rows.size(); ++ri) {
        for (size_t j : slot[ri])
            v.raw[ri].push_back(metric_value(jobs[j].result, e.rows[ri].metric));
        v.point[ri] = mean(v.raw[ri]);
    }
    return v;
}

RowValues profile_row_values(const PublishedExperiment &e)
{
    RowValues v{std::vector<std::vector<double>>(e.rows.size()), std::vector<double>(e.rows.size())};
    const Topology topo = load_topology(e.topology);
    ProfilerOptions opt;
    opt.mode = ProfileMode::Model;
    opt.level = e.profile_level;
    opt.factor = e.profile_factor;
    for (auto &[k, val] : e.model)
        opt.params.set(k, val, e.path);
    const MigrationProfile prof = MigrationProfiler(topo, opt).run();
    for (size_t ri = 0; ri < e.rows.size(); ++ri) {
        v.raw[ri] = profile_values(prof, topo, e.rows[ri]);
        if (v.raw[ri].empty())
            throw InputError(e.path, 0, "rows[" + std::to_string(ri) + "].pairs",
                             "machine " + e.topology + " has no pair of class '" + e.rows[ri].pairs + "'");
        v.point[ri] = stat_of(v.raw[ri], e.rows[ri].stat);
    }
    return v;
}

// Row `ri` of `e` against its published figure, in the published unit
// (scaled by its reference row's, `index` finding rows by label).
PublishedRowResult row_result(const PublishedExperiment &e, size_t ri, const RowValues &v,
                              const std::map<std::string, size_t> &index)
{
    const PublishedRow &row = e.rows[ri];
    const std::vector<double> &raw = v.raw[ri];
    PublishedRowResult rr;
    rr.label = row.label;
    rr.metric = row.metric;
    rr.relative_to = row.relative_to;
    rr.published = row.published;
    rr.published_min = row.published_min;
    rr.published_max = row.published_max;
    rr.published_error = row.published_error;
    rr.within_rule = row.within;
    rr.per_seed = raw;
    rr.reference = row.relative_to == row.label;
    double scale = 1.0; // ours in the published unit
    if (!row.relative_to.empty()) {
        const size_t ref = index.at(row.relative_to);
        scale = v.point[ref] != 0 ? e.rows[ref].published / v.point[ref] : std::nan("");
    }
    // A reference row is its own scale: exactly the published figure
    // (point * (published / point) may round to 99.99999999).
    rr.ours = rr.reference ? row.published : v.point[ri] * scale;
    rr.ours_min = *std::min_element(raw.begin(), raw.end()) * scale;
    rr.ours_max = *std::max_element(raw.begin(), raw.end()) * scale;
    if (e.kind == PublishedKind::Simulation && !row.relative_to.empty()) {
        // Per seed against the same seed's reference run.
        const auto &refv = v.raw[index.at(row.relative_to)];
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        for (size_t k = 0; k < raw.size() && k < refv.size(); ++k) {
            const double x = refv[k] != 0 ? raw[k] / refv[k] * e.rows[index.at(row.relative_to)].published
                                          : std::nan("");
            lo = std::min(lo, x);
            hi = std::max(hi, x);
        }
        rr.ours_min = lo;
        rr.ours_max = hi;
    }
    if (row.published != 0 && std::isfinite(rr.ours))
        rr.ratio = rr.ours / row.published;
    rr.compared = !rr.reference && std::isfinite(rr.ours) && (rr.ratio || rr.published_min);
    rr.within = rr.compared && row_within(rr);
    return rr;
}

// One experiment's result: its rows from their values, then its claims.
PublishedResult judge_experiment(const PublishedExperiment &e, const RowValues &v, bool quick)
{
    PublishedResult res;
    res.name = e.name;
    res.title = e.title;
    res.metric = e.metric;
    res.source = e.source;
    res.calibration = e.calibration;
    res.quick = quick;
    if (e.kind == PublishedKind::Simulation) {
        res.seeds = quick ? e.quick_seeds : e.seeds;
        res.duration_s = effective_scenario(e, e.rows.front(), quick).duration_s;
    }
    std::map<std::string, size_t> index;
    for (size_t ri = 0; ri < e.rows.size(); ++ri)
        index[e.rows[ri].label] = ri;
    std::map<std::string, double> ours_raw;
    for (size_t ri = 0; ri < e.rows.size(); ++ri) {
        PublishedRowResult rr = row_result(e, ri, v, index);
        res.compared += rr.compared ? 1 : 0;
        res.within_30pct += rr.within ? 1 : 0;
        ours_raw[e.rows[ri].label] = v.point[ri];
        res.rows.push_back(std::move(rr));
    }
    // Claims compare rows of one metric, so the unscaled figures do.
    res.has_direction = !e.claims.empty();
    res.direction_ok = true;
    res.claims = static_cast<int>(e.claims.size());
    for (const auto &c : e.claims)
        if (claim_holds(c, ours_raw)) {
            ++res.claims_held;
        } else {
            res.direction_ok = false;
            res.failed_claims.push_back(describe_claim(c));
        }
    return res;
}

} // namespace

std::vector<PublishedResult> run_published(const std::vector<PublishedExperiment> &experiments, bool quick,
                                           unsigned threads, const std::function<void(int, int)> &progress,
                                           const std::atomic<bool> *cancel)
{
    JobPlan plan = plan_jobs(experiments, quick);
    run_jobs(plan.jobs, threads, progress, cancel);
    std::vector<PublishedResult> out;
    for (size_t ei = 0; ei < experiments.size(); ++ei) {
        const PublishedExperiment &e = experiments[ei];
        const RowValues v = e.kind == PublishedKind::Simulation ? simulation_row_values(e, plan.slot[ei], plan.jobs)
                                                                : profile_row_values(e);
        out.push_back(judge_experiment(e, v, quick));
    }
    return out;
}

std::string format_published(const PublishedResult &r)
{
    std::ostringstream os;
    os << r.name << ": " << r.title << "\n";
    os << "  source: " << r.source.thread << " (" << r.source.author << ", " << r.source.date << ")\n";
    os << "  machine: " << r.source.machine << "\n";
    os << "  calibration: " << calibration_status_name(r.calibration.status);
    if (!r.calibration.fitted_by.empty()) {
        os << " (";
        for (size_t i = 0; i < r.calibration.fitted_by.size(); ++i)
            os << (i ? "; " : "") << r.calibration.fitted_by[i];
        os << ")";
    }
    os << "\n";
    os << "  metric: " << r.metric;
    if (r.seeds > 0) {
        os << "; " << r.seeds << (r.seeds == 1 ? " seed" : " seeds");
        if (r.duration_s > 0)
            os << " x " << fmt(r.duration_s) << " s simulated";
        else
            os << ", each run to the end of its work";
    } else {
        os << "; migration profiler, model mode (ours min-max: over the row's pairs)";
    }
    os << (r.quick ? " [--quick: not comparable]" : "") << "\n";
    size_t w = 3;
    for (const auto &row : r.rows)
        w = std::max(w, std::min<size_t>(row.label.size(), 48));
    char line[512];
    std::snprintf(line, sizeof line, "  %-*s  %10s  %10s  %-23s  %6s  %s\n", static_cast<int>(w), "row", "published",
                  "ours", "(min-max)", "ratio", "within");
    os << line;
    for (const auto &row : r.rows) {
        const std::string range = "(" + fmt(row.ours_min) + "-" + fmt(row.ours_max) + ")";
        std::string ratio = row.ratio ? fmt(*row.ratio) : "-";
        std::string tag = row.reference ? "" : !row.compared ? "-" : row.within ? "yes" : "no";
        if (row.reference)
            tag += "= reference";
        else if (!row.relative_to.empty())
            tag += "  rel. to '" + row.relative_to + "'";
        if (row.published_error)
            tag += "  [published ± " + fmt(*row.published_error) + "]";
        else if (row.published_min)
            tag += "  [published " + fmt(*row.published_min) + "-" + fmt(*row.published_max) + "]";
        if (row.within_rule == PublishedWithin::Range && !row.reference)
            tag += " (within: the range only)";
        if (r.metric == "mixed")
            tag += "  [" + row.metric + "]";
        std::snprintf(line, sizeof line, "  %-*s  %10s  %10s  %-23s  %6s  %s\n", static_cast<int>(w), row.label.c_str(),
                      fmt(row.published).c_str(), fmt(row.ours).c_str(), range.c_str(), ratio.c_str(), tag.c_str());
        os << line;
    }
    if (!r.has_direction)
        os << "  direction: none (no published direction; judged on its rows)\n";
    else
        os << "  direction: " << (r.direction_ok ? "holds" : "DOES NOT HOLD") << " (" << r.claims_held << " of "
           << r.claims << " claims)\n";
    for (const auto &c : r.failed_claims)
        os << "    not: " << c << "\n";
    os << "  within ±30 % (or the published range): " << r.within_30pct << " of " << r.compared << " rows\n";
    return os.str();
}

nlohmann::json published_to_json(const std::vector<PublishedResult> &results)
{
    nlohmann::json exps = nlohmann::json::array();
    for (const auto &r : results) {
        nlohmann::json e;
        e["name"] = r.name;
        e["title"] = r.title;
        e["source"] = {{"thread", r.source.thread},
                       {"author", r.source.author},
                       {"date", r.source.date},
                       {"machine", r.source.machine}};
        e["metric"] = r.metric;
        e["calibration"] = {{"status", calibration_status_name(r.calibration.status)},
                            {"fitted_by", r.calibration.fitted_by}};
        e["has_direction"] = r.has_direction;
        e["direction_ok"] = r.direction_ok;
        e["claims"] = r.claims;
        e["claims_held"] = r.claims_held;
        e["failed_claims"] = r.failed_claims;
        e["within_30pct"] = r.within_30pct;
        e["compared"] = r.compared;
        e["seeds"] = r.seeds;
        e["duration_s"] = r.duration_s;
        e["quick"] = r.quick;
        nlohmann::json rows = nlohmann::json::array();
        for (const auto &row : r.rows) {
            nlohmann::json j;
            j["label"] = row.label;
            j["published"] = row.published;
            j["ours"] = row.ours;
            j["ours_min"] = row.ours_min;
            j["ours_max"] = row.ours_max;
            j["metric"] = row.metric;
            j["relative_to"] = row.relative_to;
            j["reference"] = row.reference;
            j["ratio"] = row.ratio ? nlohmann::json(*row.ratio) : nlohmann::json(nullptr);
            j["published_min"] = row.published_min ? nlohmann::json(*row.published_min) : nlohmann::json(nullptr);
            j["published_max"] = row.published_max ? nlohmann::json(*row.published_max) : nlohmann::json(nullptr);
            j["published_error"] = row.published_error ? nlohmann::json(*row.published_error) : nlohmann::json(nullptr);
            j["within_rule"] = row.within_rule == PublishedWithin::Range ? "range" : "30pct";
            j["compared"] = row.compared;
            j["within"] = row.within;
            rows.push_back(std::move(j));
        }
        e["rows"] = std::move(rows);
        exps.push_back(std::move(e));
    }
    return nlohmann::json{{"experiments", exps}, {"score", published_score_json(results)}};
}

nlohmann::json published_score_json(const std::vector<PublishedResult> &results)
{
    auto score_json = [](const PublishedScore &s) {
        return nlohmann::json{{"experiments", s.experiments},         {"directions", s.directions},
                              {"directions_held", s.directions_held}, {"claims", s.claims},
                              {"claims_held", s.claims_held},         {"rows", s.rows},
                              {"rows_within", s.rows_within}};
    };
    return {{"total", score_json(score_published(results))},
            {"fitted", score_json(score_published(results, CalibrationStatus::Fitted))},
            {"predicted", score_json(score_published(results, CalibrationStatus::Predicted))}};
}

PublishedResult published_summary_from_json(const nlohmann::json &e)
{
    PublishedResult r;
    r.name = e.at("name").get<std::string>();
    const std::string status = e.at("calibration").at("status").get<std::string>();
    r.calibration.status = status == calibration_status_name(CalibrationStatus::Fitted) ? CalibrationStatus::Fitted
                                                                                        : CalibrationStatus::Predicted;
    r.has_direction = e.at("has_direction").get<bool>();
    r.direction_ok = e.at("direction_ok").get<bool>();
    r.claims = e.at("claims").get<int>();
    r.claims_held = e.at("claims_held").get<int>();
    r.within_30pct = e.at("within_30pct").get<int>();
    r.compared = e.at("compared").get<int>();
    r.quick = e.at("quick").get<bool>();
    return r;
}

} // namespace schedscope
