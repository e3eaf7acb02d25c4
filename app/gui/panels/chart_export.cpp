#include "panels/chart_export.h"

#include "panels/chart_csv.h"
#include "panels/cursor_chart_view.h"
#include "panels/node_multiples_view.h"

#include <QCoreApplication>
#include <QDir>
#include <QLayout>
#include <QPainter>
#include <QPalette>
#include <QPixmap>
#include <QSaveFile>
#include <QSvgGenerator>

#include <functional>

namespace schedscope::gui {

QString chart_file_stem(ChartKind kind)
{
    QString stem = QString::fromUtf8(chart_title(kind)).toLower();
    stem.replace(QLatin1Char(' '), QLatin1Char('-'));
    return stem;
}

namespace {

QString save(const QString &path, const std::function<bool(QIODevice &)> &write)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !write(file) || !file.commit())
        return QStringLiteral("%1: %2").arg(path, file.errorString().isEmpty() ? QStringLiteral("cannot write")
                                                                               : file.errorString());
    return {};
}

} // namespace

QString export_chart_files(const ChartData &data, const QString &subtitle, double cursor_s, const QString &dir,
                           QSize size, QStringList *written, const QStringList &run_names)
{
    if (!QDir().mkpath(dir))
        return QStringLiteral("%1: cannot create the directory").arg(dir);
    // As the dock shows it: node convergence as one small chart per pane.
    CursorChartView chart;
    NodeMultiplesView multiples;
    QWidget &view = data.kind == ChartKind::NodeMemory ? static_cast<QWidget &>(multiples) : chart;
    view.setAttribute(Qt::WA_DontShowOnScreen);
    view.setAutoFillBackground(true);
    view.setPalette(QPalette(Qt::white));
    const auto fill = [&] {
        if (data.kind == ChartKind::NodeMemory) {
            multiples.setTimeRange(data.t_max_s);
            multiples.setCursorTime(cursor_s);
            multiples.setChartData(data, run_names, subtitle);
        } else {
            chart.setChartData(data, subtitle);
            chart.setTimeRange(data.t_max_s);
            chart.setCursorTime(cursor_s);
        }
    };
    // Filled before it is shown (the small multiples create their charts),
    // laid out at its size, then filled again so each chart draws at the
    // size it ended up with; the charts lay themselves out in posted events.
    fill();
    view.resize(size);
    view.show();
    for (int round = 0; round < 2; ++round) {
        if (QLayout *layout = view.layout())
            layout->activate();
        for (int i = 0; i < 3; ++i) {
            QCoreApplication::processEvents();
            QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        }
        if (round == 0)
            fill();
    }
    const QString stem = QDir(dir).filePath(chart_file_stem(data.kind));

    const QString png = stem + QStringLiteral(".png");
    QString error = save(png, [&](QIODevice &f) { return view.grab().save(&f, "PNG"); });
    if (!error.isEmpty())
        return error;

    const QString svg_path = stem + QStringLiteral(".svg");
    error = save(svg_path, [&](QIODevice &f) {
        QSvgGenerator svg;
        svg.setOutputDevice(&f);
        svg.setSize(view.size());
        svg.setViewBox(view.rect());
        svg.setTitle(QString::fromUtf8(chart_title(data.kind)));
        QPainter painter(&svg);
        painter.fillRect(view.rect(), Qt::white);
        view.render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
        return painter.end();
    });
    if (!error.isEmpty())
        return error;

    const QString csv_path = stem + QStringLiteral(".csv");
    const std::string csv = charts_to_csv({data});
    error = save(csv_path, [&](QIODevice &f) {
        return f.write(csv.data(), static_cast<qint64>(csv.size())) == static_cast<qint64>(csv.size());
    });
    if (!error.isEmpty())
        return error;
    if (written)
        *written << png << svg_path << csv_path;
    return {};
}

} // namespace schedscope::gui
