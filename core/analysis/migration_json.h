#pragma once
// The `migrations_detail` object of `schedscope-cli run --json`: matrix and
// folds as sparse cell lists, the histograms with their edges, the totals.
// Per-migration items are left out: a long run has hundreds of thousands.
//
// {
//   "cache_hot_time_ms": 2.5, "cache_hot_time_origin": "...", "ping_pong_window_ms": 10,
//   "pu_matrix":   {"size": 8, "cells": [[from, to, count], ...]},
//   "node_matrix": {"size": 2, "cells": [[from, to, count], ...]},
//   "by_class":    {"smt": n, "shared-l2": n, ...},
//   "since_last_ran_ns": {"edges": [...], "counts": [...], "below": n, "above": n,
//                         "cache_hot_time_ns": x},
//   "cost_ns":     {"edges": [...], "counts": [...], "below": n, "above": n},
//   "totals": {"migrations", "per_second", "hot", "hot_pct", "refill_stall_ms",
//              "remote_stall_ms", "ping_pongs", "still_paying"}
// }

#include "analysis/migration_analysis.h"

#include <nlohmann/json.hpp>

namespace schedscope {

nlohmann::json migrations_detail_json(const MigrationAnalysis &a);

} // namespace schedscope
