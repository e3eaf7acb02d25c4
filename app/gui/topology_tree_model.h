#pragma once
// The topology as a tree for a QTreeView: one row per object, memory
// children (NUMA nodes) listed before CPU-side children as lstopo prints
// them. Columns: object, attributes (sizes), PUs (logical cpuset).

#include "topology/topology.h"

#include <QAbstractItemModel>

#include <memory>
#include <vector>

namespace schedscope::gui {

class TopologyTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { ObjectColumn, AttributesColumn, CpusetColumn, ColumnCount };
    enum Role {
        ObjIdRole = Qt::UserRole + 1, // int: the object's ObjId
        ObjTypeRole,                  // QString: obj_type_name()
        PuCountRole,                  // int: PUs below the object
    };

    explicit TopologyTreeModel(QObject *parent = nullptr);

    void setTopology(std::shared_ptr<const Topology> topology);
    QModelIndex indexOfObject(ObjId obj, int column = 0) const;
    ObjId objectAt(const QModelIndex &index) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const Topology> topology_;
    // The tree as displayed, precomputed so parent() and index() are O(1).
    std::vector<std::vector<ObjId>> rows_; // per object: its displayed children
    std::vector<ObjId> parent_;            // displayed parent, kNoObj for the root
    std::vector<int> row_;                 // row under the displayed parent
};

} // namespace schedscope::gui
