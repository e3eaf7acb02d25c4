// The dock registry is the one list of docks: every entry becomes a dock
// with its saveState key, a View-menu action with its shortcut, a --docks
// name, and nothing else makes docks.
#include "app_options.h"
#include "dock_registry.h"
#include "main_window.h"
#include "window_test_support.h"

#include <catch2/catch.hpp>

#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>

#include <set>

using namespace schedscope;
using namespace schedscope::gui;
using schedscope::test::QuietWindow;

namespace {
QMenu *view_menu(QMainWindow &w)
{
    for (QAction *a : w.menuBar()->actions())
        if (a->menu() && a->text().remove(QLatin1Char('&')) == QLatin1String("View"))
            return a->menu();
    return nullptr;
}
} // namespace

TEST_CASE("every registered dock is created, named, in the View menu with its shortcut", "[docks][registry]")
{
    REQUIRE(dock_specs().size() >= 6);
    std::set<QString> ids, names, keys;
    for (const DockSpec &s : dock_specs()) {
        CHECK(ids.insert(s.id).second);
        CHECK(names.insert(s.object_name).second);
        CHECK(keys.insert(s.shortcut.toString()).second); // no two docks on one key
        CHECK_FALSE(s.shortcut.isEmpty());
        CHECK(s.factory);
    }
    QuietWindow w;
    QMenu *view = view_menu(w.window);
    REQUIRE(view);
    const auto windows_docks = w.window.findChildren<QDockWidget *>();
    // Nothing outside the registry makes a dock.
    CHECK(windows_docks.size() == static_cast<qsizetype>(dock_specs().size()));
    for (const DockSpec &s : dock_specs()) {
        INFO(s.id.toStdString());
        QDockWidget *dock = w.window.dockSet().dock(s.id);
        REQUIRE(dock);
        CHECK(dock->objectName() == s.object_name);
        CHECK(dock->toggleViewAction()->shortcut() == s.shortcut);
        CHECK(view->actions().contains(dock->toggleViewAction()));
        CHECK(w.window.dockSet().content(s.id));
        CHECK(w.window.dockWidgetArea(dock) == s.area);
        CHECK(dock->isHidden() != s.shown_at_start);
    }
}

TEST_CASE("the --docks names are the registry's ids", "[docks][registry]")
{
    QuietWindow w;
    w.window.resize(1280, 720);
    w.window.show();
    CHECK(w.window.showDocks(dock_ids()).isEmpty());
    for (const DockSpec &s : dock_specs())
        CHECK_FALSE(w.window.dockSet().dock(s.id)->isHidden());
    CHECK(w.window.showDocks({QStringLiteral("nonsense")}) == QStringList{QStringLiteral("nonsense")});
    // The option's help lists every id.
    const ParsedOptions parsed = parse_app_options({QStringLiteral("schedscope"), QStringLiteral("--help")});
    for (const QString &id : dock_ids())
        CHECK(parsed.message.contains(id));
}
