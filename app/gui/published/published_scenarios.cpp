#include "published/published_scenarios.h"

#include "sim/run_setup.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <numeric>

namespace schedscope::gui {

namespace {

// What decides whether two rows can share one comparison: everything of
// their scenario but its name, description and policies.
std::string group_key(const Scenario &s)
{
    nlohmann::json j = scenario_to_json(s);
    j.erase("name");
    j.erase("description");
    j.erase("policies");
    j["source"] = s.source; // relative topology paths resolve against it
    return j.dump();
}

bool same_policy(const PolicySpec &a, const PolicySpec &b) { return a.name == b.name && a.params == b.params; }

std::string value_text(double v, const char *unit)
{
    std::string s = format_published_value(v);
    if (unit && *unit)
        s += std::string(" ") + unit;
    return s;
}

} // namespace

std::vector<PublishedOpening> published_openings(const PublishedExperiment &e)
{
    std::vector<PublishedOpening> out;
    if (e.kind != PublishedKind::Simulation)
        return out;
    // Groups in the order of their first row, panes in the order of theirs.
    std::vector<std::string> keys;
    std::map<std::string, std::vector<std::size_t>> rows_of;
    for (std::size_t i = 0; i < e.rows.size(); ++i) {
        const std::string key = group_key(e.rows[i].scenario);
        if (!rows_of.count(key))
            keys.push_back(key);
        rows_of[key].push_back(i);
    }
    for (const std::string &key : keys) {
        std::vector<PolicySpec> policies;
        std::vector<std::vector<std::size_t>> pane_rows;
        for (std::size_t i : rows_of[key]) {
            const PublishedRow &row = e.rows[i];
            auto it = std::find_if(policies.begin(), policies.end(),
                                   [&](const PolicySpec &p) { return same_policy(p, row.policy); });
            if (it == policies.end()) {
                PolicySpec p = row.policy;
                p.label = row.label;
                policies.push_back(p);
                pane_rows.push_back({i});
            } else {
                pane_rows[static_cast<std::size_t>(it - policies.begin())].push_back(i);
            }
        }
        // The comparison shows kMaxPanes side by side: a longer sweep opens in parts.
        for (std::size_t first = 0; first < policies.size(); first += static_cast<std::size_t>(kMaxPanes)) {
            const std::size_t last = std::min(policies.size(), first + static_cast<std::size_t>(kMaxPanes));
            PublishedOpening o;
            o.scenario = e.rows[rows_of[key].front()].scenario;
            if (e.duration_s > 0)
                o.scenario.duration_s = e.duration_s;
            o.scenario.policies.assign(policies.begin() + static_cast<std::ptrdiff_t>(first),
                                       policies.begin() + static_cast<std::ptrdiff_t>(last));
            o.rows.assign(pane_rows.begin() + static_cast<std::ptrdiff_t>(first),
                          pane_rows.begin() + static_cast<std::ptrdiff_t>(last));
            for (const PolicySpec &p : o.scenario.policies)
                o.title += (o.title.empty() ? "" : " \u00b7 ") + p.label;
            o.scenario.name = e.title;
            o.scenario.description = "Published: " + e.source.thread + " (" + e.source.author + ", " + e.source.date +
                                     "). " + e.direction_text;
            out.push_back(std::move(o));
        }
    }
    return out;
}

std::string published_source_short(const PublishedSource &source)
{
    // The name before any comment: "Chris Mason (sembench)", "an OLTP team; names not recorded".
    std::string who = source.author.substr(0, source.author.find_first_of(",;("));
    while (!who.empty() && std::isspace(static_cast<unsigned char>(who.back())))
        who.pop_back();
    const std::size_t space = who.find_last_of(' ');
    std::string surname = space == std::string::npos ? who : who.substr(space + 1);
    if (surname.empty() || !std::isupper(static_cast<unsigned char>(surname.front())))
        surname = "published";
    const std::string year = source.date.substr(0, 4);
    return year.empty() ? surname : surname + " " + year;
}

std::optional<MarkPlace> mark_place(const std::string &metric)
{
    if (metric == "throughput")
        return MarkPlace{ChartKind::Throughput, false};
    if (metric == "idle_pct")
        return MarkPlace{ChartKind::IdlePct, false};
    if (metric == "sys_s") // the chart is cumulative: its end is the run's figure
        return MarkPlace{ChartKind::SystemTime, false};
    // task_sys_s, the workload's own system time, has no chart: the System
    // time chart is the machine's kernel time, tick and kernel threads
    // included, and a mark there would set unlike figures side by side.
    if (metric == "elapsed_s") // the time the progress chart reaches 100 %
        return MarkPlace{ChartKind::Progress, true};
    return std::nullopt;
}

std::vector<ReferenceMark> published_marks(const PublishedExperiment &e, const PublishedOpening &opening,
                                           const PublishedResult *ours)
{
    std::vector<ReferenceMark> out;
    const std::string who = published_source_short(e.source);
    auto row_index = [&](const std::string &label) -> std::optional<std::size_t> {
        for (std::size_t i = 0; i < e.rows.size(); ++i)
            if (e.rows[i].label == label)
                return i;
        return std::nullopt;
    };
    for (std::size_t pane = 0; pane < opening.rows.size(); ++pane)
        for (std::size_t ri : opening.rows[pane]) {
            const PublishedRow &row = e.rows[ri];
            const auto place = mark_place(row.metric);
            if (!place)
                continue;
            const char *unit = place->vertical ? "s" : chart_unit(place->kind);
            ReferenceMark m;
            m.kind = place->kind;
            m.vertical = place->vertical;
            m.run = static_cast<int>(pane);
            if (row.relative_to.empty()) {
                m.value = row.published;
                m.label = who + ", " + row.label + ": " + value_text(row.published, unit);
            } else {
                // Where the published ratio puts it from our reference run.
                const auto ref = row_index(row.relative_to);
                if (!ours || !ref || *ref >= ours->rows.size() || ours->rows.size() != e.rows.size())
                    continue;
                const std::vector<double> &ref_raw = ours->rows[*ref].per_seed;
                const double ref_published = e.rows[*ref].published;
                if (ref_raw.empty() || ref_published == 0)
                    continue;
                const double ref_ours = std::accumulate(ref_raw.begin(), ref_raw.end(), 0.0) /
                                        static_cast<double>(ref_raw.size());
                const double ratio = row.published / ref_published;
                m.value = ratio * ref_ours;
                m.label = who + ", " + row.label + ": " + format_published_value(row.published) + " (" +
                          format_published_value(ratio) + " \u00d7 our '" + row.relative_to + "')";
            }
            if (!std::isfinite(m.value))
                continue;
            out.push_back(std::move(m));
        }
    return out;
}

} // namespace schedscope::gui
