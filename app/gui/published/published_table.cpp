#include "published/published_table.h"

#include "published/published_runner.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QStringList>
#include <QTableWidget>
#include <QVBoxLayout>

namespace schedscope::gui {

namespace {

QTableWidgetItem *text_item(const QString &text)
{
    auto *item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return item;
}

// A figure as the CLI prints it, its exact value kept for tests and copies.
QTableWidgetItem *number_item(double v)
{
    QTableWidgetItem *item = text_item(QString::fromStdString(format_published_value(v)));
    item->setData(Qt::UserRole, v);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

} // namespace

PublishedTableDialog::PublishedTableDialog(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Published experiment: ours beside theirs"));
    runner_ = new PublishedRunner(this);
    heading_ = new QLabel(this);
    heading_->setWordWrap(true);
    heading_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    calibration_ = new QLabel(this);
    calibration_->setObjectName(QStringLiteral("calibrationMark"));
    calibration_->setWordWrap(true);
    calibration_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    table_ = new QTableWidget(0, ColumnCount, this);
    table_->setHorizontalHeaderLabels(
        {tr("row"), tr("published"), tr("ours"), tr("(min\u2013max over seeds)"), tr("ratio"), tr("within"), tr("")});
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    quick_ = new QCheckBox(tr("&Quick (fewer seeds, shorter runs: not comparable)"), this);
    run_ = new QPushButton(tr("&Run"), this);
    cancel_ = new QPushButton(tr("&Cancel"), this);
    progress_ = new QProgressBar(this);
    progress_->setTextVisible(true);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(quick_);
    buttons->addStretch();
    buttons->addWidget(progress_, 1);
    buttons->addWidget(run_);
    buttons->addWidget(cancel_);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(heading_);
    layout->addWidget(calibration_);
    layout->addWidget(table_, 1);
    layout->addWidget(summary_);
    layout->addLayout(buttons);
    resize(760, 420);

    connect(run_, &QPushButton::clicked, this, [this] { run(quick_->isChecked()); });
    connect(cancel_, &QPushButton::clicked, this, &PublishedTableDialog::cancel);
    connect(runner_, &PublishedRunner::progressed, this, [this](int done, int total) {
        progress_->setRange(0, total);
        progress_->setValue(done);
        progress_->setFormat(tr("%1 of %2 runs").arg(done).arg(total));
    });
    connect(runner_, &PublishedRunner::finished, this, [this](const std::vector<PublishedResult> &results) {
        setRunning(false);
        if (!results.empty())
            showResult(results.front());
    });
    connect(runner_, &PublishedRunner::cancelled, this, [this] {
        setRunning(false);
        summary_->setText(tr("Cancelled: no figures of ours."));
    });
    connect(runner_, &PublishedRunner::failed, this, [this](const QString &message) {
        setRunning(false);
        summary_->setText(tr("The runs failed: %1").arg(message));
    });
    setRunning(false);
}

void PublishedTableDialog::setExperiment(const PublishedExperiment &e)
{
    runner_->cancel();
    experiment_ = e;
    result_.reset();
    const PublishedSource &s = e.source;
    heading_->setText(
        QStringLiteral("<b>%1</b><br>%2 (%3, %4)<br>%5<br><i>%6</i>")
            .arg(QString::fromStdString(e.title).toHtmlEscaped(), QString::fromStdString(s.thread).toHtmlEscaped(),
                 QString::fromStdString(s.author).toHtmlEscaped(), QString::fromStdString(s.date).toHtmlEscaped(),
                 QString::fromStdString(s.machine).toHtmlEscaped(),
                 QString::fromStdString(e.direction_text).toHtmlEscaped()));
    calibration_->setText(calibrationText());
    fillPublished();
    summary_->setText(tr("Run to compute ours (metric: %1).").arg(QString::fromStdString(e.metric)));
    progress_->reset();
    setRunning(runner_->isRunning());
}

void PublishedTableDialog::fillPublished()
{
    table_->setRowCount(0);
    if (!experiment_)
        return;
    const auto &rows = experiment_->rows;
    table_->setRowCount(static_cast<int>(rows.size()));
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const int r = static_cast<int>(i);
        const PublishedRow &row = rows[i];
        table_->setItem(r, RowColumn, text_item(QString::fromStdString(row.label)));
        table_->setItem(r, PublishedColumn, number_item(row.published));
        QString note;
        if (row.relative_to == row.label)
            note = tr("= reference");
        else if (!row.relative_to.empty())
            note = tr("rel. to '%1'").arg(QString::fromStdString(row.relative_to));
        if (row.published_error)
            note += QStringLiteral("  [published \u00b1 %1]")
                        .arg(QString::fromStdString(format_published_value(*row.published_error)));
        else if (row.published_min)
            note += QStringLiteral("  [published %1\u2013%2]")
                        .arg(QString::fromStdString(format_published_value(*row.published_min)),
                             QString::fromStdString(format_published_value(*row.published_max)));
        if (row.within == PublishedWithin::Range && row.relative_to != row.label)
            note += tr(" (within: the range only)");
        if (experiment_->metric == "mixed")
            note += QStringLiteral("  [%1]").arg(QString::fromStdString(row.metric));
        table_->setItem(r, NoteColumn, text_item(note.trimmed()));
    }
    table_->resizeColumnsToContents();
}

bool PublishedTableDialog::run(bool quick)
{
    if (!experiment_ || runner_->isRunning())
        return false;
    quick_->setChecked(quick);
    fillPublished();
    result_.reset();
    summary_->setText(tr("Running..."));
    progress_->setRange(0, 0);
    if (!runner_->start({*experiment_}, quick))
        return false;
    setRunning(true);
    return true;
}

void PublishedTableDialog::cancel() { runner_->cancel(); }

bool PublishedTableDialog::isRunning() const { return runner_->isRunning(); }

void PublishedTableDialog::setRunning(bool running)
{
    run_->setEnabled(!running && experiment_.has_value());
    cancel_->setEnabled(running);
    quick_->setEnabled(!running);
}

void PublishedTableDialog::showResult(const PublishedResult &r)
{
    if (!experiment_ || r.name != experiment_->name)
        return; // a run of an experiment no longer shown
    result_ = r;
    for (std::size_t i = 0; i < r.rows.size() && static_cast<int>(i) < table_->rowCount(); ++i) {
        const int t = static_cast<int>(i);
        const PublishedRowResult &row = r.rows[i];
        table_->setItem(t, OursColumn, number_item(row.ours));
        auto *range = text_item(QStringLiteral("(%1\u2013%2)")
                                    .arg(QString::fromStdString(format_published_value(row.ours_min)),
                                         QString::fromStdString(format_published_value(row.ours_max))));
        range->setData(Qt::UserRole, QVariantList{row.ours_min, row.ours_max});
        table_->setItem(t, RangeColumn, range);
        if (row.ratio)
            table_->setItem(t, RatioColumn, number_item(*row.ratio));
        else
            table_->setItem(t, RatioColumn, text_item(QStringLiteral("-")));
        auto *within = text_item(row.reference   ? QString()
                                 : !row.compared ? QStringLiteral("-")
                                 : row.within    ? tr("yes")
                                                 : tr("no"));
        within->setData(Qt::UserRole, row.within);
        table_->setItem(t, WithinColumn, within);
    }
    table_->resizeColumnsToContents();
    summary_->setText(summaryText());
    emit resultReady(r);
}

QString PublishedTableDialog::calibrationText() const
{
    if (!experiment_)
        return {};
    const PublishedCalibration &c = experiment_->calibration;
    QString text = tr("calibration: %1").arg(QString::fromStdString(calibration_status_name(c.status)));
    if (!c.fitted_by.empty()) {
        QStringList by;
        for (const std::string &f : c.fitted_by)
            by << QString::fromStdString(f);
        text += QStringLiteral(" (%1)").arg(by.join(QStringLiteral("; ")));
    }
    return text;
}

QString PublishedTableDialog::summaryText() const
{
    if (!result_)
        return {};
    const PublishedResult &r = *result_;
    QString text = r.has_direction ? tr("direction: %1 (%2 of %3 claims)")
                                         .arg(r.direction_ok ? tr("holds") : tr("DOES NOT HOLD"))
                                         .arg(r.claims_held)
                                         .arg(r.claims)
                                   : tr("direction: none (no published direction; judged on its rows)");
    for (const std::string &c : r.failed_claims)
        text += QStringLiteral("\n    not: %1").arg(QString::fromStdString(c));
    text += QStringLiteral("\n") +
            tr("within \u00b130 % (or the published range): %1 of %2 rows").arg(r.within_30pct).arg(r.compared);
    if (r.quick)
        text += QStringLiteral("\n") + tr("[quick: not comparable]");
    return text;
}

} // namespace schedscope::gui
