#pragma once
// AutoNUMA27's migrate on fault (mm/autonuma.c autonuma_migrate_page(),
// October 2012): a hinting fault that passes the last_nid filter migrates
// the page to the faulting CPU's node there and then, in the faulting
// task's context, unless that node has already taken pages_to_migrate
// pages in the current window of migrate_sleep_millisecs (the per-node
// rate limit, pgdat->autonuma_migrate_nr_pages). AutoNUMA24 (August 2012)
// queued the page for a knuma_migrated daemon per node instead; AutoNUMA27,
// which the 2012 comparisons ran, dropped the daemons and kept their two
// knobs for the rate limit.

#include "engine/policy_context.h"
#include "engine/sim_types.h"
#include "params/param_table.h"

#include <cstdint>
#include <vector>

namespace schedscope {

// AutoNUMA27 defaults: migrate_sleep_millisecs = 100, pages_to_migrate =
// 128 MiB of 4 KiB pages.
inline constexpr double kDefaultMigrateSleepMs = 100.0;
inline constexpr std::int64_t kDefaultPagesToMigrate = 128 * 1024 * 1024 / 4096;

struct MigrateRateParams {
    double migrate_sleep_ms = kDefaultMigrateSleepMs;
    std::int64_t pages_to_migrate = kDefaultPagesToMigrate;

    // The rate limit's knobs, declared once.
    static const ParamTable<MigrateRateParams> &table();
};

class MigrateRateLimit {
public:
    explicit MigrateRateLimit(MigrateRateParams p = {}) : p_(p) {}
    const MigrateRateParams &params() const { return p_; }

    // May `pages` more pages migrate to `node` now? Counts them if so.
    bool admit(PolicyView sim, int node, std::int64_t pages);

private:
    MigrateRateParams p_;
    std::vector<SimTime> window_start_ns_;   // per node: autonuma_migrate_last_jiffies
    std::vector<std::int64_t> window_pages_; // per node: autonuma_migrate_nr_pages
};

} // namespace schedscope
