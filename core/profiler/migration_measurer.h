#pragma once
// Measures migration costs on the running machine (docs/background.md section 3):
// for a pair (source, target), a thread bound to the source writes the
// shared buffer; a thread bound to the target writes its own buffer of the
// same size, then the time it takes to write the shared buffer is one
// sample. The cost is the largest of `reps` samples (after one warm-up that
// also takes the page faults). Source == target is the pure dirtying cost:
// the same thread writes the shared buffer twice and the second pass is
// timed.

#include "profiler/buffer_dirtier.h"
#include "profiler/pair_cost_source.h"
#include "profiler/pinned_worker.h"
#include "topology/topology.h"

#include <hwloc.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace schedscope {

class MigrationMeasurer : public PairCostSource {
public:
    // `topology` must describe the running machine (import_detect()); PUs
    // are bound by their OS index. Throws std::runtime_error when hwloc
    // cannot bind threads here at all, or when two buffers of
    // `buffer_bytes` cannot fit in memory.
    MigrationMeasurer(const Topology &topology, std::uint64_t buffer_bytes, std::size_t line_bytes, int reps,
                      std::uint64_t seed);
    ~MigrationMeasurer() override;

    std::vector<bool> usable_pus() override;
    double cost_ms(int source, int target, const std::atomic<bool> *cancel) override;
    std::vector<std::string> notes() const override { return notes_; }
    std::vector<int> failed_pus() const override { return failed_; }

private:
    // nullptr when the PU could not be bound (recorded in failed_ and notes_).
    PinnedWorker *worker(int pu);

    const Topology &topology_;
    hwloc_topology_t hwloc_ = nullptr;
    std::size_t buffer_bytes_;
    int reps_;
    BufferDirtier dirtier_;
    std::map<int, std::unique_ptr<PinnedWorker>> workers_;
    std::vector<int> failed_;
    std::vector<std::string> notes_;
};

} // namespace schedscope
