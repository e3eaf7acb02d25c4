#include "checkpoint_store.h"

namespace schedscope::gui {

void CheckpointStore::clear()
{
    entries_.clear();
    interval_ns_ = kInitialCheckpointIntervalNs;
    next_due_ns_ = 0;
}

void CheckpointStore::add(SimTime t, std::vector<Simulation::Checkpoint> panes)
{
    // A replay after a scrub passes the same instants again; keep the first.
    if (!entries_.empty() && entries_.back().time_ns >= t) {
        next_due_ns_ = entries_.back().time_ns + interval_ns_;
        return;
    }
    entries_.push_back({t, std::move(panes)});
    if (entries_.size() > kMaxCheckpoints)
        thin();
    next_due_ns_ = entries_.back().time_ns + interval_ns_;
}

void CheckpointStore::thin()
{
    interval_ns_ *= 2;
    std::vector<Entry> kept;
    // Keep time zero (reset) and those on the new, doubled grid.
    for (Entry &e : entries_)
        if (e.time_ns == 0 || e.time_ns % interval_ns_ == 0)
            kept.push_back(std::move(e));
    entries_ = std::move(kept);
}

const CheckpointStore::Entry *CheckpointStore::at_or_before(SimTime t) const
{
    const Entry *best = nullptr;
    for (const Entry &e : entries_) {
        if (e.time_ns > t)
            break;
        best = &e;
    }
    return best;
}

} // namespace schedscope::gui
