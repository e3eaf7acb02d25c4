#include "policies/balancer_params.h"

#include "policies/policy_text.h"
#include "profiler/migration_profile.h"
#include "profiler/profile_store.h"
#include "util/input_error.h"

#include <cmath>

namespace schedscope {

namespace {
// Upper bounds only reject nonsense (a typo in units); nothing in the
// kernel forbids large values.
constexpr double kMaxCacheHotTimeMs = 1e6;
constexpr int kMaxCacheNiceTries = 1000;
constexpr double kNsPerMs = 1e6;
} // namespace

std::string BalancerParams::level_param(const std::string &level) { return "cache_hot_time_ms." + level; }

namespace {
// Both may be given (a saved params map has both); they must agree. Then
// autotune=profile reads the profile.
void check_balancer(BalancerParams &b, const ParamMap &p, const std::string &source)
{
    b.source = source;
    if (p.count("migration_cost_ns") && p.count("cache_hot_time_ms")) {
        const double ms = parse_real(p.at("cache_hot_time_ms"), "cache_hot_time_ms", 0, kMaxCacheHotTimeMs, source);
        if (std::abs(b.cache_hot_time_ms - ms) > 1e-6)
            throw InputError(source, 0, "migration_cost_ns",
                             "disagrees with cache_hot_time_ms (" + p.at("cache_hot_time_ms") +
                                 " ms); give one of them");
    }
    if (b.autotune == "profile") {
        if (b.profile_path.empty())
            throw InputError(source, 0, "profile",
                             "autotune=profile needs profile=FILE (schedscope-cli profile --save FILE)");
        const MigrationProfile prof = load_profile(b.profile_path);
        for (const auto &level : domain_level_names())
            if (auto v = prof.cache_hot_time_ms_for_level(level))
                b.profile_hot_ms[level] = *v;
        b.profile_overall_ms = prof.cache_hot_time_ms_for_level(kOverallLevel);
    } else if (!b.profile_path.empty()) {
        throw InputError(source, 0, "profile", "a profile is only read with autotune=profile");
    }
}
} // namespace

const ParamTable<BalancerParams> &BalancerParams::table()
{
    static const ParamTable<BalancerParams> t = [] {
        ParamTable<BalancerParams> t;
        t.real("cache_hot_time_ms", &BalancerParams::cache_hot_time_ms, 0, kMaxCacheHotTimeMs, "ms",
               "a task that ran (or was woken) less than this ago is cache hot and is not pulled: the SD_CPU_INIT "
               "levels (MC, package, node); SMT keeps 0 and NUMA levels 10 ms, as 2.6.9's own initialisers, unless "
               "cache_hot_time_ms.SMT / .NUMA set them");
        // migration_cost_ns sets cache_hot_time_ms; it reads back from it.
        t.text_field(
            {"migration_cost_ns", "", "the same knob in ns, as later kernels name it (sched_migration_cost_ns)", "ns",
             "0 to " + real_text(kMaxCacheHotTimeMs * kNsPerMs)},
            [](BalancerParams &b, const std::string &s, const std::string &key, const std::string &source) {
                b.cache_hot_time_ms = parse_real(s, key, 0, kMaxCacheHotTimeMs * kNsPerMs, source) / kNsPerMs;
            },
            [](const BalancerParams &b) -> std::optional<std::string> {
                return std::to_string(static_cast<long long>(std::llround(b.cache_hot_time_ms * kNsPerMs)));
            });
        t.integer("cache_nice_tries", &BalancerParams::cache_nice_tries, 0, kMaxCacheNiceTries, "",
                  "failed balancing attempts after which hot tasks are pulled anyway (SMT levels keep 2.6.9's 0)");
        t.choice("autotune", &BalancerParams::autotune, {"off", "profile"},
                 "off, or profile: take each level's cache_hot_time from a migration profile");
        t.text("profile", &BalancerParams::profile_path,
               "the migration profile file (schedscope-cli profile --save) for autotune=profile");
        for (const auto &level : domain_level_names())
            t.real_with(
                level_param(level), [level](BalancerParams &b, double v) { b.level_hot_ms[level] = v; },
                [level](const BalancerParams &b) -> std::optional<double> {
                    auto it = b.level_hot_ms.find(level);
                    return it == b.level_hot_ms.end() ? std::nullopt : std::optional<double>(it->second);
                },
                0, kMaxCacheHotTimeMs, "ms",
                "cache_hot_time_ms for the " + level + " level only (it must exist on the machine)");
        t.check(check_balancer);
        return t;
    }();
    return t;
}

double BalancerParams::hot_ms_for(const std::string &level) const
{
    if (auto it = level_hot_ms.find(level); it != level_hot_ms.end())
        return it->second;
    if (auto it = profile_hot_ms.find(level); it != profile_hot_ms.end())
        return it->second;
    if (profile_overall_ms)
        return *profile_overall_ms;
    // Linux 2.6.9 include/linux/sched.h: SD_SIBLING_INIT has cache_hot_time
    // 0 and SD_NODE_INIT 10 ms of their own; the knob tuned (the OLTP sweep)
    // was SD_CPU_INIT's.
    if (level == "SMT")
        return kSiblingCacheHotTimeMs;
    if (level == "NUMA")
        return kNodeCacheHotTimeMs;
    return cache_hot_time_ms;
}

int BalancerParams::nice_tries_for(const std::string &level) const
{
    // 2.6.9 SD_SIBLING_INIT: cache_nice_tries 0 (siblings share every cache).
    return level == "SMT" ? 0 : cache_nice_tries;
}

std::string BalancerParams::hot_origin(const std::string &level) const
{
    if (level_hot_ms.count(level))
        return "set by " + level_param(level);
    if (profile_hot_ms.count(level))
        return "measured in " + profile_path;
    if (profile_overall_ms)
        return "overall value of " + profile_path;
    if (level == "SMT")
        return "2.6.9 SD_SIBLING_INIT";
    if (level == "NUMA")
        return "2.6.9 SD_NODE_INIT";
    return "cache_hot_time_ms";
}

} // namespace schedscope
