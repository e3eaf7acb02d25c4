#pragma once
// Turns a Simulation's state into a PaneFrame. Runs on the simulation
// thread; plain C++ so tests can check a frame against the engine directly.

#include "pane_frame.h"

#include "engine/simulation.h"

namespace schedscope::gui {

// Where the previous frame of a pane stopped reading the recording.
struct RecordingCursor {
    std::size_t migrations = 0, samples = 0, decisions = 0;
    // Migrations by class up to `migrations`, kept incrementally: a long run
    // has millions and the header wants them every frame.
    std::array<std::int64_t, kDistanceClassCount> by_class{};
};

// Builds the frame and moves `cursor` to the end of the recording. After a
// restore, clamp the cursor first (clamp_cursor) so nothing is read twice.
PaneFrame build_pane_frame(const Simulation &sim, bool fixed_work, RecordingCursor &cursor);
void clamp_cursor(RecordingCursor &cursor, const Recording &rec);

} // namespace schedscope::gui
