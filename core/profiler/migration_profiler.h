#pragma once
// The entry point of the migration profiler: resolves which cache sets the
// buffer size, plans the pairs, evaluates them by measurement (the running
// machine) or by the model (any topology), and assembles a MigrationProfile.
//
// run() is blocking and may take minutes in measure mode; a GUI calls it off
// its thread, watches `progress` and raises `cancel` to stop. A cancelled
// run returns what was evaluated so far with complete == false.

#include "engine/model_params.h"
#include "profiler/migration_profile.h"
#include "profiler/pair_plan.h"
#include "topology/topology.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

namespace schedscope {

enum class ProfileMode { Measure, Model };

struct ProfilerOptions {
    ProfileMode mode = ProfileMode::Model;
    PairSelection pairs = PairSelection::All;
    std::string level = "LLC";       // "L2", "L3" or "LLC" (the last level the topology has)
    double factor = 5.0 / 3.0;       // buffer = factor x cache size (docs/background.md section 3)
    int reps = 20;                   // samples per pair in measure mode; the cost is their maximum
    std::uint64_t buffer_bytes = 0;  // overrides factor x cache size when non-zero (tests, tiny runs)
    std::uint64_t seed = 0x5c4ed5c0; // write-pattern generator; fixed so runs are comparable
    ModelParams params;              // latencies and bandwidths of the model mode
    // Model mode: the topology's era figures (its `model:` lines, as a
    // simulation on it gets them) stand where `params` holds a default;
    // a field of `params` set to anything else wins, as a scenario's
    // "model" wins over the figures.
    bool machine_figures = true;
};

// (pairs evaluated so far, pairs to evaluate)
using ProfileProgress = std::function<void(int done, int total)>;

// "measure" / "model", "all" / "classes"; throw InputError(option, ...) for
// anything else.
ProfileMode parse_profile_mode(const std::string &text, const std::string &option);
PairSelection parse_pair_selection(const std::string &text, const std::string &option);

class MigrationProfiler {
public:
    // Validates the options against the topology; throws InputError for a
    // level the topology does not have, a factor or reps out of range, or
    // measure mode on a topology that is not the running machine.
    MigrationProfiler(const Topology &topology, ProfilerOptions options);

    int cache_level() const { return cache_level_; } // 0 when the topology knows no cache
    std::uint64_t cache_bytes() const { return cache_bytes_; }
    std::uint64_t buffer_bytes() const { return buffer_bytes_; }
    const std::vector<std::string> &notes() const { return notes_; }

    // Throws std::runtime_error when measurement is impossible (no thread
    // binding, buffers too large for memory).
    MigrationProfile run(const std::atomic<bool> *cancel = nullptr, const ProfileProgress &progress = {}) const;

private:
    void apply_machine_figures();
    void resolve_cache();

    const Topology &topology_;
    ProfilerOptions options_;
    int cache_level_ = 0;
    std::uint64_t cache_bytes_ = 0;
    double line_bytes_ = 0;
    std::uint64_t buffer_bytes_ = 0;
    std::vector<std::string> notes_;
};

} // namespace schedscope
