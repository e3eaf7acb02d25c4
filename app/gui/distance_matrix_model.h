#pragma once
// The NUMA node distance matrix (SLIT values, 10 = local) as a table, each
// cell tinted by how far the distance is above local so blocks stand out.

#include "topology/topology.h"

#include <QAbstractTableModel>

#include <memory>

namespace schedscope::gui {

class DistanceMatrixModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role { DistanceRole = Qt::UserRole + 1 };

    explicit DistanceMatrixModel(QObject *parent = nullptr);
    void setTopology(std::shared_ptr<const Topology> topology);
    // False when the source had no matrix and 10/20 are assumed.
    bool isMeasured() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const Topology> topology_;
    int max_distance_ = 10;
};

} // namespace schedscope::gui
