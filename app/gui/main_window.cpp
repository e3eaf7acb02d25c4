#include "main_window.h"

#include "about_text.h"
#include "distance_matrix_panel.h"
#include "dock_registry.h"
#include "export_location.h"
#include "object_text.h"
#include "panels/charts_panel.h"
#include "panels/lesson_panel.h"
#include "published/published_experiments.h"
#include "scene_export.h"
#include "sim/comparison_page.h"
#include "sim/comparison_view.h"
#include "sim/run_setup.h"
#include "sim/scenario_document.h"
#include "sim/simulation_controller.h"
#include "synthetic_dialog.h"
#include "topology/import.h"
#include "topology_export.h"
#include "topology_tree_model.h"
#include "topology_view.h"
#include "trace_export_dialog.h"
#include "view_export.h"
#include "window_settings.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QResizeEvent>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTreeView>

#include <QIcon>

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <utility>

// Q_INIT_RESOURCE must be called from the global namespace, and is needed
// because the resources live in a static library the linker could drop.
static void init_resources() { Q_INIT_RESOURCE(schedscope); }

namespace schedscope::gui {

namespace {
// The tree dock's width in pixels: its three columns on a 1024-PU machine
// at most; at least the object names of a package level.
constexpr int kTreeDockMaxWidth = 340;
constexpr int kTreeDockMinWidth = 200;
} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), error_sink_(message_box_sink(this)), view_(new TopologyView(this)),
      tree_model_(new TopologyTreeModel(this))
{
    init_resources();
    setWindowTitle(tr("schedscope"));
    setWindowIcon(QIcon(QStringLiteral(":/schedscope/schedscope.svg")));
    // The comparison is what people come for; the plain topology view is a
    // tab beside it. Analysis views (charts, explain, profiler, lessons)
    // attach as further tabs or docks fed by comparison_->controller().
    comparison_ = new ComparisonPage(this);
    document_ = new ScenarioDocument(this);
    tabs_ = new QTabWidget(this);
    tabs_->addTab(comparison_, tr("Comparison"));
    tabs_->addTab(view_, tr("Topology"));
    setCentralWidget(tabs_);
    save_prompt_ = [this](const QString &name) {
        return static_cast<int>(
            QMessageBox::question(this, tr("Unsaved changes"), tr("The scenario %1 has changes. Save them?").arg(name),
                                  QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save));
    };
    connect(document_, &ScenarioDocument::changed, this, &MainWindow::updateTitle);
    connect(comparison_, &ComparisonPage::scenarioModified, document_, &ScenarioDocument::modify);
    connect(comparison_, &ComparisonPage::hintLinkActivated, this, &MainWindow::followHint);
    connect(comparison_, &ComparisonPage::loadFailed, this,
            [this](const QString &message) { error_sink_(tr("Cannot run the scenario"), message); });
    createDocks();
    createMenus();
    createSimulationMenu();
    status_ = new QLabel(this);
    zoom_label_ = new QLabel(this);
    statusBar()->addWidget(status_, 1);
    statusBar()->addPermanentWidget(zoom_label_);
    connect(view_, &TopologyView::zoomChanged, this,
            [this](double zoom) { zoom_label_->setText(tr("zoom %1%").arg(qRound(zoom * 100))); });
    // The zoom is the Topology tab's: the panes fit themselves.
    const auto show_zoom = [this] { zoom_label_->setVisible(tabs_->currentWidget() == view_); };
    connect(tabs_, &QTabWidget::currentChanged, this, show_zoom);
    show_zoom();
    connect(view_, &TopologyView::objectActivated, this, &MainWindow::selectInTree);
    // A stored layout (restoreSettings) replaces this size.
    const QScreen *screen = QGuiApplication::primaryScreen();
    resize(first_launch_size(screen ? screen->availableGeometry() : QRect()));
}

