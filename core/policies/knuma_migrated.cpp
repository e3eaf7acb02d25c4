#include "policies/knuma_migrated.h"

#include "engine/policy_actions.h"
#include "engine/simulation.h"
#include "policies/numa_scanner.h"
#include "policies/policy_text.h"

#include <algorithm>

namespace schedscope {

namespace {
constexpr double kMaxMigrateSleepMs = 3'600'000;
constexpr std::int64_t kMaxPagesToMigrate = std::int64_t{1} << 40;
} // namespace

const ParamTable<KnumaMigratedParams> &KnumaMigratedParams::table()
{
    static const ParamTable<KnumaMigratedParams> t = [] {
        ParamTable<KnumaMigratedParams> t;
        t.real("migrate_sleep_millisecs", &KnumaMigratedParams::migrate_sleep_ms, 1, kMaxMigrateSleepMs, "ms",
               "knuma_migrated: each node's daemon wakes this often");
        t.integer("pages_to_migrate", &KnumaMigratedParams::pages_to_migrate, 1, kMaxPagesToMigrate, "pages",
                  "knuma_migrated: pages a node's daemon migrates per wakeup");
        return t;
    }();
    return t;
}

int KnumaMigrated::queued_to(ProcId p, int chunk) const
{
    if (p < 0 || p >= static_cast<ProcId>(queued_to_.size()) || chunk < 0 ||
        chunk >= static_cast<int>(queued_to_[p].size()))
        return kNoNode;
    return queued_to_[p][chunk];
}

void KnumaMigrated::queue(const Simulation &sim, ProcId p, int chunk, int node)
{
    const auto nodes = static_cast<size_t>(std::max(1, sim.topology().numa_count()));
    if (queues_.size() != nodes)
        queues_.resize(nodes);
    if (queued_to_.size() != sim.processes().size()) {
        queued_to_.resize(sim.processes().size());
        for (size_t q = 0; q < queued_to_.size(); ++q)
            queued_to_[q].resize(sim.processes()[q].chunk_node.size(), kNoNode);
    }
    if (node < 0 || static_cast<size_t>(node) >= nodes || queued_to(p, chunk) == node)
        return;
    // AutoNUMA19 __autonuma_migrate_page_add(): off the old node's list,
    // onto the new one's. The stale entry stays in the old deque and is
    // skipped when drained.
    queued_to_[p][chunk] = static_cast<std::int16_t>(node);
    queues_[static_cast<size_t>(node)].emplace_back(p, chunk);
}

void KnumaMigrated::cancel(ProcId p, int chunk)
{
    if (queued_to(p, chunk) != kNoNode)
        queued_to_[p][chunk] = kNoNode;
}

int KnumaMigrated::daemon_cpu(const Simulation &sim, int node)
{
    const CpuSet cpus = sim.topology().numa_count() > 0 ? sim.topology().pus_of_node(node) : CpuSet{};
    int best = kNoCpu;
    for (int c = cpus.first(); c >= 0; c = cpus.next(c)) {
        if (sim.cpu_idle(c))
            return c;
        if (best == kNoCpu || sim.nr_running(c) < sim.nr_running(best))
            best = c;
    }
    return best == kNoCpu ? 0 : best;
}

void KnumaMigrated::tick(Simulation &sim, NumaScanner &scanner, const std::string &why)
{
    if (sim.now() < next_wake_ns_)
        return;
    next_wake_ns_ = sim.now() + static_cast<SimTime>(p_.migrate_sleep_ms * 1e6);
    const auto &model = sim.model();
    const std::int64_t pages_per_chunk = std::max<std::int64_t>(1, model.chunk_bytes / model.page_bytes);
    for (size_t n = 0; n < queues_.size(); ++n) {
        auto &q = queues_[n];
        const int node = static_cast<int>(n);
        // knumad_do_migrate(): up to pages_to_migrate per wakeup.
        std::int64_t budget = p_.pages_to_migrate;
        int cpu = kNoCpu;
        while (!q.empty() && budget > 0) {
            const auto [p, chunk] = q.front();
            q.pop_front();
            if (queued_to(p, chunk) != node)
                continue; // cancelled or queued elsewhere since
            queued_to_[p][chunk] = kNoNode;
            if (cpu == kNoCpu)
                cpu = daemon_cpu(sim, node);
            const Process &proc = sim.processes()[p];
            const int from = proc.chunk_node[chunk];
            const std::string reason = "chunk " + std::to_string(chunk) + " of " + proc.name + " moved " +
                                       node_text(from) + " -> " + node_text(node) + " by knuma_migrated" +
                                       std::to_string(node) + ": " + why;
            if (PolicyActions::migrate_pages(sim, p, chunk, node, cpu, scanner.grain(p, chunk), reason)) {
                scanner.note_migrated(p, chunk);
                budget -= pages_per_chunk;
            }
        }
    }
}

} // namespace schedscope
