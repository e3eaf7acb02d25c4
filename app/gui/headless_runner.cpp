#include "headless_runner.h"

#include "main_window.h"

#include <QCoreApplication>
#include <QPixmap>
#include <QSaveFile>
#include <QWidget>

#include <cstdio>

namespace schedscope::gui {

QString save_widget_png(QWidget &widget, QSize size, const QString &path)
{
    widget.resize(size);
    widget.show();
    // Two rounds: the first delivers show/resize events (docks and the view
    // learn their size and fit), the second the repaints they trigger.
    for (int i = 0; i < 2; ++i)
        QCoreApplication::processEvents();
    const QPixmap pixmap = widget.grab();
    if (pixmap.isNull())
        return QStringLiteral("%1: the window could not be rendered").arg(path);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !pixmap.save(&file, "PNG") || !file.commit())
        return QStringLiteral("%1: %2").arg(path, file.errorString());
    return {};
}

int run_headless(MainWindow &window, const AppOptions &options)
{
    window.setErrorSink(stderr_sink());
    if (!window.openTopology(options.topology))
        return 2;
    const QString error = save_widget_png(window, options.size, options.screenshot);
    if (!error.isEmpty()) {
        std::fprintf(stderr, "schedscope: %s\n", qUtf8Printable(error));
        return 1;
    }
    return 0;
}

} // namespace schedscope::gui