void MainWindow::createDocks()
{
    dock_set_.create({this, comparison_, tree_model_});
    tree_dock_ = dock_set_.dock("tree");
    tree_view_ = dock_set_.widget<QTreeView>("tree");
    connect(tree_view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) { view_->highlight(tree_model_->objectAt(current)); });
    // Wide enough for the three columns of a 1024-PU machine's tree on a
    // wide screen; narrower windows narrow it (resizeEvent).
    resizeDocks({tree_dock_}, {kTreeDockMaxWidth}, Qt::Horizontal);
    distance_dock_ = dock_set_.dock("distances");
    distance_panel_ = dock_set_.widget<DistanceMatrixPanel>("distances");
    // Charts, explain, profiler and lessons, fed by the comparison.
    docks_ = attach_analysis_docks(dock_set_, comparison_,
                                   [this](const QString &message) { statusBar()->showMessage(message, 10000); });
    connect(docks_.lessons, &LessonPanel::openScenarioRequested, this, &MainWindow::openLessonScenario);
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New comparison on this machine"), QKeySequence::New, this, [this] {
        if (topology_ && maybeSave())
            showScenario(default_comparison(*topology_, spec_), {});
    });
    file->addAction(tr("Open s&cenario..."), QKeySequence(tr("Ctrl+L")), this, &MainWindow::openScenarioDialog);
    recent_menu_ = file->addMenu(tr("&Recent scenarios"));
    connect(recent_menu_, &QMenu::aboutToShow, this, &MainWindow::fillRecentMenu);
    file->addAction(tr("&Save scenario"), QKeySequence::Save, this, &MainWindow::saveScenario);
    file->addAction(tr("Save scenario &as..."), QKeySequence::SaveAs, this, [this] { saveScenarioAs(); });
    file->addAction(tr("Export &trace..."), QKeySequence(tr("Ctrl+Shift+T")), this, &MainWindow::exportTrace);
    file->addSeparator();
    file->addAction(tr("&Open topology..."), QKeySequence::Open, this, &MainWindow::openFile);
    // An hwloc-gather-topology snapshot unpacked into a folder (the tarball
    // itself opens through Open topology).
    file->addAction(tr("Open topology snapshot &folder..."), QKeySequence(tr("Ctrl+Shift+F")), this,
                    &MainWindow::openSnapshotFolder);
    file->addAction(tr("Open &synthetic..."), QKeySequence(tr("Ctrl+Shift+O")), this, &MainWindow::openSynthetic);
    file->addAction(tr("Open &detected machine"), QKeySequence(tr("Ctrl+Shift+D")), this, [this] {
        if (maybeSave())
            openTopology("detect");
    });
    file->addSeparator();
    file->addAction(tr("Export view as &PNG..."), QKeySequence(tr("Ctrl+E")), this, [this] { exportView(false); });
    file->addAction(tr("Export view as S&VG..."), QKeySequence(tr("Ctrl+Shift+E")), this, [this] { exportView(true); });
    file->addAction(tr("Export c&harts as PNG..."), this, [this] { exportCharts(false); });
    file->addAction(tr("Export charts as C&SV..."), this, [this] { exportCharts(true); });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence(tr("Ctrl+Q")), qApp, &QApplication::closeAllWindows);

    QMenu *samples = menuBar()->addMenu(tr("&Samples"));
    fillSamplesMenu(samples);
    (new PublishedExperiments(this))->fillMenu(samples->addMenu(tr("&Published experiments")));

    QMenu *view = menuBar()->addMenu(tr("&View"));
    auto *zoom_in = view->addAction(tr("Zoom &in"), view_, &TopologyView::zoomIn);
    // Ctrl+= as well: on most layouts "+" needs Shift, and people press Ctrl and "=".
    zoom_in->setShortcuts({QKeySequence::ZoomIn, QKeySequence(tr("Ctrl+="))});
    view->addAction(tr("Zoom &out"), QKeySequence::ZoomOut, view_, &TopologyView::zoomOut);
    // On the comparison tab it fits the panes: Ctrl+wheel zoomed them.
    view->addAction(tr("&Fit to window"), QKeySequence(tr("Ctrl+0")), this, [this] {
        if (tabs_->currentWidget() == view_)
            view_->fitToWindow();
        else
            comparison_->view()->fitPanes();
    });
    view->addAction(tr("&Actual size"), QKeySequence(tr("Ctrl+1")), view_, [this] { view_->setZoom(1.0); });
    view->addSeparator();
    fold_action_ = view->addAction(tr("F&old identical objects"));
    fold_action_->setShortcut(QKeySequence(tr("Ctrl+F")));
    fold_action_->setCheckable(true);
    connect(fold_action_, &QAction::toggled, view_, &TopologyView::setFoldingEnabled);
    view->addSeparator();
    // Every registered dock, with its shortcut (dock_registry.h).
    for (QDockWidget *dock : dock_set_.all()) {
        view->addAction(dock->toggleViewAction());
        raiseWhenShown(dock->toggleViewAction(), dock);
    }

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help_menu_ = help;
    fillLessonsMenu(help->addMenu(tr("&Lessons")));
    help->addAction(tr("&About schedscope"), this, &MainWindow::showAbout);
}

