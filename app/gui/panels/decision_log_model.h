#pragma once
// One pane's decision log as a table: time, kind, task, from, to and the
// entry in plain words. Holds its own copy of the decisions, so the
// simulation may keep running (on its own thread) while the view reads;
// appendDecisions() adds what a newer recording has beyond the copy.

#include "engine/recording.h"

#include <QAbstractTableModel>

#include <span>
#include <vector>

namespace schedscope::gui {

class DecisionLogModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { TimeColumn, KindColumn, TaskColumn, FromColumn, ToColumn, TextColumn, ColumnCount };
    enum Role {
        TimeRole = Qt::UserRole + 1, // qint64 ns
        KindRole,                    // int (DecisionKind)
        TaskRole,                    // int, -1 when no task
        FromRole,                    // int, PU or node (EndpointsAreCpusRole says which)
        ToRole,
        EndpointsAreCpusRole, // bool
        ReasonRole,           // QString, the policy's own words
    };

    explicit DecisionLogModel(QObject *parent = nullptr);

    void setDecisions(std::vector<Decision> decisions);
    void appendDecisions(std::span<const Decision> more);
    void clear();
    const std::vector<Decision> &decisions() const { return decisions_; }
    const Decision &decision(int row) const { return decisions_.at(static_cast<std::size_t>(row)); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<Decision> decisions_;
};

} // namespace schedscope::gui
