#include "topology_export.h"

#include "qpainter_canvas.h"

#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>

namespace schedscope::gui {

namespace {
void paint(QPainter &painter, const TopologyLayout &layout, double scale, RenderOptions options)
{
    options.scale = scale;
    options.visible.reset();
    painter.scale(scale, scale);
    painter.translate(kViewMargin, kViewMargin);
    QPainterCanvas canvas(painter, topology_font());
    render_topology(layout, canvas, options);
}

QSize device_size(const TopologyLayout &layout, double scale)
{
    return QSize(qCeil((layout.width() + 2 * kViewMargin) * scale), qCeil((layout.height() + 2 * kViewMargin) * scale));
}
} // namespace

QImage render_topology_image(const TopologyLayout &layout, double scale, const RenderOptions &options)
{
    QImage image(device_size(layout, scale), QImage::Format_RGB32);
    const Rgb bg = options.palette.background;
    image.fill(QColor(bg.r, bg.g, bg.b));
    QPainter painter(&image);
    painter.setRenderHint(QPainter::TextAntialiasing);
    paint(painter, layout, scale, options);
    return image;
}

QString export_topology_png(const TopologyLayout &layout, const QString &path, double scale)
{
    QImage image = render_topology_image(layout, scale);
    if (image.isNull())
        return QStringLiteral("%1: the image would be too large to allocate").arg(path);
    // QSaveFile: a failed export never leaves a truncated file behind.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !image.save(&file, "PNG") || !file.commit())
        return QStringLiteral("%1: %2").arg(path, file.errorString());
    return {};
}

QString export_topology_svg(const TopologyLayout &layout, const QString &path)
{
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(device_size(layout, 1.0));
    generator.setViewBox(QRect(QPoint(0, 0), device_size(layout, 1.0)));
    generator.setTitle(QStringLiteral("schedscope topology"));
    QPainter painter;
    if (!painter.begin(&generator))
        return QStringLiteral("%1: cannot write the SVG file").arg(path);
    paint(painter, layout, 1.0, RenderOptions{});
    painter.end();
    if (!QFileInfo::exists(path))
        return QStringLiteral("%1: cannot write the SVG file").arg(path);
    return {};
}

} // namespace schedscope::gui
