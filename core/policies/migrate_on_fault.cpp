#include "policies/migrate_on_fault.h"

#include "engine/simulation.h"

#include <algorithm>

namespace schedscope {

namespace {
constexpr double kMaxMigrateSleepMs = 3'600'000;
constexpr std::int64_t kMaxPagesToMigrate = std::int64_t{1} << 40;
} // namespace

const ParamTable<MigrateRateParams> &MigrateRateParams::table()
{
    static const ParamTable<MigrateRateParams> t = [] {
        ParamTable<MigrateRateParams> t;
        t.real("migrate_sleep_millisecs", &MigrateRateParams::migrate_sleep_ms, 1, kMaxMigrateSleepMs, "ms",
               "migrate on fault: the window of each node's rate limit");
        t.integer("pages_to_migrate", &MigrateRateParams::pages_to_migrate, 1, kMaxPagesToMigrate, "pages",
                  "migrate on fault: pages a node may take per window");
        return t;
    }();
    return t;
}

bool MigrateRateLimit::admit(PolicyView sim, int node, std::int64_t pages)
{
    const auto nodes = static_cast<size_t>(std::max(1, sim.topology().numa_count()));
    if (window_start_ns_.size() != nodes) {
        // Before the first migration the window is long over.
        window_start_ns_.assign(nodes, -static_cast<SimTime>(p_.migrate_sleep_ms * 1e6) - 1);
        window_pages_.assign(nodes, 0);
    }
    if (node < 0 || static_cast<size_t>(node) >= nodes)
        return false;
    const auto n = static_cast<size_t>(node);
    // autonuma_migrate_page(): a window older than migrate_sleep_millisecs
    // starts again from zero; a full one refuses the page (it stays where
    // it is until a later fault).
    if (sim.now() > window_start_ns_[n] + static_cast<SimTime>(p_.migrate_sleep_ms * 1e6)) {
        window_start_ns_[n] = sim.now();
        window_pages_[n] = 0;
    }
    if (window_pages_[n] >= p_.pages_to_migrate)
        return false;
    window_pages_[n] += pages;
    return true;
}

} // namespace schedscope
