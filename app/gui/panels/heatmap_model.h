#pragma once
// A square PU x PU matrix (migration costs in ms, or migration counts) as a
// table whose cells are tinted by value, so blocks of cheap and expensive
// pairs stand out as in the 2004 boot-log matrices. Rows are sources,
// columns targets, both in the topology's logical PU order and labelled by
// OS CPU number. Unknown values (NaN) are grey and print as "-".

#include <QAbstractTableModel>
#include <QColor>
#include <QStringList>

#include <vector>

namespace schedscope::gui {

class HeatmapModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role {
        ValueRole = Qt::UserRole + 1, // double, NaN when unknown
        FractionRole,                 // double 0..1 on the model's scale, -1 when unknown
    };

    explicit HeatmapModel(QObject *parent = nullptr);

    // `values` is row-major, size labels.size()^2. `decimals` formats the
    // cells (0 for counts); `unit` goes into tooltips.
    void setMatrix(std::vector<double> values, QStringList labels, int decimals, QString unit);
    void clear();
    // Big matrices only show colour: numbers would not fit in their cells.
    void setShowValues(bool show);
    bool showValues() const { return show_values_; }
    int size() const { return static_cast<int>(labels_.size()); }
    double value(int row, int column) const;

    // The tint of a fraction of the scale: white through amber to dark red.
    static QColor ramp(double fraction);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<double> values_;
    QStringList labels_;
    int decimals_ = 1;
    QString unit_;
    double min_ = 0, max_ = 0;
    bool show_values_ = true;
};

} // namespace schedscope::gui
