#pragma once
// File > Export trace: format (Chrome JSON for Perfetto, ftrace text), the
// time window, the Chrome per-CPU tracks and the file, with the size
// estimate shown before anything is written. The estimate runs on its own
// thread (it pre-runs part of the comparison) and is refreshed when the
// options change. The dialog only collects: the caller runs the export
// (start_trace_export).

#include "trace_export_job.h"

#include <QDialog>
#include <QList>
#include <QPointer>
#include <QThread>

#include <atomic>
#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QTimer;

namespace schedscope::gui {

class TraceExportDialog : public QDialog {
    Q_OBJECT
public:
    TraceExportDialog(RunSetupPtr setup, QWidget *parent = nullptr);
    // Stops the estimates still running and waits for their threads, so
    // that none outlives the dialog (or the application, at quit).
    ~TraceExportDialog() override;

    // The export the options describe; nullopt (with the reason shown) when
    // the window does not parse or no file is chosen.
    std::optional<TraceExportJob> job() const;
    QString estimateText() const;

    void setPath(const QString &path);
    void setFormat(TraceFormat format);
    void setWindowText(const QString &start, const QString &end);

signals:
    void estimateShown(const QString &text); // tests wait for it

private:
    void scheduleEstimate();
    void startEstimate();
    void browse();
    std::optional<TraceOptions> options(QString *error) const;

    RunSetupPtr setup_;
    QComboBox *format_ = nullptr;
    QLineEdit *start_ = nullptr;
    QLineEdit *end_ = nullptr;
    QCheckBox *cpu_tracks_ = nullptr;
    QLineEdit *path_ = nullptr;
    QLabel *estimate_ = nullptr;
    QDialogButtonBox *buttons_ = nullptr;
    QTimer *debounce_ = nullptr;
    // Each estimate carries the request number; only the latest is shown.
    std::shared_ptr<int> latest_ = std::make_shared<int>(0);
    // The running estimate's stop flag (a newer one stops it), and the
    // threads started, each gone once it has finished.
    std::shared_ptr<std::atomic<bool>> stop_;
    QList<QPointer<QThread>> threads_;
};

} // namespace schedscope::gui