void MainWindow::followHint(const QString &link)
{
    if (link == QLatin1String("open:numa-sample")) {
        if (maybeSave())
            openTopology(kNumaSampleSpec);
        return;
    }
    if (link != QLatin1String("open:numa-lesson"))
        return;
    const std::vector<Lesson> &lessons = docks_.lessons->lessons();
    for (int i = 0; i < static_cast<int>(lessons.size()); ++i)
        if (lessons[static_cast<std::size_t>(i)].scenario == kNumaLessonScenario) {
            docks_.lessons_dock->show();
            docks_.lessons_dock->raise();
            docks_.lessons->setCurrentLesson(i);
            docks_.lessons->openCurrentScenario();
            return;
        }
}

void MainWindow::raiseWhenShown(QAction *toggle, QDockWidget *dock)
{
    // A dock tabbed behind another would open out of sight: bring its tab
    // to the front whenever its action (menu or shortcut) shows it.
    connect(toggle, &QAction::triggered, dock, [dock](bool shown) {
        if (shown)
            dock->raise();
    });
}

void MainWindow::fillSamplesMenu(QMenu *menu)
{
    menu->setToolTipsVisible(true);
    std::vector<SampleInfo> samples;
    try {
        samples = list_sample_topologies();
    } catch (const std::exception &) {
        // No samples directory is not worth a dialog at start-up; the menu says so.
    }
    // The last sample opened, first: people come back to the one they were studying.
    const QString last = [] {
        QSettings settings;
        return last_sample(settings);
    }();
    if (!last.isEmpty()) {
        const QString label = last.startsWith(QLatin1String("sample:")) ? last.mid(7)
                                                                        : QFileInfo(last).completeBaseName();
        menu->addAction(tr("Reopen %1").arg(label), this, [this, last] {
            if (maybeSave())
                openSample(last);
        });
    }
    menu->addSection(tr("Machines"));
    if (samples.empty())
        menu->addAction(tr("(no samples found)"))->setEnabled(false);
    for (const SampleInfo &s : samples) {
        QAction *a = menu->addAction(QString::fromStdString(s.name));
        a->setToolTip(QString::fromStdString(s.summary));
        a->setStatusTip(QString::fromStdString(s.summary));
        const std::string spec = "sample:" + s.name;
        a->setData(QString::fromStdString(spec));
        connect(a, &QAction::triggered, this, [this, spec] {
            if (maybeSave())
                openSample(QString::fromStdString(spec));
        });
    }
    // Scenario files, named and described by their own "name" and
    // "description" fields. One that does not parse is listed disabled with
    // the reason, so a broken sample is visible rather than missing.
    menu->addSection(tr("Scenarios"));
    const QDir dir(QString::fromStdString(samples_dir()) + QStringLiteral("/scenarios"));
    const QStringList files = dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    if (files.isEmpty())
        menu->addAction(tr("(no sample scenarios)"))->setEnabled(false);
    for (const QString &f : files) {
        const QString path = dir.filePath(f);
        const QString base = QFileInfo(f).completeBaseName();
        QAction *a = menu->addAction(base);
        a->setData(path);
        try {
            const Scenario sc = load_scenario(path.toStdString());
            const QString desc = QString::fromStdString(sc.description.empty() ? sc.name : sc.description);
            a->setToolTip(desc);
            a->setStatusTip(desc);
            if (!sc.name.empty() && sc.name != base.toStdString())
                a->setText(QStringLiteral("%1 (%2)").arg(base, QString::fromStdString(sc.name)));
        } catch (const std::exception &e) {
            a->setEnabled(false);
            a->setToolTip(QString::fromStdString(e.what()));
        }
        connect(a, &QAction::triggered, this, [this, path] {
            if (maybeSave())
                openSample(path);
        });
    }
}

