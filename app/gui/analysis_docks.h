#pragma once
// The four analysis docks around the comparison (charts, explain, profiler,
// lessons): created, named for saveState and wired to the comparison here,
// so MainWindow only places them in its menus.

#include <QString>

#include <functional>
#include <vector>

class QDockWidget;
class QMainWindow;

namespace schedscope::gui {

class ChartsPanel;
class ComparisonPage;
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

// Hidden at first (the panes get the whole window); `status` shows a
// message in the window's status bar.
AnalysisDocks create_analysis_docks(QMainWindow *window, ComparisonPage *page,
                                    std::function<void(const QString &)> status);

} // namespace schedscope::gui
