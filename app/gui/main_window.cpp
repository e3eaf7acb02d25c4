#include "main_window.h"

#include "distance_matrix_panel.h"
#include "synthetic_dialog.h"
#include "topology/import.h"
#include "topology_export.h"
#include "topology_tree_model.h"
#include "topology_view.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QTreeView>

#include <QIcon>

// Q_INIT_RESOURCE must be called from the global namespace, and is needed
// because the resources live in a static library the linker could drop.
static void init_resources()
{
    Q_INIT_RESOURCE(schedscope);
}

namespace schedscope::gui {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), error_sink_(message_box_sink(this)), view_(new TopologyView(this)),
      tree_model_(new TopologyTreeModel(this))
{
    init_resources();
    setWindowTitle(tr("schedscope"));
    setWindowIcon(QIcon(QStringLiteral(":/schedscope/schedscope.svg")));
    setCentralWidget(view_);
    createDocks();
    createMenus();
    status_ = new QLabel(this);
    zoom_label_ = new QLabel(this);
    statusBar()->addWidget(status_, 1);
    statusBar()->addPermanentWidget(zoom_label_);
    connect(view_, &TopologyView::zoomChanged, this,
            [this](double zoom) { zoom_label_->setText(tr("zoom %1%").arg(qRound(zoom * 100))); });
    connect(view_, &TopologyView::objectActivated, this, &MainWindow::selectInTree);
    resize(1400, 900);
}

void MainWindow::createDocks()
{
    tree_view_ = new QTreeView(this);
    tree_view_->setModel(tree_model_);
    tree_view_->setUniformRowHeights(true); // thousands of rows on big machines
    tree_view_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    tree_view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    connect(tree_view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) { view_->highlight(tree_model_->objectAt(current)); });
    tree_dock_ = new QDockWidget(tr("Topology tree"), this);
    tree_dock_->setObjectName(QStringLiteral("topologyTreeDock"));
    tree_dock_->setWidget(tree_view_);
    addDockWidget(Qt::LeftDockWidgetArea, tree_dock_);
    // Wide enough for the three columns of a 1024-PU machine's tree.
    resizeDocks({tree_dock_}, {340}, Qt::Horizontal);

    distance_panel_ = new DistanceMatrixPanel(this);
    distance_dock_ = new QDockWidget(tr("NUMA distances"), this);
    distance_dock_->setObjectName(QStringLiteral("distanceDock"));
    distance_dock_->setWidget(distance_panel_);
    addDockWidget(Qt::BottomDockWidgetArea, distance_dock_);
    distance_dock_->hide(); // on demand: View > NUMA distances
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open topology..."), QKeySequence::Open, this, &MainWindow::openFile);
    file->addAction(tr("Open &synthetic..."), QKeySequence(tr("Ctrl+Shift+O")), this, &MainWindow::openSynthetic);
    file->addAction(tr("Open &detected machine"), QKeySequence(tr("Ctrl+Shift+D")), this,
                    [this] { openTopology("detect"); });
    file->addSeparator();
    file->addAction(tr("Export view as &PNG..."), QKeySequence(tr("Ctrl+E")), this, [this] { exportView(false); });
    file->addAction(tr("Export view as S&VG..."), QKeySequence(tr("Ctrl+Shift+E")), this,
                    [this] { exportView(true); });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence(tr("Ctrl+Q")), qApp, &QApplication::closeAllWindows);

    fillSamplesMenu(menuBar()->addMenu(tr("&Samples")));

    QMenu *view = menuBar()->addMenu(tr("&View"));
    auto *zoom_in = view->addAction(tr("Zoom &in"), view_, &TopologyView::zoomIn);
    // Ctrl+= as well: on most layouts "+" needs Shift, and people press Ctrl and "=".
    zoom_in->setShortcuts({QKeySequence::ZoomIn, QKeySequence(tr("Ctrl+="))});
    view->addAction(tr("Zoom &out"), QKeySequence::ZoomOut, view_, &TopologyView::zoomOut);
    view->addAction(tr("&Fit to window"), QKeySequence(tr("Ctrl+0")), view_, &TopologyView::fitToWindow);
    view->addAction(tr("&Actual size"), QKeySequence(tr("Ctrl+1")), view_, [this] { view_->setZoom(1.0); });
    view->addSeparator();
    fold_action_ = view->addAction(tr("F&old identical objects"));
    fold_action_->setShortcut(QKeySequence(tr("Ctrl+F")));
    fold_action_->setCheckable(true);
    connect(fold_action_, &QAction::toggled, view_, &TopologyView::setFoldingEnabled);
    view->addSeparator();
    QAction *distances = distance_dock_->toggleViewAction();
    distances->setShortcut(QKeySequence(tr("Ctrl+D")));
    view->addAction(distances);
    QAction *tree = tree_dock_->toggleViewAction();
    tree->setShortcut(QKeySequence(tr("Ctrl+T")));
    view->addAction(tree);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About schedscope"), this, &MainWindow::showAbout);
}

