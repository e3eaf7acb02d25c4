#include "panels/migration_matrix.h"

#include <algorithm>

namespace schedscope::gui {

MigrationMatrix MigrationMatrix::from_recording(const Recording &rec, int pu_count, std::int64_t *skipped)
{
    MigrationMatrix m;
    m.pu_count = std::max(pu_count, 0);
    m.counts.assign(static_cast<std::size_t>(m.pu_count) * m.pu_count, 0);
    std::int64_t outside = 0;
    for (const MigrationRecord &mr : rec.migrations) {
        if (mr.from_cpu < 0 || mr.to_cpu < 0 || mr.from_cpu >= m.pu_count || mr.to_cpu >= m.pu_count) {
            ++outside;
            continue;
        }
        auto &cell = m.counts[static_cast<std::size_t>(mr.from_cpu) * m.pu_count + mr.to_cpu];
        ++cell;
        ++m.total;
        m.max_count = std::max(m.max_count, cell);
    }
    if (skipped)
        *skipped = outside;
    return m;
}

const Decision *decision_for(const Recording &rec, const MigrationRecord &move)
{
    // The log is in time order and the engine logs the move at the instant it
    // records it, so only decisions of that same instant can match.
    auto it = std::lower_bound(rec.decisions.begin(), rec.decisions.end(), move.time_ns,
                               [](const Decision &d, SimTime t) { return d.time_ns < t; });
    for (; it != rec.decisions.end() && it->time_ns == move.time_ns; ++it)
        if (it->task == move.task && it->to == move.to_cpu && it->from == move.from_cpu)
            return &*it;
    return nullptr;
}

std::vector<CellMigration> migrations_in_cell(const Recording &rec, int from, int to)
{
    std::vector<CellMigration> out;
    for (const MigrationRecord &mr : rec.migrations) {
        if (mr.from_cpu != from || mr.to_cpu != to)
            continue;
        CellMigration cm{mr, {}, {}};
        if (const Decision *d = decision_for(rec, mr)) {
            cm.kind = decision_kind_name(d->kind);
            cm.reason = d->reason;
        }
        out.push_back(std::move(cm));
    }
    return out;
}

} // namespace schedscope::gui
