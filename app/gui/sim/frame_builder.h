#pragma once
// Turns a Simulation's state into a PaneFrame. Runs on the simulation
// thread; plain C++ so tests can check a frame against the engine directly.

#include "pane_frame.h"

#include "engine/simulation.h"

namespace schedscope::gui {

// Where the previous frame of a pane stopped reading: migrations by the
// simulation's running count (the recording keeps only the first ones of a
// long run), samples and decisions by index in the recording.
struct RecordingCursor {
    std::int64_t migrations = 0;
    std::size_t samples = 0, decisions = 0;
    int sample_merges = 0; // the recording's, when `samples` was read
};

// Builds the frame and moves `cursor` to the end of the recording. After a
// restore, clamp the cursor first (clamp_cursor) so nothing is read twice.
// colour_by_task: every task gets a colour of its own (RunSetup::colour_by_task).
PaneFrame build_pane_frame(const Simulation &sim, bool fixed_work, RecordingCursor &cursor,
                           bool colour_by_task = false);
void clamp_cursor(RecordingCursor &cursor, const Simulation &sim);

// Brings the GUI thread's copy of a pane's samples and decisions up to the
// frame (after a restore or a merge of samples the frame starts further
// back). Returns whether anything changed.
bool apply_to_mirror(Recording &m, const PaneFrame &p);

} // namespace schedscope::gui
