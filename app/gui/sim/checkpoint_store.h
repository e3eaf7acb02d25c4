#pragma once
// Checkpoints of every pane at the same simulated instants, so the timeline
// can scrub back exactly: restore the latest checkpoint at or before the
// target and run forward. Memory stays bounded: past kMaxCheckpoints, every
// other one is dropped and the interval doubles (a long run keeps coarser
// checkpoints, a scrub then replays a little more).

#include "engine/simulation.h"

#include <vector>

namespace schedscope::gui {

// Coarse enough that checkpoints of a 1024-PU machine do not dominate the
// run; a scrub back replays at most this much simulated time.
inline constexpr SimTime kInitialCheckpointIntervalNs = 250'000'000; // 250 ms
inline constexpr std::size_t kMaxCheckpoints = 40;

class CheckpointStore {
public:
    struct Entry {
        SimTime time_ns = 0;
        std::vector<Simulation::Checkpoint> panes;
    };

    void clear();
    // The next instant a checkpoint is due (slices end there).
    SimTime next_due() const { return next_due_ns_; }
    SimTime interval() const { return interval_ns_; }
    void add(SimTime t, std::vector<Simulation::Checkpoint> panes);
    // The latest entry at or before t, or nullptr.
    const Entry *at_or_before(SimTime t) const;
    std::size_t size() const { return entries_.size(); }
    const std::vector<Entry> &entries() const { return entries_; }

private:
    void thin();

    std::vector<Entry> entries_; // by time
    SimTime interval_ns_ = kInitialCheckpointIntervalNs;
    SimTime next_due_ns_ = 0;
};

} // namespace schedscope::gui
