#include "analysis_docks.h"

#include "panels/charts_panel.h"
#include "panels/explain_panel.h"
#include "panels/lesson_panel.h"
#include "panels/profiler_panel.h"
#include "sim/analysis_hookup.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QScrollArea>

namespace schedscope::gui {

namespace {

QDockWidget *make_dock(QMainWindow *window, QWidget *widget, const QString &title, const char *name,
                       Qt::DockWidgetArea area)
{
    auto *dock = new QDockWidget(title, window);
    dock->setObjectName(QString::fromLatin1(name)); // saveState/restoreState key
    dock->setWidget(widget);
    window->addDockWidget(area, dock);
    dock->hide();
    return dock;
}

} // namespace

AnalysisDocks create_analysis_docks(QMainWindow *window, ComparisonPage *page,
                                    std::function<void(const QString &)> status)
{
    AnalysisDocks d;
    d.charts = new ChartsPanel(window);
    d.explain = new ExplainPanel(window);
    d.profiler = new ProfilerPanel(window);
    d.lessons = new LessonPanel(window);
    d.charts_dock = make_dock(window, d.charts, QObject::tr("Charts"), "chartsDock", Qt::BottomDockWidgetArea);
    d.explain_dock = make_dock(window, d.explain, QObject::tr("Explain"), "explainDock", Qt::BottomDockWidgetArea);
    // The profiler's matrices and tables need more height than a dock below
    // the panes should take: it scrolls instead of squeezing the panes.
    auto *profiler_scroll = new QScrollArea(window);
    profiler_scroll->setWidget(d.profiler);
    profiler_scroll->setWidgetResizable(true);
    profiler_scroll->setFrameShape(QFrame::NoFrame);
    d.profiler_dock = make_dock(window, profiler_scroll, QObject::tr("Profiler"), "profilerDock",
                                Qt::BottomDockWidgetArea);
    // Charts, explain and profiler each need the window's width (six charts,
    // a log beside its detail, two matrices): tabs below the panes rather
    // than three slivers side by side.
    window->tabifyDockWidget(d.charts_dock, d.explain_dock);
    window->tabifyDockWidget(d.charts_dock, d.profiler_dock);
    // Lessons are read beside the panes, like a tutorial's side bar.
    d.lessons_dock = make_dock(window, d.lessons, QObject::tr("Lessons"), "lessonsDock", Qt::RightDockWidgetArea);
    attach_analysis(page, d.charts, d.explain);
    attach_profiler(page, d.profiler, d.explain, d.profiler_dock, std::move(status));
    return d;
}

} // namespace schedscope::gui