void MainWindow::fillSamplesMenu(QMenu *menu)
{
    std::vector<SampleInfo> samples;
    try {
        samples = list_sample_topologies();
    } catch (const std::exception &) {
        // No samples directory is not worth a dialog at start-up; the menu says so.
    }
    if (samples.empty()) {
        menu->addAction(tr("(no samples found)"))->setEnabled(false);
        return;
    }
    for (const SampleInfo &s : samples) {
        QAction *a = menu->addAction(QString::fromStdString(s.name));
        a->setToolTip(QString::fromStdString(s.summary));
        a->setStatusTip(QString::fromStdString(s.summary));
        const std::string spec = "sample:" + s.name;
        connect(a, &QAction::triggered, this, [this, spec] { openTopology(spec); });
    }
    menu->setToolTipsVisible(true);
}

bool MainWindow::openTopology(const std::string &spec)
{
    auto topology = open_topology(spec, error_sink_);
    if (!topology)
        return false;
    topology_ = std::move(topology);
    spec_ = spec;
    view_->setTopology(topology_);
    tree_model_->setTopology(topology_);
    tree_view_->expandToDepth(1);
    distance_panel_->setTopology(topology_);
    {
        // Mirror the view's default without re-laying out twice.
        const QSignalBlocker block(fold_action_);
        fold_action_->setChecked(view_->foldingEnabled());
    }
    updateStatus();
    return true;
}

void MainWindow::openFile()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open topology"), QString(),
        tr("Topologies (*.xml *.txt *.topo *.json);;All files (*)"));
    if (!path.isEmpty())
        openTopology(path.toStdString());
}

void MainWindow::openSynthetic()
{
    SyntheticDialog dialog(this);
    if (spec_.rfind("synthetic:", 0) == 0)
        dialog.setDescription(QString::fromStdString(spec_.substr(10)));
    if (dialog.exec() == QDialog::Accepted)
        openTopology("synthetic:" + dialog.description().toStdString());
}

void MainWindow::exportView(bool svg)
{
    if (!topology_)
        return;
    const QString path = QFileDialog::getSaveFileName(this, svg ? tr("Export view as SVG") : tr("Export view as PNG"),
                                                      svg ? QStringLiteral("topology.svg")
                                                          : QStringLiteral("topology.png"),
                                                      svg ? tr("SVG (*.svg)") : tr("PNG (*.png)"));
    if (path.isEmpty())
        return;
    const QString error = svg ? export_topology_svg(view_->topologyLayout(), path)
                              : export_topology_png(view_->topologyLayout(), path);
    if (!error.isEmpty())
        error_sink_(tr("Export failed"), error);
    else
        statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About schedscope"),
                       tr("<b>schedscope %1</b><p>Simulates OS schedulers on machine topologies and animates "
                          "them. The topology view follows hwloc's lstopo.</p>")
                           .arg(QStringLiteral(SCHEDSCOPE_VERSION)));
}

void MainWindow::selectInTree(ObjId obj)
{
    const QModelIndex index = tree_model_->indexOfObject(obj);
    if (!index.isValid())
        return;
    tree_view_->setCurrentIndex(index);
    tree_view_->scrollTo(index);
}

void MainWindow::updateStatus()
{
    const Topology &t = *topology_;
    setWindowTitle(tr("schedscope - %1").arg(QString::fromStdString(spec_)));
    status_->setText(tr("%1 packages, %2 NUMA nodes, %3 cores, %4 PUs  |  %5")
                         .arg(t.count(ObjType::Package))
                         .arg(t.numa_count())
                         .arg(t.count(ObjType::Core))
                         .arg(t.pu_count())
                         .arg(QString::fromStdString(t.source().empty() ? spec_ : t.source())));
}

} // namespace schedscope::gui
