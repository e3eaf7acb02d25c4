// Build-time tool: renders the scalable icon into the PNG sizes of the hicolor
// theme, so the repository holds one SVG and no generated bitmaps.
//   schedscope_icon_render ICON.svg OUT_DIR SIZE...
// writes OUT_DIR/<SIZE>x<SIZE>/apps/<name of ICON>.png for every SIZE.

#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>

#include <cstdio>
#include <cstdlib>

int main(int argc, char *argv[])
{
    if (argc < 4) {
        std::fprintf(stderr, "usage: %s ICON.svg OUT_DIR SIZE...\n", argv[0]);
        return 2;
    }
    const QString svg_path = QString::fromLocal8Bit(argv[1]);
    const QString out_dir = QString::fromLocal8Bit(argv[2]);
    QSvgRenderer renderer(svg_path);
    if (!renderer.isValid()) {
        std::fprintf(stderr, "%s: cannot read SVG\n", argv[1]);
        return 1;
    }
    const QString name = QFileInfo(svg_path).completeBaseName();
    for (int i = 3; i < argc; ++i) {
        const int size_px = std::atoi(argv[i]);
        if (size_px <= 0 || size_px > 1024) {
            std::fprintf(stderr, "bad size '%s'\n", argv[i]);
            return 2;
        }
        QImage image(size_px, size_px, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        {
            QPainter painter(&image);
            renderer.render(&painter);
        }
        const QString dir = QStringLiteral("%1/%2x%2/apps").arg(out_dir).arg(size_px);
        const QString file = QStringLiteral("%1/%2.png").arg(dir, name);
        if (!QDir().mkpath(dir) || !image.save(file, "PNG")) {
            std::fprintf(stderr, "cannot write %s\n", qPrintable(file));
            return 1;
        }
    }
    return 0;
}