void MainWindow::openSample(const QString &spec_or_path)
{
    const bool ok = spec_or_path.startsWith(QLatin1String("sample:")) ? openTopology(spec_or_path.toStdString())
                                                                      : openScenarioFile(spec_or_path);
    if (ok) {
        QSettings settings;
        set_last_sample(settings, spec_or_path);
    }
}

void MainWindow::fillLessonsMenu(QMenu *menu)
{
    const std::vector<Lesson> &lessons = docks_.lessons->lessons();
    if (lessons.empty())
        menu->addAction(tr("(no lessons)"))->setEnabled(false);
    for (int i = 0; i < static_cast<int>(lessons.size()); ++i)
        menu->addAction(QString::fromStdString(lessons[static_cast<std::size_t>(i)].title), this, [this, i] {
            docks_.lessons_dock->show();
            docks_.lessons_dock->raise();
            docks_.lessons->setCurrentLesson(i);
            docks_.lessons->openCurrentScenario();
        });
}

bool MainWindow::openLessonScenario(const QString &path) { return maybeSave() && openScenarioFile(path); }

QStringList MainWindow::showDocks(const QStringList &names) { return dock_set_.show(names); }

void MainWindow::saveSettings(QSettings &settings) const { save_window_layout(settings, *this); }

bool MainWindow::restoreSettings(QSettings &settings)
{
    const bool restored = restore_window_layout(settings, *this);
    if (restored)
        auto_tree_width_ = -1;
    return restored;
}

int MainWindow::defaultTreeWidth(int window_width)
{
    return std::clamp(window_width / 5, kTreeDockMinWidth, kTreeDockMaxWidth);
}

void MainWindow::resizeEvent(QResizeEvent *event)
{
    QMainWindow::resizeEvent(event);
    if (auto_tree_width_ < 0 || !tree_dock_ || tree_dock_->isHidden() || tree_dock_->isFloating())
        return;
    if (isVisible() && auto_tree_width_ > 0 && std::abs(tree_dock_->width() - auto_tree_width_) > 2) {
        auto_tree_width_ = -1; // the user set it
        return;
    }
    auto_tree_width_ = defaultTreeWidth(width());
    resizeDocks({tree_dock_}, {auto_tree_width_}, Qt::Horizontal);
}

void MainWindow::exportTrace()
{
    const RunSetupPtr setup = comparison_->controller()->setup();
    if (!setup) {
        error_sink_(tr("Export trace"), tr("There is no comparison to export."));
        return;
    }
    comparison_->controller()->pause();
    TraceExportDialog dialog(setup, this);
    dialog.setPath(export_start_path(QStringLiteral("trace.json"), ExportKind::Data));
    if (dialog.exec() != QDialog::Accepted)
        return;
    if (auto job = dialog.job()) {
        remember_export_path(QString::fromStdString(job->path));
        start_trace_export(
            this, std::move(*job), [this](const QString &m) { statusBar()->showMessage(m, 10000); }, error_sink_);
    }
}

void MainWindow::createSimulationMenu()
{
    SimulationController *c = comparison_->controller();
    // Before Help, which stays the last menu.
    auto *sim = new QMenu(tr("S&imulation"), this);
    menuBar()->insertMenu(help_menu_ ? help_menu_->menuAction() : nullptr, sim);
    // Window-wide shortcuts: Space works whichever pane or dock has focus.
    QAction *play = sim->addAction(tr("&Play / pause"), c, &SimulationController::togglePlay);
    play->setShortcut(QKeySequence(Qt::Key_Space));
    play->setShortcutContext(Qt::WindowShortcut);
    QAction *step = sim->addAction(tr("&Step one tick"), c, &SimulationController::stepTick);
    step->setShortcut(QKeySequence(Qt::Key_Period));
    QAction *reset = sim->addAction(tr("&Reset to time zero"), c, &SimulationController::reset);
    reset->setShortcut(QKeySequence(Qt::Key_Home));
    sim->addSeparator();
    for (int i = 0; i < kMaxPanes; ++i) {
        QAction *edit = sim->addAction(tr("Parameters of pane &%1...").arg(i + 1), comparison_,
                                       [this, i] { comparison_->editPane(i); });
        edit->setShortcut(QKeySequence(tr("Ctrl+%1").arg(i + 5)));
    }
}

