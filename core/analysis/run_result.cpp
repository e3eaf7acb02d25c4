#include "analysis/run_result.h"

namespace schedscope {

nlohmann::json run_to_json(const RunResult &r, bool with_series)
{
    nlohmann::json j;
    j["seed"] = r.seed;
    j["finished"] = r.finished;
    j["elapsed_s"] = r.elapsed_s;
    j["throughput"] = r.throughput;
    j["user_s"] = r.user_s;
    j["sys_s"] = r.sys_s;
    j["task_sys_s"] = r.task_sys_s;
    j["task_user_s"] = r.task_user_s;
    j["idle_pct"] = r.idle_pct;
    nlohmann::json m = nlohmann::json::object();
    for (int c = 0; c < kDistanceClassCount; ++c)
        if (static_cast<DistanceClass>(c) != DistanceClass::Self)
            m[distance_class_name(static_cast<DistanceClass>(c))] = r.migrations[c];
    m["total"] = r.migrations_total;
    j["migrations"] = m;
    j["page_migrations"] = r.page_migrations;
    j["hinting_faults"] = r.hinting_faults;
    j["lock_wait_s"] = r.lock_wait_s;
    j["local_access_pct"] = r.local_access_pct;
    j["events"] = r.events;
    if (!r.migrations_detail.is_null())
        j["migrations_detail"] = r.migrations_detail;
    if (with_series)
        j["series"] = r.series;
    return j;
}

nlohmann::json results_to_json(const std::vector<std::vector<RunResult>> &by_policy, bool with_series)
{
    nlohmann::json results = nlohmann::json::array();
    for (auto &runs : by_policy) {
        if (runs.empty())
            continue;
        nlohmann::json p;
        p["policy"] = runs.front().policy;
        nlohmann::json params = nlohmann::json::object();
        for (auto &[k, v] : runs.front().params)
            params[k] = v;
        p["params"] = params;
        nlohmann::json rs = nlohmann::json::array();
        for (auto &r : runs)
            rs.push_back(run_to_json(r, with_series));
        p["runs"] = rs;
        results.push_back(p);
    }
    return nlohmann::json{{"results", results}};
}

} // namespace schedscope
