#include "panels/heatmap_model.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace schedscope::gui {

HeatmapModel::HeatmapModel(QObject *parent) : QAbstractTableModel(parent) {}

void HeatmapModel::setMatrix(std::vector<double> values, QStringList labels, int decimals, QString unit)
{
    beginResetModel();
    const auto n = static_cast<std::size_t>(labels.size());
    values.resize(n * n, std::nan(""));
    values_ = std::move(values);
    labels_ = std::move(labels);
    decimals_ = decimals;
    unit_ = std::move(unit);
    // The scale starts at the smallest known value, not zero: a cost matrix's
    // interesting contrast is between its blocks, all far above zero. Counts
    // (decimals 0) keep zero as the bottom so an empty cell stays white.
    min_ = std::numeric_limits<double>::infinity();
    max_ = -std::numeric_limits<double>::infinity();
    for (double v : values_)
        if (!std::isnan(v)) {
            min_ = std::min(min_, v);
            max_ = std::max(max_, v);
        }
    if (!std::isfinite(min_))
        min_ = max_ = 0;
    if (decimals_ == 0)
        min_ = std::min(min_, 0.0);
    endResetModel();
}

void HeatmapModel::clear() { setMatrix({}, {}, decimals_, unit_); }

void HeatmapModel::setShowValues(bool show)
{
    if (show == show_values_)
        return;
    show_values_ = show;
    if (!labels_.isEmpty())
        emit dataChanged(index(0, 0), index(size() - 1, size() - 1), {Qt::DisplayRole});
}

double HeatmapModel::value(int row, int column) const
{
    if (row < 0 || column < 0 || row >= size() || column >= size())
        return std::nan("");
    return values_[static_cast<std::size_t>(row) * size() + column];
}

QColor HeatmapModel::ramp(double fraction)
{
    fraction = std::clamp(fraction, 0.0, 1.0);
    // Two legs, white -> amber -> dark red: one hue ramp would make the
    // middle of the scale hard to tell from either end.
    const QColor a(255, 255, 255), b(253, 174, 97), c(165, 15, 21);
    const QColor &from = fraction < 0.5 ? a : b;
    const QColor &to = fraction < 0.5 ? b : c;
    const double f = fraction < 0.5 ? fraction * 2 : (fraction - 0.5) * 2;
    auto mix = [f](int x, int y) { return static_cast<int>(std::lround(x + (y - x) * f)); };
    return QColor(mix(from.red(), to.red()), mix(from.green(), to.green()), mix(from.blue(), to.blue()));
}

int HeatmapModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : size(); }
int HeatmapModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : size(); }

QVariant HeatmapModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const double v = value(index.row(), index.column());
    const bool known = !std::isnan(v);
    const double fraction = !known ? -1.0 : (max_ > min_ ? (v - min_) / (max_ - min_) : (v > 0 ? 1.0 : 0.0));
    switch (role) {
    case Qt::DisplayRole:
        if (!show_values_)
            return {};
        // An empty cell of a count matrix reads faster blank than as "0".
        if (decimals_ == 0 && v == 0)
            return QString();
        return known ? QString::number(v, 'f', decimals_) : QStringLiteral("-");
    case Qt::ToolTipRole:
        return tr("CPU %1 \u2192 CPU %2: %3")
            .arg(labels_[index.row()], labels_[index.column()],
                 known ? QString::number(v, 'f', decimals_) + QLatin1Char(' ') + unit_ : tr("not measured"));
    case Qt::BackgroundRole: return known ? ramp(fraction) : QColor(200, 200, 200);
    case Qt::ForegroundRole:
        // Dark text on the light half of the ramp, white on the dark half.
        return fraction > 0.7 ? QColor(Qt::white) : QColor(Qt::black);
    case Qt::TextAlignmentRole: return int(Qt::AlignCenter);
    case ValueRole: return v;
    case FractionRole: return fraction;
    default: return {};
    }
}

QVariant HeatmapModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (section < 0 || section >= size())
        return {};
    if (role == Qt::DisplayRole)
        return labels_[section];
    if (role == Qt::ToolTipRole)
        return orientation == Qt::Vertical ? tr("from CPU %1").arg(labels_[section])
                                           : tr("to CPU %1").arg(labels_[section]);
    return {};
}

} // namespace schedscope::gui
