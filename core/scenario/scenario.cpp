#include "scenario/scenario.h"

#include "engine/model_params.h"
#include "topology/hwloc_xml_export.h"
#include "topology/import.h"
#include "util/atomic_file.h"
#include "util/input_error.h"
#include "util/json_input.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

namespace schedscope {

namespace {

using nlohmann::json;

using Reader = JsonFieldReader;
using Empty = JsonFieldReader::Empty;

json params_to_json(const ParamMap &p)
{
    json o = json::object();
    for (auto &[k, v] : p)
        o[k] = v;
    return o;
}

} // namespace

Scenario parse_scenario(const std::string &text, const std::string &source)
{
    const Reader r(source);
    const json doc = r.document(text, "scenario",
                                {"schedscope_scenario", "name", "description", "topology", "workload", "policies",
                                 "seed", "duration_s", "repeat", "sample_interval_ms", "model"});
    Scenario s;
    s.source = source;
    if (!doc.contains("schedscope_scenario"))
        r.fail("schedscope_scenario", "missing: not a schedscope scenario file");
    const double version = r.number(doc["schedscope_scenario"], "schedscope_scenario", 1, 1e6);
    if (version > kScenarioFormatVersion)
        r.fail("schedscope_scenario", "version " + doc["schedscope_scenario"].dump() +
                                          " is newer than this schedscope reads (" +
                                          std::to_string(kScenarioFormatVersion) + ")");
    if (doc.contains("name"))
        s.name = r.string(doc["name"], "name", Empty::Allowed);
    if (doc.contains("description"))
        s.description = r.string(doc["description"], "description", Empty::Allowed);
    if (!doc.contains("topology"))
        r.fail("topology", "missing");
    if (!doc["topology"].is_string() && !doc["topology"].is_object())
        r.fail("topology", "expected a topology spec string or an object");
    s.topology = doc["topology"];

    if (!doc.contains("workload") || !doc["workload"].is_object())
        r.fail("workload", "missing or not an object {\"name\": ..., \"params\": {...}}");
    const json &w = doc["workload"];
    r.only_keys(w, {"name", "params"}, "workload.");
    if (!w.contains("name"))
        r.fail("workload.name", "missing");
    s.workload.name = r.string(w["name"], "workload.name");
    s.workload.params = r.params(w.value("params", json()), "workload.params");

    constexpr std::size_t kMaxPolicies = 16;
    if (!doc.contains("policies") || !doc["policies"].is_array() || doc["policies"].empty())
        r.fail("policies", "missing or empty: list one to " + std::to_string(kMaxPolicies) + " policies to compare");
    if (doc["policies"].size() > kMaxPolicies)
        r.fail("policies", "more than " + std::to_string(kMaxPolicies) + " policies");
    for (std::size_t i = 0; i < doc["policies"].size(); ++i) {
        const std::string f = "policies[" + std::to_string(i) + "]";
        const json &p = doc["policies"][i];
        if (!p.is_object())
            r.fail(f, "expected an object {\"name\": ..., \"params\": {...}}");
        r.only_keys(p, {"name", "params", "label"}, f + ".");
        if (!p.contains("name"))
            r.fail(f + ".name", "missing");
        s.policies.push_back(
            PolicySpec{r.string(p["name"], f + ".name"), r.params(p.value("params", json()), f + ".params"),
                       p.contains("label") ? r.string(p["label"], f + ".label", Empty::Allowed) : std::string()});
    }
    if (doc.contains("seed")) {
        const json &v = doc["seed"];
        if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<std::int64_t>() >= 0))
            r.fail("seed", "expected a non-negative whole number");
        s.seed = v.get<std::uint64_t>();
    }
    constexpr double kMaxDurationS = 86'400; // a simulated day
    if (doc.contains("duration_s"))
        s.duration_s = r.number(doc["duration_s"], "duration_s", 0, kMaxDurationS);
    if (doc.contains("repeat"))
        s.repeat = r.whole(doc["repeat"], "repeat", 1, 1000);
    if (doc.contains("sample_interval_ms"))
        s.sample_interval_ms = r.number(doc["sample_interval_ms"], "sample_interval_ms", 1, 60'000);
    if (doc.contains("model"))
        s.model = read_model_overrides(r, doc["model"]);
    return s;
}

std::map<std::string, double> read_model_overrides(const JsonFieldReader &r, const json &model)
{
    if (!model.is_object())
        r.fail("model", "expected an object of model constants");
    std::map<std::string, double> out;
    ModelParams check;
    for (auto &[k, v] : model.items()) {
        const double d = r.number(v, "model." + k, -1e300, 1e300);
        try {
            check.set(k, d, r.source()); // validates the name and the range
        } catch (const InputError &err) {
            r.fail("model." + k, err.message());
        }
        out[k] = d;
    }
    return out;
}

Scenario load_scenario(const std::string &path)
{
    const std::string text = read_input_file(path, "scenario file");
    if (text.find_first_not_of(" \t\r\n") == std::string::npos)
        throw InputError(path, "scenario file is empty");
    return parse_scenario(text, path);
}

nlohmann::json scenario_to_json(const Scenario &s)
{
    json doc = json::object();
    doc["schedscope_scenario"] = kScenarioFormatVersion;
    doc["name"] = s.name;
    doc["description"] = s.description;
    doc["topology"] = s.topology;
    doc["workload"] = {{"name", s.workload.name}, {"params", params_to_json(s.workload.params)}};
    json pols = json::array();
    for (auto &p : s.policies) {
        json entry = {{"name", p.name}, {"params", params_to_json(p.params)}};
        if (!p.label.empty())
            entry["label"] = p.label;
        pols.push_back(entry);
    }
    doc["policies"] = pols;
    doc["seed"] = s.seed;
    doc["duration_s"] = s.duration_s;
    doc["repeat"] = s.repeat;
    doc["sample_interval_ms"] = s.sample_interval_ms;
    json model = json::object();
    for (auto &[k, v] : s.model)
        model[k] = v;
    doc["model"] = model;
    return doc;
}

nlohmann::json recorded_topology_json(const Topology &t)
{
    return json{{"recorded_from", "detect"}, {"hwloc_xml", topology_to_hwloc_xml(t)}};
}

void save_scenario(const Scenario &s, const std::string &path)
{
    json doc = scenario_to_json(s);
    // "detect" means whatever machine opens the file; the file records the
    // machine it was saved on instead, so that it opens as the same machine
    // elsewhere (as hwloc XML written from the model: no host name in it).
    if (s.topology.is_string() && s.topology.get<std::string>() == "detect")
        doc["topology"] = recorded_topology_json(import_detect());
    write_file_atomically(path, doc.dump(2) + "\n");
}

std::shared_ptr<const Topology> scenario_topology(const Scenario &s)
{
    return std::make_shared<const Topology>(import_scenario_topology(s.topology, s.source));
}

} // namespace schedscope
