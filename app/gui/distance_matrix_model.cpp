#include "distance_matrix_model.h"

#include <QColor>

#include <algorithm>

namespace schedscope::gui {

namespace {
constexpr int kLocalDistance = 10; // ACPI SLIT: 10 is the local node
}

DistanceMatrixModel::DistanceMatrixModel(QObject *parent) : QAbstractTableModel(parent) {}

void DistanceMatrixModel::setTopology(std::shared_ptr<const Topology> topology)
{
    beginResetModel();
    topology_ = std::move(topology);
    max_distance_ = kLocalDistance;
    const int n = topology_ ? topology_->numa_count() : 0;
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b)
            max_distance_ = std::max(max_distance_, topology_->node_distance(a, b));
    endResetModel();
}

bool DistanceMatrixModel::isMeasured() const { return topology_ && topology_->has_distances(); }

int DistanceMatrixModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !topology_ ? 0 : topology_->numa_count();
}

int DistanceMatrixModel::columnCount(const QModelIndex &parent) const { return rowCount(parent); }

QVariant DistanceMatrixModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const int d = topology_->node_distance(index.row(), index.column());
    switch (role) {
    case Qt::DisplayRole:
    case DistanceRole: return d;
    case Qt::TextAlignmentRole: return QVariant::fromValue(Qt::Alignment(Qt::AlignCenter));
    case Qt::BackgroundRole: {
        // White for local to a soft salmon for the farthest: strong enough to
        // show blocks, light enough to read the numbers on.
        const double t = max_distance_ > kLocalDistance ? double(d - kLocalDistance) / (max_distance_ - kLocalDistance)
                                                        : 0.0;
        return QColor::fromRgbF(1.0, 1.0 - 0.3 * t, 1.0 - 0.38 * t);
    }
    case Qt::ForegroundRole: return QColor(Qt::black);
    case Qt::ToolTipRole:
        return tr("%1 -> %2: %3 (%4x local latency)%5")
            .arg(headerData(index.row(), Qt::Vertical).toString(),
                 headerData(index.column(), Qt::Horizontal).toString())
            .arg(d)
            .arg(double(d) / kLocalDistance, 0, 'g', 3)
            .arg(isMeasured() ? QString() : tr("\nassumed: the source gave no distance matrix"));
    }
    return {};
}

QVariant DistanceMatrixModel::headerData(int section, Qt::Orientation, int role) const
{
    if (role != Qt::DisplayRole || !topology_ || section >= topology_->numa_count())
        return {};
    const int os = topology_->obj(topology_->numa_node(section)).os_index;
    return os >= 0 ? tr("N%1").arg(os) : tr("L#%1").arg(section);
}

} // namespace schedscope::gui