void MainWindow::fillRecentMenu()
{
    recent_menu_->clear();
    const QStringList files = ScenarioDocument::recentFiles();
    if (files.isEmpty())
        recent_menu_->addAction(tr("(none yet)"))->setEnabled(false);
    for (const QString &f : files)
        recent_menu_->addAction(f, this, [this, f] {
            if (maybeSave())
                openScenarioFile(f);
        });
}

void MainWindow::openScenarioDialog()
{
    if (!maybeSave())
        return;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open scenario"), QString(),
                                                      tr("Scenarios (*.json);;All files (*)"));
    if (!path.isEmpty())
        openScenarioFile(path);
}

bool MainWindow::openScenarioFile(const QString &path)
{
    Scenario scenario;
    try {
        scenario = load_scenario(path.toStdString());
    } catch (const std::exception &e) {
        error_sink_(tr("Cannot open the scenario"), QString::fromStdString(e.what()));
        return false;
    }
    if (!showScenario(scenario, path))
        return false;
    // A lesson's scenario brings its text up beside it.
    const std::vector<Lesson> &lessons = docks_.lessons->lessons();
    const std::string file = QFileInfo(path).fileName().toStdString();
    for (std::size_t i = 0; i < lessons.size(); ++i) {
        if (lessons[i].scenario != file)
            continue;
        if (docks_.lessons->currentLesson() != static_cast<int>(i))
            docks_.lessons->setCurrentLesson(static_cast<int>(i));
        docks_.lessons_dock->show();
        docks_.lessons_dock->raise();
    }
    return true;
}

bool MainWindow::showScenario(const Scenario &scenario, const QString &path)
{
    std::shared_ptr<const Topology> topo;
    try {
        topo = scenario_topology(scenario);
    } catch (const std::exception &e) {
        error_sink_(tr("Cannot load the scenario's machine"), QString::fromStdString(e.what()));
        return false;
    }
    QString error;
    if (!comparison_->loadScenario(scenario, topo, &error)) {
        error_sink_(tr("Cannot run the scenario"), error);
        return false;
    }
    spec_ = scenario.topology.is_string() ? scenario.topology.get<std::string>() : std::string("(embedded)");
    showTopology(std::move(topo));
    document_->reset(scenario, path);
    tabs_->setCurrentWidget(comparison_);
    return true;
}

bool MainWindow::openTopology(const std::string &spec)
{
    auto topology = open_topology(spec, error_sink_);
    if (!topology)
        return false;
    Scenario scenario = default_comparison(*topology, spec);
    // The machine is already loaded: hand it over rather than load it twice
    // (detection takes a while on big machines).
    QString error;
    const bool running = comparison_->loadScenario(scenario, topology, &error);
    spec_ = spec;
    showTopology(std::move(topology));
    document_->reset(scenario, {});
    // The comparison is extra: without one the machine still shows.
    tabs_->setCurrentWidget(running ? static_cast<QWidget *>(comparison_) : view_);
    return true;
}

void MainWindow::showTopology(std::shared_ptr<const Topology> topology)
{
    topology_ = std::move(topology);
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
}

bool MainWindow::maybeSave()
{
    if (!document_->isDirty() || !save_prompt_)
        return true;
    switch (save_prompt_(document_->displayName())) {
    case QMessageBox::Save: return saveScenario();
    case QMessageBox::Discard: return true;
    default: return false;
    }
}

bool MainWindow::saveScenario() { return saveScenarioAs(document_->path()); }

