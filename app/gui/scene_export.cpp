#include "scene_export.h"

#include "main_window.h"
#include "panels/charts_panel.h"
#include "panels/node_multiples_view.h"
#include "sim/comparison_page.h"
#include "sim/comparison_view.h"
#include "topology_export.h"
#include "topology_view.h"

#include <QDockWidget>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QTabWidget>
#include <QWidget>

namespace schedscope::gui {

QString export_widgets_svg(QWidget &root, const std::vector<QWidget *> &parts, const QString &path)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("%1: %2").arg(path, file.errorString());
    QSvgGenerator svg;
    svg.setOutputDevice(&file);
    svg.setSize(root.size());
    svg.setViewBox(root.rect());
    svg.setTitle(root.windowTitle().isEmpty() ? QStringLiteral("schedscope") : root.windowTitle());
    {
        QPainter painter(&svg);
        painter.fillRect(root.rect(), Qt::white);
        for (QWidget *part : parts) {
            if (!part || !part->isVisible())
                continue;
            // render() paints the widget's own paintEvent into the generator:
            // the panes and charts draw shapes and text, not a grab.
            part->render(&painter, part->mapTo(&root, QPoint(0, 0)), QRegion(), QWidget::DrawChildren);
        }
    }
    if (!file.commit())
        return QStringLiteral("%1: %2").arg(path, file.errorString());
    return {};
}

QString export_scene_svg(MainWindow &window, const QString &path)
{
    if (window.tabs()->currentWidget() != window.comparisonPage())
        return export_topology_svg(window.topologyView()->topologyLayout(), path);
    std::vector<QWidget *> parts{window.comparisonPage()->view()};
    // The charts themselves, without the dock's process picker and buttons.
    // (the grid holding them and their key: its hidden all-in-one memory
    // chart is skipped like any hidden widget)
    if (window.analysisDocks().charts_dock->isVisible())
        parts.push_back(window.analysisDocks().charts->nodeMultiples()->parentWidget());
    return export_widgets_svg(window, parts, path);
}

} // namespace schedscope::gui
