// Reading published-experiment files (published.h): strict, every problem an
// InputError naming the file and the field. Running them is in
// published_run.cpp.

#include "scenario/published.h"
#include "scenario/published_check.h"

#include "catalog/catalog.h"
#include "engine/model_params.h"
#include "profiler/migration_profiler.h"
#include "scenario/run.h"
#include "topology/import.h"
#include "util/input_error.h"
#include "util/json_input.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace schedscope {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// JSON field readers whose messages name the file and the field's path
// (util/json_input.h), with the one reader of this format alone.
class Reader : public JsonFieldReader {
public:
    using JsonFieldReader::JsonFieldReader;
    // A label or a list of labels.
    std::vector<std::string> labels(const json &v, const std::string &field) const
    {
        std::vector<std::string> out;
        if (v.is_string())
            out.push_back(v.get<std::string>());
        else if (v.is_array() && !v.empty())
            for (size_t i = 0; i < v.size(); ++i)
                out.push_back(string(v[i], field + "[" + std::to_string(i) + "]"));
        else
            fail(field, "expected a row label or a non-empty list of labels");
        return out;
    }
};
using Empty = JsonFieldReader::Empty;

// A scenario given inline or as a path relative to the experiment file.
Scenario read_scenario(const Reader &r, const json &v, const std::string &field)
{
    if (v.is_string()) {
        fs::path p = v.get<std::string>();
        if (p.is_relative())
            p = fs::path(r.source()).parent_path() / p;
        if (!fs::is_regular_file(p))
            r.fail(field, "no scenario file '" + p.string() + "'");
        return load_scenario(p.string());
    }
    if (!v.is_object())
        r.fail(field, "expected a scenario object or the path of a scenario file");
    try {
        return parse_scenario(v.dump(), r.source());
    } catch (const InputError &e) {
        r.fail(field + (e.field().empty() ? "" : "." + e.field()), e.message());
    }
}

const PublishedMetric *find_metric(const std::string &name)
{
    for (const auto &m : published_metrics())
        if (m.name == name)
            return &m;
    return nullptr;
}

std::string metric_names(PublishedKind kind)
{
    std::string s;
    for (const auto &m : published_metrics())
        if (m.kind == kind)
            s += (s.empty() ? "" : ", ") + m.name;
    return s;
}

void check_metric(const Reader &r, const std::string &name, PublishedKind kind, const std::string &field)
{
    const PublishedMetric *m = find_metric(name);
    if (!m || m->kind != kind)
        r.fail(field, "unknown metric '" + name + "' for this kind of experiment (known: " + metric_names(kind) + ")");
}

void read_row_simulation(const Reader &r, const json &row, const std::string &f, const Scenario &base,
                         PublishedRow &out)
{
    out.scenario = row.contains("scenario") ? read_scenario(r, row["scenario"], f + "scenario") : base;
    if (row.contains("workload")) {
        const json &w = row["workload"];
        r.only_keys(w, {"name", "params"}, f + "workload.");
        out.scenario.workload.name = r.string(r.need(w, "name", f + "workload."), f + "workload.name");
        out.scenario.workload.params = w.contains("params") ? r.params(w["params"], f + "workload.params") : ParamMap{};
    }
    if (row.contains("workload_params"))
        for (auto &[k, v] : r.params(row["workload_params"], f + "workload_params"))
            out.scenario.workload.params[k] = v;
    const auto [wname, mode] = split_bind_suffix(out.scenario.workload.name);
    const WorkloadInfo *winfo = nullptr;
    for (const auto &w : workload_catalog())
        if (w.name == wname)
            winfo = &w;
    if (!winfo)
        r.fail(f + "workload.name", "unknown workload '" + out.scenario.workload.name + "'");
    try {
        check_param_names(out.scenario.workload.params, winfo->params, "workload " + wname, r.source());
    } catch (const InputError &e) {
        r.fail(f + "workload_params", e.message());
    }
    if (row.contains("policy")) {
        const json &p = row["policy"];
        r.only_keys(p, {"name", "params"}, f + "policy.");
        out.policy.name = r.string(r.need(p, "name", f + "policy."), f + "policy.name");
        out.policy.params = p.contains("params") ? r.params(p["params"], f + "policy.params") : ParamMap{};
    } else {
        out.policy = out.scenario.policies.front(); // a scenario has at least one
    }
    // A _HARD_BIND / _INVERSE_BIND workload runs under `bind`, as `run` does.
    Scenario as_run = out.scenario;
    as_run.policies = {out.policy};
    out.policy = effective_policies(as_run).front();
    try {
        make_policy(out.policy.name, out.policy.params, r.source());
    } catch (const InputError &e) {
        r.fail(f + "policy", e.message());
    }
}

