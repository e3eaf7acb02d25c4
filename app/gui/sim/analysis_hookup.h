#pragma once
// Feeds GUI-B's analysis widgets (app/gui/panels) from a comparison: the
// charts get each pane's samples as frames deliver them (and are cut back
// when the timeline scrubs back), share the time cursor with the timeline,
// and the explain view follows each pane's decision log. Kept out of
// MainWindow so the window only places the docks.

#include "run_setup.h"

#include <QMap>
#include <QString>

#include <functional>
#include <utility>
#include <vector>

class QDockWidget;

namespace schedscope::gui {

class ChartsPanel;
class ComparisonPage;
class ExplainPanel;
class ProfilerPanel;

// Charts and the explain view. Clicking a task in the explain view asks the
// simulation thread for the task's snapshot (SimulationController::
// requestTaskSnapshot); the log-only detail shows at once and the full one
// (warmth per cache, memory placement) replaces it when the answer arrives.
void attach_analysis(ComparisonPage *page, ChartsPanel *charts, ExplainPanel *explain);

// The profiler view: the comparison's machine (measure allowed on the
// detected host), and the run of the explain view's current pane, copied
// from the simulation thread when the dock is visible and the comparison
// pauses or the pane changes. "Use for sched-domains" re-runs one pane
// through ComparisonPage::applyPolicies; `status` gets a one-line message.
void attach_profiler(ComparisonPage *page, ProfilerPanel *profiler, ExplainPanel *explain, QDockWidget *dock,
                     std::function<void(const QString &)> status);

// The policy change "Use for sched-domains" makes, to one pane so that the
// comparison stays one: `selected_pane` (the explain view's) if it runs
// sched-domains, else the first sched-domains pane, else `selected_pane`.
// It gets autotune=profile,profile=PATH (its explicit cache_hot_time values
// removed so the profile's apply), or the per-level
// cache_hot_time_ms.<level> values when there is no saved file.
std::vector<std::pair<int, PolicySpec>> profile_policy_changes(const RunSetup &setup, int selected_pane,
                                                               const QString &profile_path,
                                                               const QMap<QString, double> &cache_hot_time_ms);

// Whether a comparison runs on the machine this program runs on.
bool runs_on_detected_machine(const RunSetup &setup);

} // namespace schedscope::gui
