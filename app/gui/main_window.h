#pragma once
// The main window routes: it owns the menus and docks, hands the loaded
// topology to the views and models, and connects their signals. Views do
// the drawing, models the data, topology_opener the loading.

#include "topology/topology.h"
#include "topology_opener.h"

#include <QMainWindow>

#include <memory>
#include <string>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QTreeView;

namespace schedscope::gui {

class DistanceMatrixPanel;
class TopologyTreeModel;
class TopologyView;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);

    // Loads and shows a topology spec; on failure reports through the error
    // sink and keeps the current topology. Returns whether it loaded.
    bool openTopology(const std::string &spec);
    // Where load errors go (a message box by default).
    void setErrorSink(ErrorSink sink) { error_sink_ = std::move(sink); }

    std::shared_ptr<const Topology> topology() const { return topology_; }
    TopologyView *topologyView() const { return view_; }
    TopologyTreeModel *treeModel() const { return tree_model_; }
    QDockWidget *distanceDock() const { return distance_dock_; }

private:
    void createDocks();
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
};

} // namespace schedscope::gui
