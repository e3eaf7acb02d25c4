#pragma once
// Every dock of the main window, declared once: its id (the --docks name),
// the saveState key, title, View-menu shortcut, area and the factory that
// builds its widget. The View menu, --docks, the window's layout and the
// tests all read this list, so a new view is one entry here plus its own
// files (docs/extending.md).
//
//   DockSet docks;
//   docks.create({window, page, tree_model});
//   auto *charts = docks.widget<ChartsPanel>("charts");
//   docks.show({"charts", "lessons"});          // --docks

#include <QKeySequence>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <functional>
#include <map>
#include <vector>

class QDockWidget;
class QMainWindow;

namespace schedscope::gui {

class ComparisonPage;
class TopologyTreeModel;

// What a factory may build on.
struct DockContext {
    QMainWindow *window = nullptr;
    ComparisonPage *page = nullptr;
    TopologyTreeModel *tree_model = nullptr;
};

struct DockSpec {
    QString id;          // "charts": --docks and showDocks name
    QString object_name; // "chartsDock": QMainWindow::saveState key, never change it
    const char *title;   // translated when created
    QKeySequence shortcut;
    Qt::DockWidgetArea area;
    QString tab_with;    // id of an earlier dock to share tabs with, or empty
    bool shown_at_start; // before any saved layout is restored
    bool scroll;         // wrapped in a scroll area (tall content in a short dock)
    std::function<QWidget *(const DockContext &)> factory;
};

// In creation and View-menu order.
const std::vector<DockSpec> &dock_specs();
QStringList dock_ids(); // "tree", "distances", "charts", ...

class DockSet {
public:
    // Builds every registered dock into ctx.window.
    void create(const DockContext &ctx);
    QDockWidget *dock(const QString &id) const;
    QWidget *content(const QString &id) const; // the factory's widget
    template <typename T> T *widget(const QString &id) const { return qobject_cast<T *>(content(id)); }
    std::vector<QDockWidget *> all() const;
    // Shows and raises the named docks; returns the names not registered.
    QStringList show(const QStringList &ids) const;

private:
    std::map<QString, QDockWidget *> docks_;
    std::map<QString, QWidget *> contents_;
    std::vector<QDockWidget *> order_;
};

} // namespace schedscope::gui
