#pragma once
// knuma_migrated, AutoNUMA's page mover (AutoNUMA19, linux-mm, August 2012,
// mm/autonuma.c knuma_migrated() / knumad_do_migrate()): a fault that passes
// the last_nid filter queues the page on the destination node's list; one
// daemon per node wakes every migrate_sleep_millisecs and migrates up to
// pages_to_migrate of its queue to its node, on one of that node's CPUs. A
// later fault from another node takes a queued page off the list again
// (last_nid_set() -> __autonuma_migrate_page_remove()). AutoNUMA27 moved
// the copy into the fault (migrate on fault) under the same two knobs as a
// per-node rate limit; the daemon is what the measurements ran with.

#include "engine/sim_types.h"
#include "params/param_table.h"
#include "params/params.h"

#include <cstdint>
#include <deque>
#include <string>
#include <utility>
#include <vector>

namespace schedscope {

class Simulation;
class NumaScanner;

// AutoNUMA19 defaults: migrate_sleep_millisecs = 100, pages_to_migrate =
// 128 MiB of 4 KiB pages.
inline constexpr double kDefaultMigrateSleepMs = 100.0;
inline constexpr std::int64_t kDefaultPagesToMigrate = 128 * 1024 * 1024 / 4096;

struct KnumaMigratedParams {
    double migrate_sleep_ms = kDefaultMigrateSleepMs;
    std::int64_t pages_to_migrate = kDefaultPagesToMigrate;

    // knuma_migrated's knobs, declared once.
    static const ParamTable<KnumaMigratedParams> &table();
};

class KnumaMigrated {
public:
    explicit KnumaMigrated(KnumaMigratedParams p = {}) : p_(p) {}
    const KnumaMigratedParams &params() const { return p_; }

    // Queues a chunk for `node`'s daemon (moving it off another queue).
    void queue(const Simulation &sim, ProcId p, int chunk, int node);
    // Takes a queued chunk off its queue; nothing if it is not queued.
    void cancel(ProcId p, int chunk);
    // The node a chunk is queued for, or kNoNode.
    int queued_to(ProcId p, int chunk) const;
    // Once per tick: the daemons whose sleep is over migrate their queues.
    // `why` ends each page-migration reason.
    void tick(Simulation &sim, NumaScanner &scanner, const std::string &why);
    // The CPU knuma_migrated<node> runs on now: an idle CPU of the node if
    // there is one, else its least loaded (it is bound to the node's CPUs).
    static int daemon_cpu(const Simulation &sim, int node);

private:
    KnumaMigratedParams p_;
    SimTime next_wake_ns_ = 0;
    std::vector<std::deque<std::pair<ProcId, int>>> queues_; // per node: (process, chunk) in queue order
    std::vector<std::vector<std::int16_t>> queued_to_;       // per process and chunk: the node, or kNoNode
};

} // namespace schedscope
