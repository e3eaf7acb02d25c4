#include "trace_export_dialog.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QThread>
#include <QTimer>

#include <exception>

namespace schedscope::gui {

namespace {
// Typing in the window fields should not start an estimate per key.
constexpr int kEstimateDebounceMs = 400;
} // namespace

TraceExportDialog::TraceExportDialog(RunSetupPtr setup, QWidget *parent) : QDialog(parent), setup_(std::move(setup))
{
    setWindowTitle(tr("Export trace"));
    format_ = new QComboBox(this);
    format_->addItem(tr("Chrome trace JSON (Perfetto, chrome://tracing)"), static_cast<int>(TraceFormat::Chrome));
    format_->addItem(tr("ftrace text (sched_switch / sched_wakeup)"), static_cast<int>(TraceFormat::Ftrace));
    start_ = new QLineEdit(this);
    start_->setPlaceholderText(tr("0 (e.g. 1.5s, 200ms)"));
    end_ = new QLineEdit(this);
    end_->setPlaceholderText(tr("end of the run"));
    cpu_tracks_ = new QCheckBox(tr("One track per CPU as well (Chrome only)"), this);
    path_ = new QLineEdit(this);
    path_->setText(QStringLiteral("trace.json"));
    auto *browse = new QPushButton(tr("Browse..."), this);
    auto *path_row = new QHBoxLayout;
    path_row->addWidget(path_, 1);
    path_row->addWidget(browse);
    estimate_ = new QLabel(this);
    estimate_->setWordWrap(true);
    estimate_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    QStringList panes;
    if (setup_)
        for (const std::string &n : trace_run_names(*setup_))
            panes << QString::fromStdString(n);
    auto *form = new QFormLayout(this);
    form->addRow(tr("Panes:"), new QLabel(panes.join(QStringLiteral(", ")), this));
    form->addRow(tr("Format:"), format_);
    form->addRow(tr("From:"), start_);
    form->addRow(tr("To:"), end_);
    form->addRow(QString(), cpu_tracks_);
    form->addRow(tr("File:"), path_row);
    form->addRow(tr("Size:"), estimate_);
    buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons_->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    form->addRow(buttons_);
    connect(buttons_, &QDialogButtonBox::accepted, this, [this] {
        if (job())
            accept();
    });
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(browse, &QPushButton::clicked, this, &TraceExportDialog::browse);

    debounce_ = new QTimer(this);
    debounce_->setSingleShot(true);
    debounce_->setInterval(kEstimateDebounceMs);
    connect(debounce_, &QTimer::timeout, this, &TraceExportDialog::startEstimate);
    connect(format_, &QComboBox::currentIndexChanged, this, [this] {
        const bool chrome = format_->currentData().toInt() == static_cast<int>(TraceFormat::Chrome);
        cpu_tracks_->setEnabled(chrome);
        const QFileInfo fi(path_->text());
        path_->setText(fi.path() + QLatin1Char('/') + fi.completeBaseName() +
                       (chrome ? QStringLiteral(".json") : QStringLiteral(".txt")));
        scheduleEstimate();
    });
    connect(start_, &QLineEdit::textChanged, this, &TraceExportDialog::scheduleEstimate);
    connect(end_, &QLineEdit::textChanged, this, &TraceExportDialog::scheduleEstimate);
    connect(cpu_tracks_, &QCheckBox::toggled, this, &TraceExportDialog::scheduleEstimate);
    resize(560, sizeHint().height());
    startEstimate();
}

TraceExportDialog::~TraceExportDialog()
{
    if (stop_)
        stop_->store(true);
    for (const QPointer<QThread> &thread : threads_)
        if (thread)
            thread->wait();
}

void TraceExportDialog::setPath(const QString &path) { path_->setText(path); }

void TraceExportDialog::setFormat(TraceFormat format)
{
    format_->setCurrentIndex(format_->findData(static_cast<int>(format)));
}

void TraceExportDialog::setWindowText(const QString &start, const QString &end)
{
    start_->setText(start);
    end_->setText(end);
}

QString TraceExportDialog::estimateText() const { return estimate_->text(); }

std::optional<TraceOptions> TraceExportDialog::options(QString *error) const
{
    TraceOptions o;
    o.format = static_cast<TraceFormat>(format_->currentData().toInt());
    o.cpu_tracks = o.format == TraceFormat::Chrome && cpu_tracks_->isChecked();
    try {
        o.window = parse_trace_window(
            (start_->text().trimmed() + QLatin1Char(':') + end_->text().trimmed()).toStdString(), "time window");
    } catch (const std::exception &e) {
        *error = QString::fromStdString(e.what());
        return std::nullopt;
    }
    return o;
}

std::optional<TraceExportJob> TraceExportDialog::job() const
{
    QString error;
    auto o = options(&error);
    if (!o || !setup_) {
        estimate_->setText(error.isEmpty() ? tr("No comparison to export") : error);
        return std::nullopt;
    }
    if (path_->text().trimmed().isEmpty()) {
        estimate_->setText(tr("Choose a file"));
        return std::nullopt;
    }
    return TraceExportJob{setup_, path_->text().trimmed().toStdString(), *o};
}

void TraceExportDialog::scheduleEstimate() { debounce_->start(); }

void TraceExportDialog::startEstimate()
{
    const std::optional<TraceExportJob> j = job();
    if (!j)
        return;
    const int request = ++*latest_;
    estimate_->setText(tr("estimating..."));
    const QPointer<TraceExportDialog> self(this);
    auto latest = latest_;
    // A newer estimate makes the one still running pointless.
    if (stop_)
        stop_->store(true);
    stop_ = std::make_shared<std::atomic<bool>>(false);
    QThread *thread = QThread::create([self, latest, request, job = *j, stop = stop_] {
        QString text;
        try {
            const TraceSizeEstimate estimate = estimate_trace_job(job, stop.get());
            if (estimate.cancelled)
                return;
            text = describe_trace_size(estimate, job.options.format);
        } catch (const std::exception &e) {
            text = QString::fromStdString(e.what());
        }
        // Back on the GUI thread; dropped if the dialog is gone.
        QMetaObject::invokeMethod(
            qApp,
            [self, latest, request, text] {
                if (!self || *latest != request)
                    return;
                self->estimate_->setText(text);
                emit self->estimateShown(text);
            },
            Qt::QueuedConnection);
    });
    thread->setObjectName(QStringLiteral("ss-estimate")); // the OS thread's name too (15 characters at most)
    connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    threads_.removeAll(QPointer<QThread>());
    threads_.append(thread);
    thread->start();
}

void TraceExportDialog::browse()
{
    const bool chrome = format_->currentData().toInt() == static_cast<int>(TraceFormat::Chrome);
    const QString path = QFileDialog::getSaveFileName(this, tr("Export trace"), path_->text(),
                                                      chrome ? tr("Chrome trace (*.json)") : tr("ftrace text (*.txt)"));
    if (!path.isEmpty())
        path_->setText(path);
}

} // namespace schedscope::gui
