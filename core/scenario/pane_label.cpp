#include "scenario/pane_label.h"

#include "catalog/catalog.h"
#include "engine/wakeup_param.h"

#include <charconv>
#include <exception>
#include <map>
#include <optional>
#include <set>

namespace schedscope {

namespace {

// Unit suffixes of parameter names (the project names constants by unit),
// moved to the value in a label: cache_hot_time_ms=10 reads cache_hot_time=10ms.
struct UnitSuffix {
    const char *suffix;
    const char *unit;
};
constexpr UnitSuffix kUnitSuffixes[] = {{"_ns", "ns"}, {"_us", "us"}, {"_ms", "ms"},
                                        {"_s", "s"},   {"_mb", "MB"}, {"_pct", "%"}};

bool ends_with(const std::string &s, const std::string &tail)
{
    return s.size() > tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::optional<double> as_number(const std::string &s)
{
    double v = 0;
    const char *end = s.data() + s.size();
    const auto [ptr, ec] = std::from_chars(s.data(), end, v);
    if (ec != std::errc() || ptr != end)
        return std::nullopt;
    return v;
}

// "2.5" and "2.50" are the same setting.
bool same_value(const std::string &a, const std::string &b)
{
    if (a == b)
        return true;
    const auto x = as_number(a), y = as_number(b);
    return x && y && *x == *y;
}

// The value a policy runs with for `key`: the pane's own, or the default.
std::string effective(const PolicySpec &p, const std::string &key)
{
    if (const auto it = p.params.find(key); it != p.params.end())
        return it->second;
    // Every policy takes `wakeup` besides its catalog parameters; its
    // default is the policy's own. A pane whose parameters do not build (the
    // dialog shows why) is labelled as written: its wakeup counts as unknown.
    if (key == wakeup_param_name())
        return wakeup_info(p.name, p.params).default_value;
    for (const PolicyInfo &info : policy_catalog())
        if (info.name == p.name)
            for (const ParamInfo &param : info.params)
                if (param.name == key)
                    return param.default_value;
    return {};
}

} // namespace

bool param_is_default(const PolicySpec &p, const std::string &key)
{
    // The default of `key` given the pane's other settings (wakeup's
    // depends on autonuma's base).
    PolicySpec bare = p;
    bare.params.erase(key);
    return same_value(effective(p, key), effective(bare, key));
}

namespace {

std::string generated_label(const PolicySpec &pane, const std::vector<PolicySpec> &all)
{
    std::vector<const PolicySpec *> peers;
    for (const PolicySpec &p : all)
        if (p.name == pane.name)
            peers.push_back(&p);
    if (peers.size() < 2)
        return pane.name;
    // Keys any peer sets, in name order (ParamMap is ordered): stable labels.
    std::set<std::string> keys;
    for (const PolicySpec *p : peers)
        for (const auto &kv : p->params)
            keys.insert(kv.first);
    // The keys whose values differ between the peers: what the labels say.
    std::vector<std::string> differing;
    for (const std::string &key : keys) {
        bool differs = false;
        for (const PolicySpec *p : peers)
            differs = differs || !same_value(effective(*p, key), effective(pane, key));
        if (differs)
            differing.push_back(key);
    }
    std::string label = pane.name;
    bool any = false;
    for (const std::string &key : differing) {
        // One setting apart: every pane says its value, the default one
        // too ("cache_hot_time=2.5ms", not a bare policy name). Several:
        // a key the pane leaves unset at its default is said once, as
        // "defaults", below: a list of default values would hide what differs.
        if (differing.size() == 1 || pane.params.count(key) != 0 || !param_is_default(pane, key)) {
            label += " " + param_label(key, effective(pane, key));
            any = true;
        }
    }
    if (!any && !differing.empty())
        label += " (defaults)";
    return label;
}

} // namespace

std::string param_label(const std::string &key, const std::string &value)
{
    // "cache_hot_time_ms.node" has its unit before the level.
    const std::size_t dot = key.find('.');
    std::string stem = key.substr(0, dot);
    const std::string level = dot == std::string::npos ? std::string() : key.substr(dot);
    std::string unit;
    for (const UnitSuffix &u : kUnitSuffixes)
        if (ends_with(stem, u.suffix) && as_number(value)) {
            stem.resize(stem.size() - std::string(u.suffix).size());
            unit = u.unit;
            break;
        }
    std::string shown = value;
    if (const std::size_t slash = shown.find_last_of("/\\"); slash != std::string::npos && slash + 1 < shown.size())
        shown = shown.substr(slash + 1);
    return stem + level + "=" + shown + unit;
}

std::vector<std::string> pane_labels(const std::vector<PolicySpec> &policies)
{
    std::vector<std::string> labels;
    for (const PolicySpec &p : policies)
        labels.push_back(p.label.empty() ? generated_label(p, policies) : p.label);
    // Whatever still collides is numbered from its second occurrence on.
    std::map<std::string, int> seen;
    for (std::string &l : labels) {
        const int n = ++seen[l];
        if (n > 1)
            l += " #" + std::to_string(n);
    }
    // A numbered label could itself equal another pane's ("x #2" given by
    // the user): number again until all differ.
    for (bool clash = true; clash;) {
        clash = false;
        std::map<std::string, int> count;
        for (std::string &l : labels)
            if (++count[l] > 1) {
                l += "'";
                clash = true;
            }
    }
    return labels;
}

} // namespace schedscope
