#pragma once
// Feeds GUI-B's analysis widgets (app/gui/analysis) from a comparison: the
// charts get each pane's samples as frames deliver them (and are cut back
// when the timeline scrubs back), share the time cursor with the timeline,
// and the explain view follows each pane's decision log. Kept out of
// MainWindow so the window only places the docks.

namespace schedscope::gui {

class ChartsPanel;
class ComparisonPage;
class ExplainPanel;

// Hook point still open: ExplainPanel::setSnapshotProvider needs a task's
// live state (cache warmth, memory placement), which only the worker thread
// may read; it needs a snapshot request through the controller.
void attach_analysis(ComparisonPage *page, ChartsPanel *charts, ExplainPanel *explain);

} // namespace schedscope::gui