bool MainWindow::saveScenarioAs(const QString &given)
{
    QString path = given;
    if (path.isEmpty())
        path = QFileDialog::getSaveFileName(this, tr("Save scenario"), QStringLiteral("scenario.json"),
                                            tr("Scenarios (*.json)"));
    if (path.isEmpty())
        return false;
    try {
        document_->saveAs(path);
    } catch (const std::exception &e) {
        error_sink_(tr("Save failed"), QString::fromStdString(e.what()));
        return false;
    }
    statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
    return true;
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    comparison_->controller()->pause();
    QSettings settings;
    saveSettings(settings);
    event->accept();
}

void MainWindow::updateTitle()
{
    setWindowTitle(tr("schedscope - %1 - %2").arg(document_->displayName(), QString::fromStdString(spec_)));
}

void MainWindow::openFile()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open topology"), QString(),
        tr("Topologies (*.xml *.txt *.topo *.json *.tar *.tar.gz *.tgz *.tar.bz2 *.tar.xz);;"
           "hwloc-gather-topology snapshots (*.tar *.tar.gz *.tgz *.tar.bz2 *.tar.xz);;All files (*)"));
    if (!path.isEmpty() && maybeSave())
        openTopology(path.toStdString());
}

void MainWindow::openSnapshotFolder()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open topology snapshot folder"));
    if (!dir.isEmpty() && maybeSave())
        openTopology(dir.toStdString());
}

void MainWindow::openSynthetic()
{
    SyntheticDialog dialog(this);
    if (spec_.rfind("synthetic:", 0) == 0)
        dialog.setDescription(QString::fromStdString(spec_.substr(10)));
    if (dialog.exec() == QDialog::Accepted && maybeSave())
        openTopology("synthetic:" + dialog.description().toStdString());
}

void MainWindow::exportView(bool svg)
{
    if (!topology_)
        return;
    // The tab in front: the comparison's panes, or the topology (drawn from
    // its layout, so the SVG is vector and the PNG at full resolution).
    const bool panes = tabs_->currentWidget() == comparison_;
    const QString stem = panes ? QStringLiteral("panes") : QStringLiteral("topology");
    const QString path = QFileDialog::getSaveFileName(
        this, svg ? tr("Export view as SVG") : tr("Export view as PNG"),
        export_start_path(stem + (svg ? QStringLiteral(".svg") : QStringLiteral(".png")), ExportKind::Image),
        svg ? tr("SVG (*.svg)") : tr("PNG (*.png)"));
    if (path.isEmpty())
        return;
    remember_export_path(path);
    QString error;
    if (panes)
        error = svg ? export_scene_svg(*this, path) : export_widget_png(*comparison_->view(), path);
    else
        error = svg ? export_topology_svg(view_->topologyLayout(), path)
                    : export_topology_png(view_->topologyLayout(), path);
    if (!error.isEmpty())
        error_sink_(tr("Export failed"), error);
    else
        statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
}

void MainWindow::exportCharts(bool csv)
{
    const QString path = QFileDialog::getSaveFileName(
        this, csv ? tr("Export charts as CSV") : tr("Export charts as PNG"),
        export_start_path(csv ? QStringLiteral("charts.csv") : QStringLiteral("charts.png"),
                          csv ? ExportKind::Data : ExportKind::Image),
        csv ? tr("CSV (*.csv)") : tr("PNG (*.png)"));
    if (path.isEmpty())
        return;
    remember_export_path(path);
    // A hidden dock has no size to render at: show it first.
    if (!csv)
        docks_.charts_dock->show();
    const bool ok = csv ? docks_.charts->exportCsv(path) : docks_.charts->exportPng(path);
    if (!ok)
        error_sink_(tr("Export failed"), tr("Cannot write %1").arg(path));
    else
        statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
}

void MainWindow::showAbout() { QMessageBox::about(this, tr("About schedscope"), about_text()); }

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
    updateTitle();
    status_->setText(tr("%1  |  %2")
                         .arg(QString::fromStdString(machine_summary(t)),
                              QString::fromStdString(t.source().empty() ? spec_ : t.source())));
}

} // namespace schedscope::gui