void read_row_profile(const Reader &r, const json &row, const std::string &f, PublishedRow &out)
{
    out.pairs = r.string(r.need(row, "pairs", f), f + "pairs");
    bool known = out.pairs == "diagonal" || out.pairs == "off-diagonal";
    for (int c = 1; c < kDistanceClassCount; ++c)
        known = known || out.pairs == distance_class_name(static_cast<DistanceClass>(c));
    if (!known)
        r.fail(f + "pairs", "expected diagonal, off-diagonal or a distance class (smt, shared-l2, shared-l3, "
                            "same-package, same-node, remote-node), got '" +
                                out.pairs + "'");
    out.stat = row.contains("stat") ? r.string(row["stat"], f + "stat") : "mean";
    if (out.stat != "mean" && out.stat != "min" && out.stat != "max")
        r.fail(f + "stat", "expected mean, min or max");
}

PublishedClaim read_claim(const Reader &r, const json &c, const std::string &f, const std::set<std::string> &labels)
{
    PublishedClaim out;
    auto known_rows = [&](const std::vector<std::string> &rows, const std::string &field) {
        for (size_t i = 0; i < rows.size(); ++i)
            if (!labels.count(rows[i]))
                r.fail(field, "no row labelled '" + rows[i] + "'");
    };
    if (c.contains("flat")) {
        r.only_keys(c, {"flat", "within_pct"}, f);
        out.kind = PublishedClaim::Kind::Flat;
        out.rows = r.labels(c["flat"], f + "flat");
        known_rows(out.rows, f + "flat");
        out.within_pct = r.number(r.need(c, "within_pct", f), f + "within_pct", 0, 1e6);
        return out;
    }
    r.only_keys(c, {"row", "above", "below", "by_pct"}, f);
    out.rows = r.labels(r.need(c, "row", f), f + "row");
    known_rows(out.rows, f + "row");
    if (c.contains("above") == c.contains("below"))
        r.fail(f + "above", "give exactly one of 'above' and 'below' (or a 'flat' claim)");
    const std::string key = c.contains("above") ? "above" : "below";
    out.kind = key == "above" ? PublishedClaim::Kind::Above : PublishedClaim::Kind::Below;
    out.than = r.labels(c[key], f + key);
    known_rows(out.than, f + key);
    if (c.contains("by_pct"))
        out.by_pct = r.number(c["by_pct"], f + "by_pct", -99, 1e6);
    return out;
}

PublishedWithin read_within(const Reader &r, const json &v, const std::string &field)
{
    const std::string w = r.string(v, field);
    if (w == "30pct")
        return PublishedWithin::ThirtyPctOrRange;
    if (w == "range")
        return PublishedWithin::Range;
    r.fail(field, "expected 30pct (within ±30 % or inside the published range) or range (inside the published "
                  "range only), got '" +
                      w + "'");
}

// published_min + published_max, or published_error (± around published).
void read_range(const Reader &r, const json &row, const std::string &f, PublishedRow &out)
{
    const bool lo = row.contains("published_min"), hi = row.contains("published_max");
    const bool err = row.contains("published_error");
    if (lo != hi)
        r.fail(f + (lo ? "published_max" : "published_min"), "give published_min and published_max together");
    if (err && lo)
        r.fail(f + "published_error", "give either published_error or published_min/published_max, not both");
    if (err) {
        const double e = r.number(row["published_error"], f + "published_error", 0, 1e300);
        out.published_error = e;
        out.published_min = out.published - e;
        out.published_max = out.published + e;
    } else if (lo) {
        out.published_min = r.number(row["published_min"], f + "published_min", -1e300, 1e300);
        out.published_max = r.number(row["published_max"], f + "published_max", -1e300, 1e300);
        if (!(*out.published_min <= out.published && out.published <= *out.published_max))
            r.fail(f + "published_min", "expected published_min <= published <= published_max");
    }
}

