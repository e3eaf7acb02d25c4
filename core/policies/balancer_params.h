#pragma once
// The knobs of the scheduling-domain balancer that sched-domains and the
// NUMA policies built on it share: cache-hot time (overall, per level, or
// from a migration profile) and cache_nice_tries.

#include "engine/policy.h"
#include "params/param_table.h"
#include "params/params.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace schedscope {

// Linux 2.6.9 kernel/sched.c: SD_CPU_INIT and SD_NODE_INIT both set
// cache_nice_tries = 1 (SD_SIBLING_INIT 0; the value matches). It is read
// by can_migrate_task(): a cache-hot task is left where it is while the
// domain's nr_balance_failed is below cache_nice_tries (and always on a
// newly idle pass).
inline constexpr int kDefaultCacheNiceTries = 1;
// Linux 2.6.9 kernel/sched.c (the initialisers live there in 2.6.9, not in
// include/linux/sched.h): SD_SIBLING_INIT's cache_hot_time (0) and
// SD_NODE_INIT's (10 ms), each level's own; task_hot() compares against it.
inline constexpr double kSiblingCacheHotTimeMs = 0;
inline constexpr double kNodeCacheHotTimeMs = 10;

struct BalancerParams {
    double cache_hot_time_ms = kDefaultCacheHotTimeMs; // SD_CPU_INIT levels (not SMT, NUMA) unless overridden
    std::map<std::string, double> level_hot_ms;        // explicit per-level overrides
    int cache_nice_tries = kDefaultCacheNiceTries;
    std::string autotune = "off"; // "off" | "profile"
    std::string profile_path;
    std::map<std::string, double> profile_hot_ms; // loaded from the profile, by level
    std::optional<double> profile_overall_ms;
    std::string source; // where the parameters came from, for errors

    // The parameters every domain-balanced policy accepts, declared once;
    // parsing loads the profile when autotune=profile.
    static const ParamTable<BalancerParams> &table();
    // The per-level override's parameter name, e.g. "cache_hot_time_ms.NUMA".
    static std::string level_param(const std::string &level);

    // The cache-hot time a level uses: explicit override, then the profile,
    // then the level's 2.6.9 initialiser (SMT 0, NUMA 10 ms), else the knob.
    double hot_ms_for(const std::string &level) const;
    // cache_nice_tries of a level: 0 at SMT (SD_SIBLING_INIT), else the knob.
    int nice_tries_for(const std::string &level) const;
    // Where that value came from, for the reason logged at attach.
    std::string hot_origin(const std::string &level) const;
    // Effective values, for Policy::params().
    void add_to(ParamMap &out) const { table().write(*this, out); }
};

} // namespace schedscope
