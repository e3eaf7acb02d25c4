#include "panels/explain_panel.h"

#include "panels/decision_filter_model.h"
#include "panels/decision_log_model.h"
#include "panels/task_snapshot_html.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIntValidator>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace schedscope::gui {

namespace {
constexpr DecisionKind kAllKinds[] = {DecisionKind::Place,      DecisionKind::Pull,        DecisionKind::SkipHot,
                                      DecisionKind::Wakeup,     DecisionKind::PageMigrate, DecisionKind::Exchange,
                                      DecisionKind::PreferNode, DecisionKind::Other};
QString detail_hint()
{
    return QObject::tr("<p>Click an entry with a task to see its path over CPUs, its warmth per cache "
                       "and where its memory is.</p>");
}
} // namespace

ExplainPanel::ExplainPanel(QWidget *parent) : QWidget(parent)
{
    log_ = new DecisionLogModel(this);
    filter_ = new DecisionFilterModel(this);
    filter_->setSourceModel(log_);
    buildUi();
}

void ExplainPanel::buildUi()
{
    pane_box_ = new QComboBox(this);
    connect(pane_box_, &QComboBox::currentIndexChanged, this, [this](int pane) {
        if (pane >= 0)
            setCurrentPane(pane);
    });
    task_edit_ = new QLineEdit(this);
    task_edit_->setPlaceholderText(tr("any task"));
    task_edit_->setValidator(new QIntValidator(0, 1 << 30, task_edit_));
    task_edit_->setMaximumWidth(90);
    cpu_edit_ = new QLineEdit(this);
    cpu_edit_->setPlaceholderText(tr("any CPU"));
    cpu_edit_->setValidator(new QIntValidator(0, 1 << 20, cpu_edit_));
    cpu_edit_->setMaximumWidth(90);
    connect(task_edit_, &QLineEdit::textChanged, this, &ExplainPanel::applyFilterBar);
    connect(cpu_edit_, &QLineEdit::textChanged, this, &ExplainPanel::applyFilterBar);

    // The pane picker on a row of its own, as wide as its longest label:
    // squeezed beside eight check boxes it cut "sched-domains
    // cache_hot_time=2.5ms" mid-word.
    pane_box_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto *pane_row = new QHBoxLayout;
    pane_row->addWidget(new QLabel(tr("Pane:"), this));
    pane_row->addWidget(pane_box_);
    pane_row->addWidget(new QLabel(tr("Task:"), this));
    pane_row->addWidget(task_edit_);
    pane_row->addWidget(new QLabel(tr("CPU:"), this));
    pane_row->addWidget(cpu_edit_);
    pane_row->addStretch(1);
    auto *bar = new QHBoxLayout;
    for (DecisionKind k : kAllKinds) {
        auto *box = new QCheckBox(QString::fromStdString(kind_words(k)), this);
        box->setChecked(true);
        box->setProperty("kind", static_cast<int>(k));
        connect(box, &QCheckBox::toggled, this, &ExplainPanel::applyFilterBar);
        kind_boxes_.push_back(box);
        bar->addWidget(box);
    }
    bar->addStretch(1);
    count_ = new QLabel(this);

    table_ = new QTableView(this);
    table_->setModel(filter_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    // Fixed row height: a 200 000-row log must not measure every row.
    table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table_->horizontalHeader()->setStretchLastSection(true);
    // Narrow fixed columns leave the reason, the part worth reading, the rest.
    const int digit = fontMetrics().horizontalAdvance(QLatin1Char('0'));
    table_->setColumnWidth(DecisionLogModel::TimeColumn, 10 * digit);
    table_->setColumnWidth(DecisionLogModel::KindColumn,
                           fontMetrics().horizontalAdvance(QStringLiteral("left (cache hot)")) + 12);
    table_->setColumnWidth(DecisionLogModel::TaskColumn, 5 * digit);
    table_->setColumnWidth(DecisionLogModel::FromColumn, 8 * digit);
    table_->setColumnWidth(DecisionLogModel::ToColumn, 8 * digit);
    table_->setWordWrap(false);
    connect(table_, &QTableView::clicked, this, &ExplainPanel::onRowActivated);
    connect(table_, &QTableView::activated, this, &ExplainPanel::onRowActivated);

    detail_ = new QTextBrowser(this);
    detail_->setHtml(detail_hint());

    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(table_);
    split->addWidget(detail_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(pane_row);
    layout->addLayout(bar);
    layout->addWidget(count_);
    layout->addWidget(split, 1);
    connect(filter_, &QAbstractItemModel::rowsInserted, this, &ExplainPanel::applyFilterBar);
    // The proxy says nothing about rows it has not mapped yet (a hidden dock
    // never asked): count from the log itself whenever it changes.
    connect(log_, &QAbstractItemModel::rowsInserted, this, &ExplainPanel::updateCount);
    connect(log_, &QAbstractItemModel::modelReset, this, &ExplainPanel::updateCount);
    updateCount();
}

void ExplainPanel::updateCount()
{
    count_->setText(tr("%1 of %2 decisions shown").arg(filter_->rowCount()).arg(log_->rowCount()));
}

QString ExplainPanel::countText() const { return count_->text(); }

void ExplainPanel::forgetTask()
{
    entry_html_.clear();
    detail_entry_html_.clear();
    detail_pane_ = -1;
    detail_task_ = -1;
    detail_->setHtml(detail_hint());
    if (!task_edit_->text().isEmpty())
        task_edit_->clear(); // re-filters through textChanged
}

void ExplainPanel::setPaneNames(const QStringList &names)
{
    panes_.resize(static_cast<std::size_t>(names.size()));
    const QSignalBlocker block(pane_box_);
    pane_box_->clear();
    pane_box_->addItems(names);
    if (current_ >= names.size())
        current_ = 0;
    pane_box_->setCurrentIndex(names.isEmpty() ? -1 : current_);
    showCurrentLog();
}

QStringList ExplainPanel::paneNames() const
{
    QStringList out;
    for (int i = 0; i < pane_box_->count(); ++i)
        out << pane_box_->itemText(i);
    return out;
}

void ExplainPanel::setRecording(int pane, const Recording &recording)
{
    if (pane < 0)
        return;
    if (pane >= static_cast<int>(panes_.size()))
        panes_.resize(static_cast<std::size_t>(pane) + 1);
    panes_[pane].decisions.assign(recording.decisions.begin(), recording.decisions.end());
    panes_[pane].migrations.assign(recording.migrations.begin(), recording.migrations.end());
    if (pane == current_)
        showCurrentLog();
}

void ExplainPanel::appendFrom(int pane, const Recording &recording)
{
    if (pane < 0 || pane >= static_cast<int>(panes_.size()) ||
        recording.decisions.size() < panes_[pane].decisions.size() ||
        recording.migrations.size() < panes_[pane].migrations.size()) {
        setRecording(pane, recording);
        return;
    }
    PaneLog &log = panes_[pane];
    const std::span<const Decision> fresh(
        recording.decisions.begin() + static_cast<std::ptrdiff_t>(log.decisions.size()), recording.decisions.end());
    log.decisions.insert(log.decisions.end(), fresh.begin(), fresh.end());
    log.migrations.insert(log.migrations.end(),
                          recording.migrations.begin() + static_cast<std::ptrdiff_t>(log.migrations.size()),
                          recording.migrations.end());
    if (pane == current_)
        log_->appendDecisions(fresh);
}

void ExplainPanel::setCurrentPane(int pane)
{
    if (pane < 0 || pane == current_)
        return;
    current_ = pane;
    {
        const QSignalBlocker block(pane_box_);
        pane_box_->setCurrentIndex(pane);
    }
    showCurrentLog();
    emit currentPaneChanged(pane);
}

void ExplainPanel::showCurrentLog()
{
    if (current_ >= 0 && current_ < static_cast<int>(panes_.size()))
        log_->setDecisions(panes_[current_].decisions);
    else
        log_->clear();
    applyFilterBar();
}

void ExplainPanel::applyFilterBar()
{
    if (updating_bar_)
        return;
    DecisionFilter f;
    bool ok = false;
    const int task = task_edit_->text().toInt(&ok);
    if (ok)
        f.task = task;
    const int cpu = cpu_edit_->text().toInt(&ok);
    if (ok)
        f.cpu = cpu;
    for (QCheckBox *box : kind_boxes_)
        f.set_kind(static_cast<DecisionKind>(box->property("kind").toInt()), box->isChecked());
    if (f.task != filter_->filter().task || f.cpu != filter_->filter().cpu || f.kinds != filter_->filter().kinds)
        filter_->setFilter(f);
    updateCount();
}

void ExplainPanel::setFilter(const DecisionFilter &filter)
{
    updating_bar_ = true;
    task_edit_->setText(filter.task ? QString::number(*filter.task) : QString());
    cpu_edit_->setText(filter.cpu ? QString::number(*filter.cpu) : QString());
    for (QCheckBox *box : kind_boxes_)
        box->setChecked(filter.shows_kind(static_cast<DecisionKind>(box->property("kind").toInt())));
    updating_bar_ = false;
    applyFilterBar();
}

DecisionFilter ExplainPanel::filter() const { return filter_->filter(); }

void ExplainPanel::onRowActivated(const QModelIndex &proxy_index)
{
    const QModelIndex source = filter_->mapToSource(proxy_index);
    if (!source.isValid())
        return;
    const Decision &d = log_->decision(source.row());
    // The table cuts long reasons; the detail pane starts with the whole entry.
    entry_html_ = QStringLiteral("<p style=\"background:#f4f4f4\">%1</p>")
                      .arg(QString::fromStdString(describe(d)).toHtmlEscaped());
    if (d.task >= 0)
        selectTask(current_, d.task);
    else
        detail_->setHtml(entry_html_);
}

void ExplainPanel::selectTask(int pane, TaskId task)
{
    std::optional<TaskSnapshot> snapshot;
    if (provider_)
        snapshot = provider_(pane, task);
    showTaskSnapshot(snapshot ? *snapshot : snapshotFromLog(pane, task));
    emit taskSelected(pane, task);
}

TaskSnapshot ExplainPanel::snapshotFromLog(int pane, TaskId task) const
{
    // Only what the copied log knows: no warmth or memory without the
    // simulation, so the HTML leaves those sections out (state is empty).
    TaskSnapshot s;
    s.pane = pane;
    s.task = task;
    if (pane < 0 || pane >= static_cast<int>(panes_.size()))
        return s;
    for (const MigrationRecord &m : panes_[pane].migrations)
        if (m.task == task)
            s.path.push_back({m.time_ns, m.from_cpu, m.to_cpu, m.cls, m.since_last_ran_ns});
    for (const Decision &d : panes_[pane].decisions)
        if (d.task == task && d.kind == DecisionKind::Place && d.to >= 0) {
            s.first_cpu = d.to;
            break;
        }
    if (s.first_cpu < 0 && !s.path.empty())
        s.first_cpu = s.path.front().from_cpu;
    return s;
}

void ExplainPanel::showTaskSnapshot(const TaskSnapshot &snapshot)
{
    if (!entry_html_.isEmpty() || snapshot.pane != detail_pane_ || snapshot.task != detail_task_) {
        detail_entry_html_ = entry_html_;
        detail_pane_ = snapshot.pane;
        detail_task_ = snapshot.task;
    }
    detail_->setHtml(detail_entry_html_ + task_snapshot_html(snapshot));
    entry_html_.clear();
}

QString ExplainPanel::detailText() const { return detail_->toPlainText(); }

} // namespace schedscope::gui
