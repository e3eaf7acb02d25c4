#pragma once
// The four analysis docks around the comparison (charts, explain, profiler,
// lessons), typed, and wired to the comparison here, so MainWindow only
// places them in its menus. The docks themselves are created from the
// registry (dock_registry.h).

#include <QString>

#include <functional>
#include <vector>

class QDockWidget;

namespace schedscope::gui {

class ChartsPanel;
class ComparisonPage;
class DockSet;
class ExplainPanel;
class LessonPanel;
class ProfilerPanel;

struct AnalysisDocks {
    ChartsPanel *charts = nullptr;
    ExplainPanel *explain = nullptr;
    ProfilerPanel *profiler = nullptr;
    LessonPanel *lessons = nullptr;
    QDockWidget *charts_dock = nullptr;
    QDockWidget *explain_dock = nullptr;
    QDockWidget *profiler_dock = nullptr;
    QDockWidget *lessons_dock = nullptr;

    std::vector<QDockWidget *> all() const { return {charts_dock, explain_dock, profiler_dock, lessons_dock}; }
};

// Looks the analysis docks up in `docks` (already created) and connects
// them to the comparison; `status` shows a message in the window's status bar.
AnalysisDocks attach_analysis_docks(const DockSet &docks, ComparisonPage *page,
                                    std::function<void(const QString &)> status);

} // namespace schedscope::gui
