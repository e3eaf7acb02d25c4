#include "dock_registry.h"

#include "distance_matrix_panel.h"
#include "panels/charts_panel.h"
#include "panels/explain_panel.h"
#include "panels/lesson_panel.h"
#include "panels/profiler_panel.h"
#include "topology_tree_model.h"

#include <QAction>
#include <QCoreApplication>
#include <QDockWidget>
#include <QHeaderView>
#include <QMainWindow>
#include <QScrollArea>
#include <QTreeView>

namespace schedscope::gui {

namespace {

QWidget *make_tree(const DockContext &ctx)
{
    auto *tree = new QTreeView(ctx.window);
    tree->setModel(ctx.tree_model);
    tree->setUniformRowHeights(true); // thousands of rows on big machines
    tree->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    tree->setSelectionBehavior(QAbstractItemView::SelectRows);
    return tree;
}

template <typename T> QWidget *make(const DockContext &ctx) { return new T(ctx.window); }

} // namespace

const std::vector<DockSpec> &dock_specs()
{
    // Charts, explain and profiler each need the window's width (charts, a
    // log beside its detail, two matrices): tabs below the panes rather than
    // slivers side by side. Lessons are read beside the panes, like a
    // tutorial's side bar. The profiler's matrices and tables need more
    // height than a dock below the panes should take: it scrolls instead of
    // squeezing the panes.
    static const std::vector<DockSpec> specs = {
        {"tree",
         "topologyTreeDock",
         QT_TRANSLATE_NOOP("Docks", "Topology tree"),
         QKeySequence("Ctrl+T"),
         Qt::LeftDockWidgetArea,
         {},
         true,
         false,
         make_tree},
        {"distances",
         "distanceDock",
         QT_TRANSLATE_NOOP("Docks", "NUMA distances"),
         QKeySequence("Ctrl+D"),
         Qt::BottomDockWidgetArea,
         {},
         false,
         false,
         make<DistanceMatrixPanel>},
        {"charts",
         "chartsDock",
         QT_TRANSLATE_NOOP("Docks", "Charts"),
         QKeySequence("Ctrl+Shift+C"),
         Qt::BottomDockWidgetArea,
         {},
         false,
         false,
         make<ChartsPanel>},
        {"explain", "explainDock", QT_TRANSLATE_NOOP("Docks", "Explain"), QKeySequence("Ctrl+Shift+X"),
         Qt::BottomDockWidgetArea, "charts", false, false, make<ExplainPanel>},
        {"profiler", "profilerDock", QT_TRANSLATE_NOOP("Docks", "Profiler"), QKeySequence("Ctrl+Shift+P"),
         Qt::BottomDockWidgetArea, "charts", false, true, make<ProfilerPanel>},
        {"lessons",
         "lessonsDock",
         QT_TRANSLATE_NOOP("Docks", "Lessons"),
         QKeySequence("Ctrl+Shift+L"),
         Qt::RightDockWidgetArea,
         {},
         false,
         false,
         make<LessonPanel>},
    };
    return specs;
}

QStringList dock_ids()
{
    QStringList ids;
    for (const DockSpec &s : dock_specs())
        ids << s.id;
    return ids;
}

void DockSet::create(const DockContext &ctx)
{
    for (const DockSpec &spec : dock_specs()) {
        QWidget *content = spec.factory(ctx);
        auto *dock = new QDockWidget(QCoreApplication::translate("Docks", spec.title), ctx.window);
        dock->setObjectName(spec.object_name);
        if (spec.scroll) {
            auto *scroll = new QScrollArea(ctx.window);
            scroll->setWidget(content);
            scroll->setWidgetResizable(true);
            scroll->setFrameShape(QFrame::NoFrame);
            dock->setWidget(scroll);
        } else {
            dock->setWidget(content);
        }
        ctx.window->addDockWidget(spec.area, dock);
        if (const auto it = docks_.find(spec.tab_with); !spec.tab_with.isEmpty() && it != docks_.end())
            ctx.window->tabifyDockWidget(it->second, dock);
        dock->setVisible(spec.shown_at_start);
        dock->toggleViewAction()->setShortcut(spec.shortcut);
        docks_[spec.id] = dock;
        contents_[spec.id] = content;
        order_.push_back(dock);
    }
}

QDockWidget *DockSet::dock(const QString &id) const
{
    const auto it = docks_.find(id);
    return it == docks_.end() ? nullptr : it->second;
}

QWidget *DockSet::content(const QString &id) const
{
    const auto it = contents_.find(id);
    return it == contents_.end() ? nullptr : it->second;
}

std::vector<QDockWidget *> DockSet::all() const { return order_; }

QStringList DockSet::show(const QStringList &ids) const
{
    QStringList unknown;
    for (const QString &id : ids) {
        QDockWidget *d = dock(id.trimmed());
        if (!d) {
            unknown << id;
            continue;
        }
        d->show();
        d->raise(); // the front tab if it shares its area
    }
    return unknown;
}

} // namespace schedscope::gui
