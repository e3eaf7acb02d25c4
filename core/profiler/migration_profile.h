#pragma once
// The result of profiling migration costs: a PU x PU matrix of the worst-case
// cost of moving a cache-hot task from a source PU (row) to a target PU
// (column), the cost per distance class, and the cache-decay times derived
// from them, overall and per scheduling-domain level. This is what the CLI
// prints, what --json/--save write and what the sched-domains policy loads.

#include "topology/topology.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace schedscope {

// A task counts as cold after about 10x its migration cost (at most 10 %
// degradation); with the buffer at 5/3 of the cache size that is 6x the
// measured cost (docs/background.md section 3, the 2004 auto-tuning patch).
inline constexpr double kCacheHotSafetyFactor = 6.0;

// The scheduling-domain level a pair of PUs is balanced at, named like the
// Linux domains built from the same facts:
//   "SMT"     siblings of one core                       (DistanceClass::SameCore)
//   "MC"      cores sharing an L2 or an L3               (SharedL2, SharedL3)
//   "package" cores of one package sharing no cache      (SamePackage)
//   "node"    packages of one NUMA node                  (SameNode)
//   "NUMA"    PUs on different NUMA nodes, any distance  (RemoteNode)
// Self has no level (nullptr): it is never a migration.
const char *domain_level_name(DistanceClass c);
// Levels in order from closest to farthest, for printing and validation.
const std::vector<std::string> &domain_level_names();
// The key of the overall value in MigrationProfile::cache_hot_time_ms.
inline constexpr const char *kOverallLevel = "overall";

// One distance class of the topology: its PUs' class and SLIT distance (two
// remote pairs at different distances are different classes).
struct ClassCost {
    DistanceClass cls = DistanceClass::Self;
    int numa_distance = 10;
    int pair_count = 0;  // pairs of the topology in this class
    int rep_source = -1; // representative pair (logical PU indices)
    int rep_target = -1;
    double min_ms = 0; // over the class's evaluated pairs; NaN if none
    double max_ms = 0;
};

using CostMatrix = std::vector<std::vector<double>>; // [source][target] ms; NaN = not measured

struct MigrationProfile {
    // What was profiled and how
    std::string topology_name;
    std::string topology_source;
    std::string mode;              // "measure" | "model"
    std::string pairs;             // "all" | "classes"
    int cache_level = 0;           // the cache whose size set the buffer (0: none known)
    std::uint64_t cache_bytes = 0; // its size (the largest instance)
    std::uint64_t buffer_bytes = 0;
    double factor = 0;
    int reps = 0;                 // measure mode only
    std::vector<int> pu_os_index; // by logical PU index, for labels
    std::vector<int> skipped_pus; // logical PUs the process may not run on
    std::vector<std::string> notes;
    bool complete = true; // false when cancelled part-way

    // Results
    CostMatrix matrix_ms;
    std::vector<ClassCost> classes;
    double min_offdiag_ms = 0;                       // NaN when no off-diagonal entry is known
    std::map<std::string, double> cache_hot_time_ms; // level (or "overall") -> ms

    // The cache-decay time the sched-domains policy should use for a domain
    // level; nullopt when the machine has no pair of that level (or it was
    // not measured). Pass kOverallLevel for the single machine-wide value.
    std::optional<double> cache_hot_time_ms_for_level(std::string_view level) const;
};

// Fills min_offdiag_ms and cache_hot_time_ms from the matrix: overall = the
// smallest known off-diagonal cost x kCacheHotSafetyFactor; per level = the
// smallest known cost among pairs of that level x kCacheHotSafetyFactor.
// `class_of(source, target)` gives a pair's distance class.
void derive_cache_hot_times(MigrationProfile &profile, const std::function<DistanceClass(int, int)> &class_of);

// The matrix as the 2.6 kernels printed it at boot: a `[00] [01] ...` header
// and one row per source PU, milliseconds with one decimal, followed by the
// derived values. Rows and columns are in OS CPU order, labelled by OS number.
std::string format_boot_log(const MigrationProfile &profile);

} // namespace schedscope
