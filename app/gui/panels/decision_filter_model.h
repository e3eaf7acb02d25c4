#pragma once
// The explain view's filter over a DecisionLogModel: rows pass when the
// plain DecisionFilter accepts their decision, so the filter's meaning is
// tested once, without a view.

#include "panels/decision_filter.h"

#include <QSortFilterProxyModel>

namespace schedscope::gui {

class DecisionFilterModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit DecisionFilterModel(QObject *parent = nullptr);
    void setFilter(const DecisionFilter &filter);
    const DecisionFilter &filter() const { return filter_; }

protected:
    bool filterAcceptsRow(int source_row, const QModelIndex &source_parent) const override;

private:
    DecisionFilter filter_;
};

} // namespace schedscope::gui
