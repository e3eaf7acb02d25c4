#include "analysis_docks.h"

#include "dock_registry.h"
#include "panels/charts_panel.h"
#include "panels/explain_panel.h"
#include "panels/lesson_panel.h"
#include "panels/profiler_panel.h"
#include "sim/analysis_hookup.h"

#include <QDockWidget>

namespace schedscope::gui {

AnalysisDocks attach_analysis_docks(const DockSet &docks, ComparisonPage *page,
                                    std::function<void(const QString &)> status)
{
    AnalysisDocks d;
    d.charts = docks.widget<ChartsPanel>("charts");
    d.explain = docks.widget<ExplainPanel>("explain");
    d.profiler = docks.widget<ProfilerPanel>("profiler");
    d.lessons = docks.widget<LessonPanel>("lessons");
    d.charts_dock = docks.dock("charts");
    d.explain_dock = docks.dock("explain");
    d.profiler_dock = docks.dock("profiler");
    d.lessons_dock = docks.dock("lessons");
    attach_analysis(page, d.charts, d.explain);
    attach_profiler(page, d.profiler, d.explain, d.profiler_dock, std::move(status));
    return d;
}

} // namespace schedscope::gui
