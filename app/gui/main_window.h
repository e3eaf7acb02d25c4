#pragma once
// The main window routes: it owns the menus and docks, hands the loaded
// topology to the views and models, and connects their signals. Views do
// the drawing, models the data, topology_opener the loading.

#include "analysis_docks.h"
#include "dock_registry.h"
#include "scenario/scenario.h"
#include "topology/topology.h"
#include "topology_opener.h"

#include <QMainWindow>

#include <functional>
#include <memory>
#include <string>
#include <vector>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QSettings;
class QTabWidget;
class QTreeView;

namespace schedscope::gui {

class ComparisonPage;
class DistanceMatrixPanel;
class ScenarioDocument;
class TopologyTreeModel;
class TopologyView;

// What the single-NUMA-node hint offers (ComparisonPage::hintLinkActivated).
inline constexpr const char *kNumaSampleSpec = "sample:xeon-2node-24";
inline constexpr const char *kNumaLessonScenario = "lesson-numa-convergence.json";

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);

    // Loads and shows a topology spec with a ready comparison on it (paused
    // at time zero); on failure reports through the error sink and keeps
    // the current topology. Returns whether it loaded.
    bool openTopology(const std::string &spec);
    // Opens a scenario file (its machine and comparison). Same contract.
    bool openScenarioFile(const QString &path);
    // Shows a scenario built elsewhere (command line, lessons); `path` is
    // empty when it has no file yet.
    bool showScenario(const Scenario &scenario, const QString &path);
    // Where the user is asked "save changes?"; tests answer it themselves.
    using SavePrompt = std::function<int(const QString &document)>; // QMessageBox::StandardButton
    void setSavePrompt(SavePrompt prompt) { save_prompt_ = std::move(prompt); }
    // Save/Discard/Cancel before the current scenario is replaced or the
    // window closes; false means the user cancelled.
    bool maybeSave();
    bool saveScenario();
    bool saveScenarioAs(const QString &path = {});
    ComparisonPage *comparisonPage() const { return comparison_; }
    ScenarioDocument *document() const { return document_; }
    QTabWidget *tabs() const { return tabs_; }
    // Where load errors go (a message box by default).
    void setErrorSink(ErrorSink sink) { error_sink_ = std::move(sink); }

    std::shared_ptr<const Topology> topology() const { return topology_; }
    TopologyView *topologyView() const { return view_; }
    TopologyTreeModel *treeModel() const { return tree_model_; }
    QDockWidget *distanceDock() const { return distance_dock_; }
    const AnalysisDocks &analysisDocks() const { return docks_; }
    const DockSet &dockSet() const { return dock_set_; }
    // Shows docks by their registered ids (dock_ids(): tree, distances,
    // charts, ...; --docks for screenshots). Returns the unknown names.
    QStringList showDocks(const QStringList &names);

    // Window layout and docks (QSettings); main() restores them for an
    // interactive session, closing saves them. Headless runs skip both.
    void saveSettings(QSettings &settings) const;
    bool restoreSettings(QSettings &settings);
    // Opens a lesson's scenario after the unsaved-changes prompt.
    bool openLessonScenario(const QString &path);

public slots:
    // File > Export trace: the dialog, then the export off the GUI thread.
    void exportTrace();

    // The tree dock's width for a window `window_width` wide while the
    // layout is the default one: a fifth of the window within 200..340 px,
    // so at 1280 px the panes keep most of the width.
    static int defaultTreeWidth(int window_width);

protected:
    void closeEvent(QCloseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void createDocks();
    void createSimulationMenu();
    void fillRecentMenu();
    void openScenarioDialog();
    void updateTitle();
    void showTopology(std::shared_ptr<const Topology> topology);
    void createMenus();
    void fillSamplesMenu(QMenu *menu);
    void openFile();
    void openSnapshotFolder();
    void openSynthetic();
    void exportView(bool svg);
    void exportCharts(bool csv);
    void fillLessonsMenu(QMenu *menu);
    void openSample(const QString &spec_or_path);
    void showAbout();
    void selectInTree(ObjId obj);
    void updateStatus();
    void raiseWhenShown(QAction *toggle, QDockWidget *dock);
    void followHint(const QString &link); // the start hint's links

    std::shared_ptr<const Topology> topology_;
    std::string spec_;
    ErrorSink error_sink_;
    TopologyView *view_;
    TopologyTreeModel *tree_model_;
    QTreeView *tree_view_ = nullptr;
    QDockWidget *tree_dock_ = nullptr;
    // The width the window last gave the tree dock; -1 once a saved layout
    // was restored or the user dragged the dock's edge (theirs from then on).
    int auto_tree_width_ = 0;
    QDockWidget *distance_dock_ = nullptr;
    DistanceMatrixPanel *distance_panel_ = nullptr;
    QAction *fold_action_ = nullptr;
    QLabel *status_ = nullptr;
    QLabel *zoom_label_ = nullptr;
    QTabWidget *tabs_ = nullptr;
    ComparisonPage *comparison_ = nullptr;
    ScenarioDocument *document_ = nullptr;
    QMenu *recent_menu_ = nullptr;
    QMenu *help_menu_ = nullptr;
    SavePrompt save_prompt_;
    DockSet dock_set_;
    AnalysisDocks docks_;
};

} // namespace schedscope::gui
