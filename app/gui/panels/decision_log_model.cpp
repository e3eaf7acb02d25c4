#include "panels/decision_log_model.h"

#include "panels/chart_data.h"
#include "panels/decision_filter.h"

namespace schedscope::gui {

DecisionLogModel::DecisionLogModel(QObject *parent) : QAbstractTableModel(parent) {}

void DecisionLogModel::setDecisions(std::vector<Decision> decisions)
{
    beginResetModel();
    decisions_ = std::move(decisions);
    endResetModel();
}

void DecisionLogModel::appendDecisions(std::span<const Decision> more)
{
    if (more.empty())
        return;
    const int first = static_cast<int>(decisions_.size());
    beginInsertRows({}, first, first + static_cast<int>(more.size()) - 1);
    decisions_.insert(decisions_.end(), more.begin(), more.end());
    endInsertRows();
}

void DecisionLogModel::clear() { setDecisions({}); }

int DecisionLogModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(decisions_.size());
}

int DecisionLogModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

namespace {
QString reason_text(const Decision &d)
{
    return QString::fromUtf8(d.reason.data(), static_cast<qsizetype>(d.reason.size()));
}
} // namespace

QVariant DecisionLogModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Decision &d = decision(index.row());
    const bool cpus = endpoints_are_cpus(d);
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TimeColumn: return QString::fromStdString(format_time_s(static_cast<double>(d.time_ns) / 1e9));
        case KindColumn: return QString::fromStdString(kind_words(d.kind));
        case TaskColumn: return d.task >= 0 ? QVariant(d.task) : QVariant(QString());
        case FromColumn:
        case ToColumn: {
            const int v = index.column() == FromColumn ? d.from : d.to;
            if (v < 0)
                return QString();
            return (cpus ? tr("CPU %1") : tr("node %1")).arg(v);
        }
        case TextColumn: return reason_text(d);
        }
        return {};
    case Qt::ToolTipRole: return QString::fromStdString(describe(d));
    case TimeRole: return static_cast<qint64>(d.time_ns);
    case KindRole: return static_cast<int>(d.kind);
    case TaskRole: return d.task;
    case FromRole: return d.from;
    case ToRole: return d.to;
    case EndpointsAreCpusRole: return cpus;
    case ReasonRole: return reason_text(d);
    default: return {};
    }
}

QVariant DecisionLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn: return tr("Time");
    case KindColumn: return tr("What");
    case TaskColumn: return tr("Task");
    case FromColumn: return tr("From");
    case ToColumn: return tr("To");
    case TextColumn: return tr("Why");
    }
    return {};
}

} // namespace schedscope::gui