PublishedCalibration read_calibration(const Reader &r, const json &c)
{
    r.only_keys(c, {"status", "fitted_by", "notes"}, "calibration.");
    PublishedCalibration out;
    const std::string status = r.string(r.need(c, "status", "calibration."), "calibration.status");
    if (status == "fitted")
        out.status = CalibrationStatus::Fitted;
    else if (status == "predicted")
        out.status = CalibrationStatus::Predicted;
    else
        r.fail("calibration.status", "expected fitted or predicted, got '" + status + "'");
    if (c.contains("fitted_by")) {
        const json &f = c["fitted_by"];
        if (!f.is_array())
            r.fail("calibration.fitted_by", "expected a list of the constants set or moved with this experiment's "
                                            "published figures in view");
        for (size_t i = 0; i < f.size(); ++i)
            out.fitted_by.push_back(r.string(f[i], "calibration.fitted_by[" + std::to_string(i) + "]"));
    }
    if (out.status == CalibrationStatus::Fitted && out.fitted_by.empty())
        r.fail("calibration.fitted_by", "a fitted experiment names what was fitted (docs/CALIBRATION.md's list)");
    if (out.status == CalibrationStatus::Predicted && !out.fitted_by.empty())
        r.fail("calibration.status", "a predicted experiment has nothing fitted_by: it is fitted");
    if (c.contains("notes"))
        out.notes = r.string(c["notes"], "calibration.notes", Empty::Allowed);
    return out;
}

// The document's header: its version, title, source, notes and calibration.
void read_header(const Reader &r, const json &doc, PublishedExperiment &e)
{
    const double version = r.number(r.need(doc, "schedscope_published", ""), "schedscope_published", 1, 1e6);
    if (version > kPublishedFormatVersion)
        r.fail("schedscope_published", "version " + doc["schedscope_published"].dump() +
                                           " is newer than this schedscope reads (" +
                                           std::to_string(kPublishedFormatVersion) + ")");
    e.title = r.string(r.need(doc, "title", ""), "title");
    const json &src = r.need(doc, "source", "");
    r.only_keys(src, {"thread", "author", "date", "machine", "notes"}, "source.");
    e.source.thread = r.string(r.need(src, "thread", "source."), "source.thread");
    e.source.author = r.string(r.need(src, "author", "source."), "source.author");
    e.source.date = r.string(r.need(src, "date", "source."), "source.date");
    e.source.machine = r.string(r.need(src, "machine", "source."), "source.machine");
    if (src.contains("notes"))
        e.source.notes = r.string(src["notes"], "source.notes", Empty::Allowed);
    if (doc.contains("notes"))
        e.notes = r.string(doc["notes"], "notes", Empty::Allowed);
    e.calibration = read_calibration(r, r.need(doc, "calibration", ""));
}

