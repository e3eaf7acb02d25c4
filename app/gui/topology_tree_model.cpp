#include "topology_tree_model.h"

#include "object_text.h"

namespace schedscope::gui {

TopologyTreeModel::TopologyTreeModel(QObject *parent) : QAbstractItemModel(parent) {}

void TopologyTreeModel::setTopology(std::shared_ptr<const Topology> topology)
{
    beginResetModel();
    topology_ = std::move(topology);
    const size_t n = topology_ ? topology_->objects().size() : 0;
    rows_.assign(n, {});
    parent_.assign(n, kNoObj);
    row_.assign(n, 0);
    for (size_t id = 0; id < n; ++id) {
        const TopoObject &o = topology_->obj(static_cast<ObjId>(id));
        auto &kids = rows_[id];
        kids = o.memory_children;
        kids.insert(kids.end(), o.children.begin(), o.children.end());
        for (size_t r = 0; r < kids.size(); ++r) {
            parent_[kids[r]] = static_cast<ObjId>(id);
            row_[kids[r]] = static_cast<int>(r);
        }
    }
    endResetModel();
}

QModelIndex TopologyTreeModel::indexOfObject(ObjId obj, int column) const
{
    if (!topology_ || obj < 0 || obj >= static_cast<ObjId>(rows_.size()))
        return {};
    return createIndex(row_[obj], column, static_cast<quintptr>(obj));
}

ObjId TopologyTreeModel::objectAt(const QModelIndex &index) const
{
    return index.isValid() ? static_cast<ObjId>(index.internalId()) : kNoObj;
}

QModelIndex TopologyTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, static_cast<quintptr>(topology_->root()));
    return createIndex(row, column, static_cast<quintptr>(rows_[objectAt(parent)][row]));
}

QModelIndex TopologyTreeModel::parent(const QModelIndex &child) const
{
    const ObjId obj = objectAt(child);
    if (obj == kNoObj || parent_[obj] == kNoObj)
        return {};
    return indexOfObject(parent_[obj]);
}

int TopologyTreeModel::rowCount(const QModelIndex &parent) const
{
    if (!topology_ || topology_->root() == kNoObj)
        return 0;
    if (!parent.isValid())
        return 1; // the Machine
    if (parent.column() != 0)
        return 0;
    return static_cast<int>(rows_[objectAt(parent)].size());
}

int TopologyTreeModel::columnCount(const QModelIndex &) const { return ColumnCount; }

QVariant TopologyTreeModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const ObjId id = objectAt(index);
    const TopoObject &o = topology_->obj(id);
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case ObjectColumn: return QString::fromStdString(object_name(*topology_, id));
        case AttributesColumn: return QString::fromStdString(object_size_text(*topology_, id));
        case CpusetColumn: return QString::fromStdString(o.cpuset.to_list_string());
        }
        return {};
    case Qt::ToolTipRole: return QString::fromStdString(object_tooltip(*topology_, id));
    case ObjIdRole: return id;
    case ObjTypeRole: return QString::fromUtf8(obj_type_name(o.type));
    case PuCountRole: return o.cpuset.count();
    }
    return {};
}

QVariant TopologyTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ObjectColumn: return tr("Object");
    case AttributesColumn: return tr("Size");
    case CpusetColumn: return tr("PUs (logical)");
    }
    return {};
}

} // namespace schedscope::gui
