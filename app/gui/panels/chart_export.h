#pragma once
// Each chart on its own, for slides and papers (--export-charts DIR): a PNG,
// an SVG (shapes and text) and a CSV of the numbers behind its lines, with
// columns named by the pane labels. The chart is drawn afresh at the given
// size, so the files do not depend on how big the Charts dock happens to be.

#include "panels/chart_data.h"

#include <QSize>
#include <QString>
#include <QStringList>

namespace schedscope::gui {

// "Memory per node" -> "memory-per-node": the files' stem.
QString chart_file_stem(ChartKind kind);

// Writes DIR/<stem>.png, .svg and .csv; appends the paths to `written`.
// Empty on success, else a message naming the file that failed.
// Memory per node is drawn as small multiples, one per name in `run_names`.
QString export_chart_files(const ChartData &data, const QString &subtitle, double cursor_s, const QString &dir,
                           QSize size, QStringList *written = nullptr, const QStringList &run_names = {});

} // namespace schedscope::gui
