#pragma once
// Ours beside theirs for one published experiment: the table
// `schedscope-cli reproduce` prints (row | published | ours (min-max over
// seeds) | ratio | within, whether the published direction holds, how many
// rows fall within ±30 % or the published range), with the experiment's
// fitted/predicted mark, computed with the same core call (run_published)
// on a worker thread, with progress and Cancel; the window stays responsive.
//
// Each numeric cell keeps its exact figure under Qt::UserRole, so a test can
// compare the table with the CLI's JSON number for number.

#include "scenario/published.h"

#include <QDialog>

#include <optional>

class QCheckBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace schedscope::gui {

class PublishedRunner;

class PublishedTableDialog : public QDialog {
    Q_OBJECT
public:
    enum Column {
        RowColumn,
        PublishedColumn,
        OursColumn,
        RangeColumn,
        RatioColumn,
        WithinColumn,
        NoteColumn,
        ColumnCount
    };

    explicit PublishedTableDialog(QWidget *parent = nullptr);

    // Shows the experiment's published figures (ours empty) and cancels a
    // run of the previous one.
    void setExperiment(const PublishedExperiment &e);
    const std::optional<PublishedExperiment> &experiment() const { return experiment_; }
    // Runs it (quick: the CLI's --quick); false when nothing to run or running.
    bool run(bool quick);
    void cancel();
    bool isRunning() const;

    QTableWidget *table() const { return table_; }
    // The calibration mark ("calibration: fitted (...)" or "predicted"), as
    // the CLI prints it; empty with no experiment.
    QString calibrationText() const;
    // "direction: holds (n of m claims)" and the within count, as the CLI
    // prints them.
    QString summaryText() const;
    const std::optional<PublishedResult> &result() const { return result_; }

signals:
    void resultReady(const schedscope::PublishedResult &result);

private:
    void showResult(const PublishedResult &r);
    void setRunning(bool running);
    void fillPublished();

    std::optional<PublishedExperiment> experiment_;
    std::optional<PublishedResult> result_;
    PublishedRunner *runner_ = nullptr;
    QLabel *heading_ = nullptr;
    QLabel *calibration_ = nullptr;
    QTableWidget *table_ = nullptr;
    QLabel *summary_ = nullptr;
    QCheckBox *quick_ = nullptr;
    QPushButton *run_ = nullptr;
    QPushButton *cancel_ = nullptr;
    QProgressBar *progress_ = nullptr;
};

} // namespace schedscope::gui