// Kind simulation: the scenario the rows vary, the seeds and the duration.
Scenario read_simulation_setup(const Reader &r, const json &doc, PublishedExperiment &e)
{
    for (const char *k : {"topology", "model", "profile"})
        if (doc.contains(k))
            r.fail(k, "only for kind profile (a simulation's machine and model are its scenario's)");
    Scenario base = read_scenario(r, r.need(doc, "scenario", ""), "scenario");
    constexpr int kMaxSeeds = 100;
    e.seeds = r.whole(r.need(doc, "seeds", ""), "seeds", 1, kMaxSeeds);
    if (doc.contains("duration_s"))
        e.duration_s = r.number(doc["duration_s"], "duration_s", 0, 86'400);
    e.quick_seeds = 1;
    e.quick_duration_s = e.duration_s;
    return base;
}

// Kind profile: the machine, the model and the profiler's options, each
// checked now (a cache level the machine lacks is refused here, not mid-run).
void read_profile_setup(const Reader &r, const json &doc, PublishedExperiment &e)
{
    for (const char *k : {"scenario", "seeds", "duration_s", "quick"})
        if (doc.contains(k))
            r.fail(k, "not for kind profile (the profiler's model mode is deterministic and has no duration)");
    e.topology = r.string(r.need(doc, "topology", ""), "topology");
    try {
        load_topology(e.topology);
    } catch (const InputError &err) {
        r.fail("topology", err.what());
    }
    if (doc.contains("model"))
        e.model = read_model_overrides(r, doc["model"]);
    if (doc.contains("profile")) {
        r.only_keys(doc["profile"], {"level", "factor"}, "profile.");
        if (doc["profile"].contains("level"))
            e.profile_level = r.string(doc["profile"]["level"], "profile.level");
        if (doc["profile"].contains("factor"))
            e.profile_factor = r.number(doc["profile"]["factor"], "profile.factor", 0.01, 100);
    }
    try {
        ProfilerOptions opt;
        opt.level = e.profile_level;
        opt.factor = e.profile_factor;
        MigrationProfiler(load_topology(e.topology), opt);
    } catch (const InputError &err) {
        r.fail(err.source() == "--factor" ? "profile.factor" : "profile.level", err.message());
    }
}

// The quick block's seeds and duration; its workload parameters are
// returned, to be checked against the rows' workloads (check_quick_params).
ParamMap read_quick(const Reader &r, const json &doc, PublishedExperiment &e)
{
    ParamMap quick_params;
    if (!doc.contains("quick"))
        return quick_params;
    const json &q = doc["quick"];
    r.only_keys(q, {"seeds", "duration_s", "workload_params"}, "quick.");
    if (q.contains("seeds"))
        e.quick_seeds = r.whole(q["seeds"], "quick.seeds", 1, e.seeds);
    if (q.contains("duration_s"))
        e.quick_duration_s = r.number(q["duration_s"], "quick.duration_s", 0, 86'400);
    if (q.contains("workload_params"))
        quick_params = r.params(q["workload_params"], "quick.workload_params");
    return quick_params;
}

// One row, its kind's fields aside: label (unique among `labels`), the
// published figure and its range, within, metric and note.
PublishedRow read_row_common(const Reader &r, const json &row, const std::string &f, PublishedWithin exp_within,
                             const PublishedExperiment &e, std::set<std::string> &labels)
{
    r.only_keys(row,
                e.kind == PublishedKind::Simulation
                    ? std::set<std::string>{"label", "published", "published_min", "published_max", "published_error",
                                            "within", "metric", "relative_to", "note", "policy", "scenario", "workload",
                                            "workload_params"}
                    : std::set<std::string>{"label", "published", "published_min", "published_max", "published_error",
                                            "within", "metric", "relative_to", "note", "pairs", "stat"},
                f);
    PublishedRow out;
    out.label = r.string(r.need(row, "label", f), f + "label");
    if (!labels.insert(out.label).second)
        r.fail(f + "label", "duplicate label '" + out.label + "'");
    out.published = r.number(r.need(row, "published", f), f + "published", -1e300, 1e300);
    read_range(r, row, f, out);
    out.within = row.contains("within") ? read_within(r, row["within"], f + "within") : exp_within;
    out.metric = row.contains("metric") ? r.string(row["metric"], f + "metric") : e.metric;
    check_metric(r, out.metric, e.kind, f + "metric");
    if (row.contains("note"))
        out.note = r.string(row["note"], f + "note", Empty::Allowed);
    return out;
}

// The rows, into e.rows; returns each row's relative_to as written ("" = not
// given) and fills `labels`.
std::vector<std::string> read_rows(const Reader &r, const json &rows, const Scenario &base, PublishedWithin exp_within,
                                   PublishedExperiment &e, std::set<std::string> &labels)
{
    std::vector<std::string> row_relative;
    std::set<std::string> topologies_checked;
    for (size_t i = 0; i < rows.size(); ++i) {
        const std::string f = "rows[" + std::to_string(i) + "].";
        const json &row = rows[i];
        PublishedRow out = read_row_common(r, row, f, exp_within, e, labels);
        row_relative.push_back(row.contains("relative_to") ? r.string(row["relative_to"], f + "relative_to") : "");
        if (e.kind == PublishedKind::Simulation) {
            read_row_simulation(r, row, f, base, out);
            // Each machine once: a bad topology is bad input now, not mid-run.
            const std::string topo = out.scenario.topology.dump() + "@" + out.scenario.source;
            if (topologies_checked.insert(topo).second) {
                try {
                    scenario_topology(out.scenario);
                } catch (const InputError &err) {
                    r.fail(f + "scenario.topology", err.what());
                }
            }
        } else
            read_row_profile(r, row, f, out);
        e.rows.push_back(std::move(out));
    }
    return row_relative;
}

// The quick block's workload parameters, against every row's workload.
void check_quick_params(const Reader &r, const ParamMap &quick_params, PublishedExperiment &e)
{
    for (size_t i = 0; i < e.rows.size() && !quick_params.empty(); ++i) {
        const auto [wname, mode] = split_bind_suffix(e.rows[i].scenario.workload.name);
        try {
            check_param_names(quick_params, find_workload(wname, r.source()).params, "workload " + wname, r.source());
        } catch (const InputError &err) {
            r.fail("quick.workload_params", err.message());
        }
    }
    e.quick_workload_params = quick_params;
}

// The direction: its text and claims over the rows' labels.
void read_direction(const Reader &r, const json &dir, const std::set<std::string> &labels, PublishedExperiment &e)
{
    r.only_keys(dir, {"text", "claims"}, "direction.");
    e.direction_text = r.string(r.need(dir, "text", "direction."), "direction.text");
    const json &claims = r.need(dir, "claims", "direction.");
    // An empty list: the published result has no direction (a flat matrix);
    // it is judged on its rows alone, and the text says so.
    if (!claims.is_array())
        r.fail("direction.claims", "expected a list of claims (empty: no direction, judged on the rows)");
    for (size_t i = 0; i < claims.size(); ++i)
        e.claims.push_back(read_claim(r, claims[i], "direction.claims[" + std::to_string(i) + "].", labels));
    check_claims(e);
}

} // namespace

std::string calibration_status_name(CalibrationStatus s)
{
    return s == CalibrationStatus::Fitted ? "fitted" : "predicted";
}

PublishedExperiment parse_published(const std::string &text, const std::string &path)
{
    const Reader r(path);
    const json doc = r.document(text, "published experiment",
                                {"schedscope_published", "title", "source", "calibration", "kind", "scenario",
                                 "topology", "model", "profile", "seeds", "duration_s", "quick", "metric",
                                 "relative_to", "within", "rows", "direction", "notes"});
    PublishedExperiment e;
    e.path = path;
    e.name = fs::path(path).stem().string();
    read_header(r, doc, e);
    const PublishedWithin exp_within = doc.contains("within") ? read_within(r, doc["within"], "within")
                                                              : PublishedWithin::ThirtyPctOrRange;

    const std::string kind = doc.contains("kind") ? r.string(doc["kind"], "kind") : "simulation";
    if (kind != "simulation" && kind != "profile")
        r.fail("kind", "expected simulation or profile, got '" + kind + "'");
    e.kind = kind == "profile" ? PublishedKind::Profile : PublishedKind::Simulation;
    Scenario base;
    if (e.kind == PublishedKind::Simulation)
        base = read_simulation_setup(r, doc, e);
    else
        read_profile_setup(r, doc, e);
    const ParamMap quick_params = read_quick(r, doc, e);

    e.metric = r.string(r.need(doc, "metric", ""), "metric");
    check_metric(r, e.metric, e.kind, "metric");
    const json &rows = r.need(doc, "rows", "");
    if (!rows.is_array() || rows.empty())
        r.fail("rows", "expected a non-empty list of published rows");
    std::set<std::string> labels;
    const std::vector<std::string> row_relative = read_rows(r, rows, base, exp_within, e, labels);
    check_quick_params(r, quick_params, e);

    // Relative rows: the experiment's relative_to applies to the rows of the
    // reference row's metric; a row's own relative_to overrides it.
    std::string exp_rel;
    if (doc.contains("relative_to")) {
        exp_rel = r.string(doc["relative_to"], "relative_to");
        if (!labels.count(exp_rel))
            r.fail("relative_to", "no row labelled '" + exp_rel + "'");
    }
    resolve_relative_rows(e, exp_rel, row_relative);
    // Judged on a range alone: a compared row (not a reference) needs one.
    for (size_t i = 0; i < e.rows.size(); ++i)
        if (e.rows[i].within == PublishedWithin::Range && !e.rows[i].published_min &&
            e.rows[i].relative_to != e.rows[i].label)
            r.fail("rows[" + std::to_string(i) + "]." + (rows[i].contains("within") ? "within" : "published_min"),
                   "judged on the published range (within: range), but the row has none (published_min and "
                   "published_max, or published_error)");

    read_direction(r, r.need(doc, "direction", ""), labels, e);
    return e;
}

PublishedExperiment load_published(const std::string &path)
{
    return parse_published(read_input_file(path, "published experiment file"), path);
}

std::string published_dir()
{
    if (const char *env = std::getenv("SCHEDSCOPE_PUBLISHED_DIR"); env && *env)
        return env;
    return (fs::path(samples_dir()) / "published").string();
}

std::vector<PublishedExperiment> load_published_dir(const std::string &dir)
{
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw InputError(dir, "not a directory of published experiments");
    std::vector<std::string> files;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".json" && it->is_regular_file())
            files.push_back(it->path().string());
    std::sort(files.begin(), files.end());
    std::vector<PublishedExperiment> out;
    for (const auto &f : files)
        out.push_back(load_published(f));
    return out;
}

} // namespace schedscope
