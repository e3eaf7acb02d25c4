#pragma once
// The profiler view: runs the migration profiler off the
// GUI thread with a progress bar and Cancel, shows the cost matrix as a
// heatmap, the distance classes and the per-level cache_hot_time derived
// from them, and beside it the selected run's migration matrix in the same
// PU order, so a user sees whether the policy moves tasks across the
// expensive blocks. Clicking a cell of either matrix lists the run's
// migrations between those two PUs with the reasons the policy logged.
//
//   auto *p = new ProfilerPanel;
//   p->setTopology(topo, /*running_machine=*/spec == "detect");
//   p->setRun("autonuma", recording);      // any time, also while profiling
//   p->start();                            // or the user presses Run
//   connect(p, &ProfilerPanel::useForSchedDomains, ...);

#include "analysis/migration_analysis.h"
#include "engine/recording.h"
#include "profiler/migration_profile.h"
#include "topology/topology.h"

#include <QMap>
#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QHBoxLayout;
class QLabel;
class QProgressBar;
class QPushButton;
class QSplitter;
class QTableWidget;
class QTreeWidget;

namespace schedscope::gui {

class HeatmapModel;
class HeatmapView;
class HistogramView;
class ProfilerRunner;

class ProfilerPanel : public QWidget {
    Q_OBJECT
public:
    explicit ProfilerPanel(QWidget *parent = nullptr);
    ~ProfilerPanel() override;

    // A new machine forgets the profile. `running_machine`: the topology is
    // the detected host, so "auto" mode measures; otherwise it models.
    void setTopology(std::shared_ptr<const Topology> topology, bool running_machine);
    // The pane whose migrations are shown beside the costs; nullptr clears.
    void setRun(const QString &name, std::shared_ptr<const Recording> recording);
    // The same from a simulation, with the core's migration analysis (issue
    // 10): hot share, refill cost, ping-pongs, the since-last-ran histogram
    // against cache_hot_time, and each move's cost in the cell list. Reads
    // `sim` now (copying what it keeps): call it while the pane is paused,
    // or on a copy.
    void setRun(const QString &name, const Simulation &sim);
    // Where "Use for sched-domains" saves the profile (default:
    // ~/.local/share/schedscope, i.e. $XDG_DATA_HOME/schedscope).
    void setProfileDirectory(const QString &dir);
    QString profileDirectory() const { return profile_dir_; }

    void start(); // with the options chosen in the panel
    void cancel();
    bool isRunning() const;
    QString progressText() const; // what the progress bar reads ("" when it shows no figure)
    const std::optional<MigrationProfile> &profile() const { return profile_; }
    // Shows a profile made elsewhere (e.g. `schedscope-cli profile --save`).
    void setProfile(const MigrationProfile &profile);

    // Read by tests and by the main window's status line.
    HeatmapModel *costModel() const { return cost_model_; }
    HeatmapModel *migrationModel() const { return migration_model_; }
    QTreeWidget *cellList() const { return cell_list_; }
    const std::optional<MigrationAnalysis> &analysis() const { return analysis_; }
    QString totalsText() const;

public slots:
    // Lists the run's migrations from `source` to `target` (logical PUs).
    void showCell(int source, int target);

signals:
    void profileReady(const schedscope::MigrationProfile &profile);
    // The profile was saved to `profile_path`; `cache_hot_time_ms` maps each
    // domain level ("SMT", "MC", "package", "node", "NUMA", "overall") to its
    // derived value. A sched-domains policy takes it as
    // autotune=profile,profile=<path> or as cache_hot_time_ms.<level>=<ms>.
    void useForSchedDomains(const QString &profile_path, const QMap<QString, double> &cache_hot_time_ms);
    // The matrix behind the "Use" button could not be written.
    void saveFailed(const QString &message);

private:
    void buildUi();
    // buildUi's parts, made in this order: the controls (and the status
    // line), the matrices, the details.
    QHBoxLayout *buildControlBar();
    QSplitter *buildMatrices();
    QSplitter *buildDetails();
    void onFinished(const MigrationProfile &profile);
    void useProfile();
    void refreshMigrationMatrix();
    QStringList puLabels() const;

    std::shared_ptr<const Topology> topology_;
    bool running_machine_ = false;
    QString run_name_;
    std::shared_ptr<const Recording> recording_;
    std::optional<MigrationProfile> profile_;
    std::optional<MigrationAnalysis> analysis_;
    QString profile_dir_;

    ProfilerRunner *runner_ = nullptr;
    HeatmapModel *cost_model_ = nullptr;
    HeatmapModel *migration_model_ = nullptr;
    HeatmapView *cost_view_ = nullptr;
    HeatmapView *migration_view_ = nullptr;
    QComboBox *mode_ = nullptr;
    QComboBox *pairs_ = nullptr;
    QPushButton *run_button_ = nullptr;
    QPushButton *cancel_button_ = nullptr;
    QPushButton *use_button_ = nullptr;
    QProgressBar *progress_ = nullptr;
    QLabel *status_ = nullptr;
    QLabel *cost_title_ = nullptr;
    QLabel *migration_title_ = nullptr;
    QTableWidget *classes_ = nullptr;
    QTableWidget *hot_times_ = nullptr;
    QTreeWidget *cell_list_ = nullptr;
    QLabel *totals_ = nullptr;
    HistogramView *since_ran_ = nullptr;
};

} // namespace schedscope::gui
