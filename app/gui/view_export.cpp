#include "view_export.h"

#include <QPainter>
#include <QPixmap>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QWidget>

namespace schedscope::gui {

QString export_widget_png(QWidget &widget, const QString &path)
{
    const QPixmap pixmap = widget.grab();
    if (pixmap.isNull())
        return QStringLiteral("%1: the view could not be rendered").arg(path);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !pixmap.save(&file, "PNG") || !file.commit())
        return QStringLiteral("%1: %2").arg(path, file.errorString());
    return {};
}

QString export_widget_svg(QWidget &widget, const QString &path)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("%1: %2").arg(path, file.errorString());
    QSvgGenerator svg;
    svg.setOutputDevice(&file);
    svg.setSize(widget.size());
    svg.setViewBox(widget.rect());
    svg.setTitle(widget.windowTitle().isEmpty() ? QStringLiteral("schedscope") : widget.windowTitle());
    {
        QPainter painter(&svg);
        widget.render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
    }
    if (!file.commit())
        return QStringLiteral("%1: %2").arg(path, file.errorString());
    return {};
}

} // namespace schedscope::gui
