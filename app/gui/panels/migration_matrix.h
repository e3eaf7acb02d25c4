#pragma once
// Where a run moved its tasks: a PU x PU count of task migrations (rows are
// the source PU, columns the target, both in the topology's logical PU
// order, as the profiler's cost matrix), and the migrations behind one cell
// with the reason the policy logged for each.
//
// The core's migration analysis (core/analysis/) computes the same
// matrix with its folds and histograms; this plain version is what the
// profiler view needs to show the matrix and list a cell, nothing more.

#include "engine/recording.h"

#include <cstdint>
#include <string>
#include <vector>

namespace schedscope::gui {

struct MigrationMatrix {
    int pu_count = 0;
    std::vector<std::int64_t> counts; // row-major [from * pu_count + to]
    std::int64_t total = 0;
    std::int64_t max_count = 0; // the largest cell: the heatmap's scale

    std::int64_t at(int from, int to) const { return counts[static_cast<std::size_t>(from) * pu_count + to]; }

    // Migrations naming a PU outside 0..pu_count-1 are not counted (a
    // recording from another machine); `skipped` says how many.
    static MigrationMatrix from_recording(const Recording &rec, int pu_count, std::int64_t *skipped = nullptr);
};

struct CellMigration {
    MigrationRecord move;
    std::string kind;   // the logged decision's kind ("pull", "exchange"...), "" if not logged
    std::string reason; // its plain-words reason, "" if the log dropped it
};

// The migrations from `from` to `to`, in time order, each with the decision
// the policy logged for it (same time, task and target).
std::vector<CellMigration> migrations_in_cell(const Recording &rec, int from, int to);

// The decision logged for a migration, or nullptr (the log is bounded and
// may have dropped it).
const Decision *decision_for(const Recording &rec, const MigrationRecord &move);

} // namespace schedscope::gui
