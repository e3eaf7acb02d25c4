#include "trace_export_job.h"

#include "scenario/pane_label.h"
#include "scenario/run.h"

#include <QLocale>
#include <QProgressDialog>
#include <QThread>
#include <QTimer>

#include <atomic>
#include <exception>
#include <memory>

namespace schedscope::gui {

namespace {

// How often the progress dialog reads the export thread's fraction.
constexpr int kProgressPollMs = 100;
// Steps of the progress bar (per mille reads smoothly on any run length).
constexpr int kProgressSteps = 1000;

std::vector<Simulation> time_zero_simulations(const RunSetup &setup)
{
    std::vector<Simulation> sims;
    sims.reserve(setup.policies.size());
    for (const PolicySpec &p : setup.policies)
        sims.push_back(build_simulation(setup.scenario, p, setup.scenario.seed, setup.topology));
    return sims;
}

std::vector<const Simulation *> pointers(const std::vector<Simulation> &sims)
{
    std::vector<const Simulation *> out;
    for (const Simulation &s : sims)
        out.push_back(&s);
    return out;
}

// What the export thread and the GUI thread share: the fraction done, the
// cancel flag and, at the end, the result or the error.
struct ExportState {
    std::atomic<double> fraction{0};
    std::atomic<bool> cancel{false};
    TraceExportResult result;
    QString error;
};

} // namespace

std::vector<std::string> trace_run_names(const RunSetup &setup) { return pane_labels(setup.policies); }

TraceSizeEstimate estimate_trace_job(const TraceExportJob &job, const std::atomic<bool> *stop)
{
    const std::vector<Simulation> sims = time_zero_simulations(*job.setup);
    TraceOptions options = job.options;
    options.progress = {};
    if (stop != nullptr)
        options.progress = [stop](double) { return !stop->load(); };
    return estimate_trace_size(pointers(sims), trace_run_names(*job.setup), options);
}

TraceExportResult run_trace_job(const TraceExportJob &job)
{
    const std::vector<Simulation> sims = time_zero_simulations(*job.setup);
    return export_trace(pointers(sims), trace_run_names(*job.setup), job.path, job.options);
}

QString describe_trace_size(const TraceSizeEstimate &estimate, TraceFormat format)
{
    const QString size = QLocale().formattedDataSize(static_cast<qint64>(estimate.bytes), 1, QLocale::DataSizeSIFormat);
    // sampled_s sums over the panes, so it is not shown: "from 0.4 s" of a
    // 300 ms window reads as a mistake.
    QString text = estimate.exact
                       ? size
                       : QObject::tr("about %1 (every event counted in a pre-run of each pane; the bytes per event "
                                     "measured on the first ones)")
                             .arg(size);
    const std::string warning = trace_size_warning(estimate, format);
    if (!warning.empty())
        text += QStringLiteral("\n") + QObject::tr("Warning: %1").arg(QString::fromStdString(warning));
    return text;
}

void start_trace_export(QWidget *parent, TraceExportJob job, std::function<void(const QString &)> status,
                        ErrorSink errors)
{
    auto state = std::make_shared<ExportState>();
    job.options.progress = [state](double f) {
        state->fraction.store(f);
        return !state->cancel.load();
    };
    QThread *thread = QThread::create([state, job] {
        try {
            state->result = run_trace_job(job);
        } catch (const std::exception &e) {
            state->error = QString::fromStdString(e.what());
        }
    });
    thread->setObjectName(QStringLiteral("schedscope-trace"));

    auto *progress = new QProgressDialog(QObject::tr("Writing the trace..."), QObject::tr("Cancel"), 0, kProgressSteps,
                                         parent);
    progress->setWindowTitle(QObject::tr("Export trace"));
    progress->setWindowModality(Qt::WindowModal);
    progress->setMinimumDuration(0);
    progress->setAutoClose(false);
    progress->setAutoReset(false);
    auto *poll = new QTimer(progress);
    QObject::connect(poll, &QTimer::timeout, progress, [state, progress] {
        progress->setValue(static_cast<int>(state->fraction.load() * kProgressSteps));
    });
    QObject::connect(progress, &QProgressDialog::canceled, progress, [state, progress] {
        state->cancel.store(true);
        progress->setLabelText(QObject::tr("Cancelling..."));
    });
    QObject::connect(thread, &QThread::finished, progress, [=] {
        progress->deleteLater();
        thread->deleteLater();
        if (!state->error.isEmpty()) {
            errors(QObject::tr("Export trace"), state->error);
            status(QObject::tr("Trace export failed"));
        } else if (state->result.cancelled) {
            status(QObject::tr("Trace export cancelled; nothing written"));
        } else {
            status(
                QObject::tr("Trace written to %1 (%2)")
                    .arg(QString::fromStdString(state->result.files.empty() ? job.path : state->result.files.front()))
                    .arg(QLocale().formattedDataSize(static_cast<qint64>(state->result.bytes), 1,
                                                     QLocale::DataSizeSIFormat)));
        }
    });
    poll->start(kProgressPollMs);
    progress->show();
    thread->start();
}

} // namespace schedscope::gui
