#pragma once
// The explain view: one pane's decision log in plain words,
// filterable by task, CPU and kind; clicking an entry with a task shows that
// task's path over CPUs, its warmth per cache and where its memory is.
//
// The panel keeps copies of each pane's log, so it never reads a simulation
// that another thread is advancing:
//
//   e->setPaneNames({"simple", "autonuma"});
//   e->setRecording(0, sim0.recording());   // after run_until, on the GUI thread
//   e->appendFrom(0, sim0.recording());     // later: only what is new
//   e->setSnapshotProvider([&](int pane, TaskId t) { return take_task_snapshot(sim(pane), t, pane); });
//   connect(e, &ExplainPanel::taskSelected, ...);   // e.g. highlight the token
//
// Without a provider the detail shows the path from the copied migrations
// only; a caller can also push a snapshot later with showTaskSnapshot().

#include "engine/recording.h"
#include "panels/decision_filter.h"
#include "panels/task_snapshot.h"

#include <QStringList>
#include <QWidget>

#include <functional>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;
class QTextBrowser;

namespace schedscope::gui {

class DecisionLogModel;
class DecisionFilterModel;

class ExplainPanel : public QWidget {
    Q_OBJECT
public:
    using SnapshotProvider = std::function<std::optional<TaskSnapshot>(int pane, TaskId task)>;

    explicit ExplainPanel(QWidget *parent = nullptr);

    void setPaneNames(const QStringList &names);
    QStringList paneNames() const; // what the pane picker lists
    void setRecording(int pane, const Recording &recording);
    // Adds the decisions and migrations beyond the copy; a recording shorter
    // than the copy (the pane was scrubbed back) replaces it.
    void appendFrom(int pane, const Recording &recording);
    void setCurrentPane(int pane);
    int currentPane() const { return current_; }
    void setSnapshotProvider(SnapshotProvider provider) { provider_ = std::move(provider); }

    void setFilter(const DecisionFilter &filter); // also updates the filter bar
    DecisionFilter filter() const;

    DecisionLogModel *logModel() const { return log_; }
    DecisionFilterModel *filterModel() const { return filter_; }
    QString detailText() const; // the task detail as plain text (tests)
    QString countText() const;  // "12 of 40 decisions shown"
    // A different scenario was opened: its task numbers mean other tasks, so
    // the task filter and the detail of the last one clicked go.
    void forgetTask();

public slots:
    // Asks the provider (if any) and shows the task's detail.
    void selectTask(int pane, schedscope::TaskId task);
    void showTaskSnapshot(const schedscope::gui::TaskSnapshot &snapshot);

signals:
    void taskSelected(int pane, schedscope::TaskId task);
    void currentPaneChanged(int pane);

private:
    struct PaneLog {
        std::vector<Decision> decisions;
        std::vector<MigrationRecord> migrations;
    };
    void buildUi();
    void applyFilterBar();
    void updateCount();
    void showCurrentLog();
    void onRowActivated(const QModelIndex &proxy_index);
    TaskSnapshot snapshotFromLog(int pane, TaskId task) const;

    std::vector<PaneLog> panes_;
    int current_ = 0;
    SnapshotProvider provider_;
    bool updating_bar_ = false;
    QString entry_html_; // the clicked entry, shown above the task detail
    // What the detail shows now: a snapshot for the same task arriving later
    // (from the simulation thread) keeps the entry above it.
    int detail_pane_ = -1;
    TaskId detail_task_ = -1;
    QString detail_entry_html_;

    DecisionLogModel *log_ = nullptr;
    DecisionFilterModel *filter_ = nullptr;
    QComboBox *pane_box_ = nullptr;
    QLineEdit *task_edit_ = nullptr;
    QLineEdit *cpu_edit_ = nullptr;
    std::vector<QCheckBox *> kind_boxes_;
    QLabel *count_ = nullptr;
    QTableView *table_ = nullptr;
    QTextBrowser *detail_ = nullptr;
};

} // namespace schedscope::gui
