#pragma once
// The main window routes: it owns the menus and docks, hands the loaded
// topology to the views and models, and connects their signals. Views do
// the drawing, models the data, topology_opener the loading.

#include "scenario/scenario.h"
#include "topology/topology.h"
#include "topology_opener.h"

#include <QMainWindow>

#include <functional>
#include <memory>
#include <vector>
#include <string>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QTabWidget;
class QTreeView;

namespace schedscope::gui {

class ComparisonPage;
class DistanceMatrixPanel;
class ScenarioDocument;
class TopologyTreeModel;
class TopologyView;

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

signals:
    // Hook for the trace exporter (another engineer's): File > Export trace
    // emits this; nothing is connected until that lands.
    void exportTraceRequested();

protected:
    void closeEvent(QCloseEvent *event) override;

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
    void openSynthetic();
    void exportView(bool svg);
    void showAbout();
    void selectInTree(ObjId obj);
    void updateStatus();

    std::shared_ptr<const Topology> topology_;
    std::string spec_;
    ErrorSink error_sink_;
    TopologyView *view_;
    TopologyTreeModel *tree_model_;
    QTreeView *tree_view_ = nullptr;
    QDockWidget *tree_dock_ = nullptr;
    QDockWidget *distance_dock_ = nullptr;
    DistanceMatrixPanel *distance_panel_ = nullptr;
    QAction *fold_action_ = nullptr;
    QLabel *status_ = nullptr;
    QLabel *zoom_label_ = nullptr;
    QTabWidget *tabs_ = nullptr;
    ComparisonPage *comparison_ = nullptr;
    ScenarioDocument *document_ = nullptr;
    QMenu *recent_menu_ = nullptr;
    SavePrompt save_prompt_;
    std::vector<QDockWidget *> analysis_docks_;
};

} // namespace schedscope::gui
