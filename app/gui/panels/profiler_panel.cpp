#include "panels/profiler_panel.h"

#include "engine/simulation.h"
#include "panels/chart_data.h"
#include "panels/heatmap_model.h"
#include "panels/heatmap_view.h"
#include "panels/histogram_view.h"
#include "panels/migration_matrix.h"
#include "panels/profiler_runner.h"
#include "profiler/profile_store.h"

#include <QComboBox>
#include <QDir>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSplitter>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cmath>
#include <exception>

namespace schedscope::gui {

namespace {

QWidget *titled(QLabel *title, QWidget *body, QWidget *parent)
{
    auto *box = new QWidget(parent);
    auto *v = new QVBoxLayout(box);
    v->setContentsMargins(0, 0, 0, 0);
    title->setWordWrap(true);
    v->addWidget(title);
    v->addWidget(body, 1);
    return box;
}

QTableWidgetItem *cell(const QString &text)
{
    auto *item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return item;
}

QString ms_text(double ms) { return std::isnan(ms) ? QStringLiteral("-") : QString::number(ms, 'f', 3); }

} // namespace

ProfilerPanel::ProfilerPanel(QWidget *parent) : QWidget(parent)
{
    // GenericDataLocation plus the name once: ~/.local/share/schedscope.
    // AppDataLocation would append organisation and application name, both
    // "schedscope" (main.cpp), giving .../schedscope/schedscope.
    profile_dir_ = QDir(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation))
                       .filePath(QStringLiteral("schedscope"));
    runner_ = new ProfilerRunner(this);
    buildUi();
    connect(runner_, &ProfilerRunner::progressed, this, [this](int done, int total) {
        progress_->setMaximum(total);
        progress_->setValue(done);
    });
    connect(runner_, &ProfilerRunner::finished, this, &ProfilerPanel::onFinished);
    connect(runner_, &ProfilerRunner::failed, this, [this](const QString &message) {
        run_button_->setEnabled(true);
        cancel_button_->setEnabled(false);
        status_->setText(tr("Profiling failed: %1").arg(message));
    });
}

ProfilerPanel::~ProfilerPanel() = default;

void ProfilerPanel::buildUi()
{
    QHBoxLayout *bar = buildControlBar();
    QSplitter *matrices = buildMatrices();
    QSplitter *details = buildDetails();
    auto *vertical = new QSplitter(Qt::Vertical, this);
    vertical->addWidget(matrices);
    vertical->addWidget(details);
    vertical->setStretchFactor(0, 3);
    vertical->setStretchFactor(1, 2);

    // A dock shorter than the matrices, their figures and the tables need
    // (a 1280x720 window) scrolls them as a whole: squeezed below their
    // minimum, the layout drew the matrix's last row over its figures.
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(vertical);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(status_);
    layout->addWidget(scroll, 1);
}

// The controls and the status line under them; the bar that holds the
// controls.
QHBoxLayout *ProfilerPanel::buildControlBar()
{
    mode_ = new QComboBox(this);
    mode_->addItem(tr("auto"), QStringLiteral("auto"));
    mode_->addItem(tr("model"), QStringLiteral("model"));
    mode_->addItem(tr("measure"), QStringLiteral("measure"));
    // As wide as its longest item, which setTopology rewrites ("auto
    // (model: not the running machine)"): the default policy sized it once,
    // for "auto", and the dock then showed "auto (mo".
    mode_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    pairs_ = new QComboBox(this);
    pairs_->addItem(tr("all pairs"), QStringLiteral("all"));
    pairs_->addItem(tr("one pair per class"), QStringLiteral("classes"));
    run_button_ = new QPushButton(tr("Run profiler"), this);
    cancel_button_ = new QPushButton(tr("Cancel"), this);
    cancel_button_->setEnabled(false);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1);
    progress_->setValue(0);
    progress_->setTextVisible(false); // no "0%" beside "No profile yet"
    status_ = new QLabel(tr("No profile yet."), this);
    connect(run_button_, &QPushButton::clicked, this, &ProfilerPanel::start);
    connect(cancel_button_, &QPushButton::clicked, this, &ProfilerPanel::cancel);

    auto *bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Mode:"), this));
    bar->addWidget(mode_);
    bar->addWidget(pairs_);
    bar->addWidget(run_button_);
    bar->addWidget(cancel_button_);
    bar->addWidget(progress_, 1);
    return bar;
}

// The two matrices side by side: the profiled cost, and the run's moves
// with its figures under them.
QSplitter *ProfilerPanel::buildMatrices()
{
    cost_model_ = new HeatmapModel(this);
    migration_model_ = new HeatmapModel(this);
    cost_view_ = new HeatmapView(this);
    cost_view_->setHeatmap(cost_model_);
    migration_view_ = new HeatmapView(this);
    migration_view_->setHeatmap(migration_model_);
    // Either matrix's cell names the same pair of PUs: both list the run's moves.
    connect(cost_view_, &HeatmapView::cellClicked, this, &ProfilerPanel::showCell);
    connect(migration_view_, &HeatmapView::cellClicked, this, &ProfilerPanel::showCell);
    cost_title_ = new QLabel(tr("<b>Migration cost</b> (ms, rows: from CPU, columns: to CPU)"), this);
    migration_title_ = new QLabel(tr("<b>Migrations of this run</b> (count, same order)"), this);
    // The run's name makes this title two lines in a half-width column; as
    // for the figures below, its height is asked for up front.
    migration_title_->setMinimumHeight(2 * migration_title_->fontMetrics().lineSpacing() + 2);

    totals_ = new QLabel(this);
    totals_->setWordWrap(true);
    // Room for the figures wrapped to three lines, asked of the layout up
    // front: a wrapped label's height comes too late for the minimum the
    // scroll area below grants, and the matrix's last row lay under it.
    totals_->setMinimumHeight(3 * totals_->fontMetrics().lineSpacing() + 4);
    auto *run_box = new QWidget(this);
    auto *run_layout = new QVBoxLayout(run_box);
    run_layout->setContentsMargins(0, 0, 0, 0);
    // The run's figures sit under its matrix: what it moved, then how hot.
    since_ran_ = new HistogramView(this);
    since_ran_->setMinimumHeight(160);
    run_layout->addWidget(migration_view_, 3);
    run_layout->addWidget(totals_);
    run_layout->addWidget(since_ran_, 2);
    auto *matrices = new QSplitter(Qt::Horizontal, this);
    matrices->addWidget(titled(cost_title_, cost_view_, matrices));
    matrices->addWidget(titled(migration_title_, run_box, matrices));
    return matrices;
}

// Under the matrices: the distance classes, the derived cache_hot_time
// with its button, and the moves of the clicked cell.
QSplitter *ProfilerPanel::buildDetails()
{
    classes_ = new QTableWidget(0, 5, this);
    classes_->setHorizontalHeaderLabels({tr("Class"), tr("SLIT"), tr("Pairs"), tr("Min ms"), tr("Max ms")});
    hot_times_ = new QTableWidget(0, 2, this);
    hot_times_->setHorizontalHeaderLabels({tr("Domain level"), tr("cache_hot_time ms")});
    for (QTableWidget *t : {classes_, hot_times_}) {
        t->verticalHeader()->hide();
        t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
        t->horizontalHeader()->setStretchLastSection(true);
        t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    }
    use_button_ = new QPushButton(tr("Use for sched-domains"), this);
    use_button_->setToolTip(tr("Save this profile and re-run one sched-domains pane with it "
                               "(autotune=profile): the one Explain shows, else the first; the "
                               "other panes keep their settings to compare against"));
    use_button_->setEnabled(false);
    connect(use_button_, &QPushButton::clicked, this, &ProfilerPanel::useProfile);
    auto *hot_box = new QWidget(this);
    auto *hot_layout = new QVBoxLayout(hot_box);
    hot_layout->setContentsMargins(0, 0, 0, 0);
    hot_layout->addWidget(hot_times_, 1);
    hot_layout->addWidget(use_button_);

    cell_list_ = new QTreeWidget(this);
    cell_list_->setHeaderLabels({tr("Time"), tr("Task"), tr("Kind"), tr("Since last ran"), tr("Cost"), tr("Reason")});
    cell_list_->setRootIsDecorated(false);
    // Short columns first, sized to their content; the reason gets the rest.
    const int digit = fontMetrics().horizontalAdvance(QLatin1Char('0'));
    for (auto [column, digits] : {std::pair{0, 9}, {1, 5}, {2, 10}, {3, 9}, {4, 16}})
        cell_list_->setColumnWidth(column, digits * digit);
    cell_list_->setWordWrap(true);

    auto *details = new QSplitter(Qt::Horizontal, this);
    details->addWidget(titled(new QLabel(tr("<b>Distance classes</b>"), this), classes_, details));
    details->addWidget(titled(new QLabel(tr("<b>Derived cache_hot_time</b>"), this), hot_box, details));
    details->addWidget(titled(new QLabel(tr("<b>Migrations in the clicked cell</b>"), this), cell_list_, details));
    details->setStretchFactor(2, 3);
    return details;
}

void ProfilerPanel::setTopology(std::shared_ptr<const Topology> topology, bool running_machine)
{
    cancel();
    topology_ = std::move(topology);
    running_machine_ = running_machine;
    // Say what "auto" will do on this machine rather than leave it to guess.
    mode_->setItemText(0, running_machine ? tr("auto (measure: this is the running machine)")
                                          : tr("auto (model: not the running machine)"));
    profile_.reset();
    cost_model_->clear();
    classes_->setRowCount(0);
    hot_times_->setRowCount(0);
    use_button_->setEnabled(false);
    status_->setText(tr("No profile yet."));
    // The last profile's "100%" would contradict the line beside it.
    progress_->setRange(0, 1);
    progress_->setValue(0);
    progress_->setTextVisible(false);
    refreshMigrationMatrix();
}

void ProfilerPanel::setRun(const QString &name, std::shared_ptr<const Recording> recording)
{
    run_name_ = name;
    recording_ = std::move(recording);
    analysis_.reset();
    refreshMigrationMatrix();
}

void ProfilerPanel::setRun(const QString &name, const Simulation &sim)
{
    run_name_ = name;
    recording_ = std::make_shared<const Recording>(sim.recording());
    analysis_ = analyze_migrations(sim);
    refreshMigrationMatrix();
}

QString ProfilerPanel::totalsText() const
{
    if (!analysis_)
        return {};
    const MigrationTotals &t = analysis_->totals;
    return tr("%1 migrations (%2/s); %3 % moved a still-hot task (cache_hot_time %4); refill %5 ms, "
              "remote-memory stall %6 ms in all; %7 ping-pongs within %8.")
        .arg(t.migrations)
        .arg(t.per_second, 0, 'f', 1)
        .arg(t.hot_share * 100.0, 0, 'f', 1)
        .arg(HistogramView::durationLabel(static_cast<double>(analysis_->cache_hot_time_ns)))
        .arg(t.refill_stall_ns / 1e6, 0, 'f', 2)
        .arg(t.remote_stall_ns / 1e6, 0, 'f', 2)
        .arg(t.ping_pongs)
        .arg(HistogramView::durationLabel(static_cast<double>(analysis_->ping_pong_window_ns)));
}

void ProfilerPanel::setProfileDirectory(const QString &dir) { profile_dir_ = dir; }

QStringList ProfilerPanel::puLabels() const
{
    QStringList labels;
    if (topology_)
        for (int pu = 0; pu < topology_->pu_count(); ++pu)
            labels << QString::number(topology_->pu_os_index(pu));
    return labels;
}

void ProfilerPanel::refreshMigrationMatrix()
{
    cell_list_->clear();
    totals_->setText(totalsText());
    if (analysis_)
        since_ran_->setHistogram(analysis_->since_last_ran, static_cast<double>(analysis_->cache_hot_time_ns),
                                 tr("Time since the moved task last ran"), tr("hot"), tr("cold"));
    else
        since_ran_->clear(tr("Time since last ran: needs the run's simulation"));
    if (!topology_ || !recording_) {
        migration_model_->clear();
        migration_title_->setText(tr("<b>Migrations of this run</b>: no run selected"));
        return;
    }
    const int n = topology_->pu_count();
    std::vector<double> values(static_cast<std::size_t>(n) * n, 0.0);
    std::int64_t total = 0;
    if (analysis_ && analysis_->pu_matrix.size == n) {
        // The core's sparse matrix: the same counts, without an n x n pass.
        for (const MatrixCell &c : analysis_->pu_matrix.cells)
            values[static_cast<std::size_t>(c.from) * n + c.to] = static_cast<double>(c.count);
        total = analysis_->pu_matrix.total();
    } else {
        const MigrationMatrix m = MigrationMatrix::from_recording(*recording_, n);
        values.assign(m.counts.begin(), m.counts.end());
        total = m.total;
    }
    migration_model_->setMatrix(std::move(values), puLabels(), 0, tr("migrations"));
    if (recording_->migrations_dropped > 0) // a long run: the recording keeps the first moves only
        migration_title_->setText(tr("<b>Migrations of %1</b> (the first %2 of %3, the rest counted but not kept; "
                                     "count from CPU row to CPU column)")
                                      .arg(run_name_.toHtmlEscaped())
                                      .arg(total)
                                      .arg(total + recording_->migrations_dropped));
    else
        migration_title_->setText(tr("<b>Migrations of %1</b> (%2 in all; count from CPU row to CPU column)")
                                      .arg(run_name_.toHtmlEscaped())
                                      .arg(total));
}

void ProfilerPanel::start()
{
    if (!topology_ || runner_->isRunning())
        return;
    ProfilerOptions options;
    const QString mode = mode_->currentData().toString();
    const bool measure = mode == QLatin1String("measure") || (mode == QLatin1String("auto") && running_machine_);
    options.mode = measure ? ProfileMode::Measure : ProfileMode::Model;
    options.pairs = pairs_->currentData().toString() == QLatin1String("classes") ? PairSelection::Classes
                                                                                 : PairSelection::All;
    if (!runner_->start(topology_, options))
        return;
    run_button_->setEnabled(false);
    cancel_button_->setEnabled(true);
    progress_->setRange(0, 0); // busy until the first pair reports the total
    progress_->setTextVisible(true);
    status_->setText(measure ? tr("Measuring migration costs on this machine...") : tr("Modelling migration costs..."));
}

void ProfilerPanel::cancel()
{
    if (!runner_->isRunning())
        return;
    runner_->cancel();
    status_->setText(tr("Cancelling..."));
}

bool ProfilerPanel::isRunning() const { return runner_->isRunning(); }

QString ProfilerPanel::progressText() const { return progress_->isTextVisible() ? progress_->text() : QString(); }

void ProfilerPanel::onFinished(const MigrationProfile &profile)
{
    run_button_->setEnabled(true);
    cancel_button_->setEnabled(false);
    progress_->setRange(0, 1);
    progress_->setValue(profile.complete ? 1 : 0);
    setProfile(profile);
    emit profileReady(profile);
}

void ProfilerPanel::setProfile(const MigrationProfile &profile)
{
    profile_ = profile;
    const int n = static_cast<int>(profile.matrix_ms.size());
    std::vector<double> values;
    values.reserve(static_cast<std::size_t>(n) * n);
    for (const auto &row : profile.matrix_ms)
        values.insert(values.end(), row.begin(), row.end());
    QStringList labels;
    for (int pu = 0; pu < n; ++pu)
        labels << QString::number(pu < static_cast<int>(profile.pu_os_index.size()) ? profile.pu_os_index[pu] : pu);
    cost_model_->setMatrix(std::move(values), labels, 1, tr("ms"));
    cost_title_->setText(tr("<b>Migration cost</b> (%1, %2 pairs; ms, from CPU row to CPU column)")
                             .arg(QString::fromStdString(profile.mode), QString::fromStdString(profile.pairs)));

    classes_->setRowCount(static_cast<int>(profile.classes.size()));
    for (int r = 0; r < classes_->rowCount(); ++r) {
        const ClassCost &c = profile.classes[r];
        classes_->setItem(r, 0, cell(QString::fromUtf8(distance_class_name(c.cls))));
        classes_->setItem(r, 1, cell(QString::number(c.numa_distance)));
        classes_->setItem(r, 2, cell(QString::number(c.pair_count)));
        classes_->setItem(r, 3, cell(ms_text(c.min_ms)));
        classes_->setItem(r, 4, cell(ms_text(c.max_ms)));
    }
    // Levels from closest to farthest, then the machine-wide value.
    QStringList levels;
    for (const std::string &level : domain_level_names())
        if (profile.cache_hot_time_ms.count(level))
            levels << QString::fromStdString(level);
    if (profile.cache_hot_time_ms.count(kOverallLevel))
        levels << QString::fromLatin1(kOverallLevel);
    hot_times_->setRowCount(static_cast<int>(levels.size()));
    for (int r = 0; r < levels.size(); ++r) {
        hot_times_->setItem(r, 0, cell(levels[r]));
        hot_times_->setItem(r, 1, cell(ms_text(profile.cache_hot_time_ms.at(levels[r].toStdString()))));
    }
    use_button_->setEnabled(!levels.isEmpty());
    status_->setText(profile.complete ? tr("Profile of %1: %2 PUs, buffer %3 KiB.")
                                            .arg(QString::fromStdString(profile.topology_name))
                                            .arg(n)
                                            .arg(profile.buffer_bytes / 1024)
                                      : tr("Cancelled: a partial profile (unmeasured pairs are grey)."));
}

void ProfilerPanel::useProfile()
{
    if (!profile_)
        return;
    QMap<QString, double> values;
    for (const auto &[level, ms] : profile_->cache_hot_time_ms)
        values.insert(QString::fromStdString(level), ms);
    QDir().mkpath(profile_dir_);
    // The machine's name makes the file recognisable; anything a file system
    // might dislike becomes '_'.
    QString name = QString::fromStdString(profile_->topology_name);
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_.-]")), QStringLiteral("_"));
    if (name.isEmpty())
        name = QStringLiteral("machine");
    const QString path = QDir(profile_dir_).filePath(QStringLiteral("profile-%1.json").arg(name));
    try {
        save_profile(*profile_, path.toStdString());
    } catch (const std::exception &e) {
        emit saveFailed(QString::fromStdString(e.what()));
        return;
    }
    status_->setText(tr("Saved to %1 for the sched-domains policies.").arg(path));
    emit useForSchedDomains(path, values);
}

void ProfilerPanel::showCell(int source, int target)
{
    // Mark the pair in both matrices, whichever was clicked.
    for (HeatmapView *view : {cost_view_, migration_view_})
        if (source < view->model()->rowCount() && target < view->model()->columnCount())
            view->setCurrentIndex(view->model()->index(source, target));
    cell_list_->clear();
    if (!recording_)
        return;
    const auto moves = migrations_in_cell(*recording_, source, target);
    // With the core analysis, each move also shows what it cost (refill +
    // remote stall); it lists the same migrations in the same time order.
    std::vector<std::size_t> items;
    if (analysis_)
        items = analysis_->items_in_cell(source, target);
    const bool with_cost = items.size() == moves.size();
    for (std::size_t i = 0; i < moves.size(); ++i) {
        const CellMigration &m = moves[i];
        auto *item = new QTreeWidgetItem(cell_list_);
        item->setText(0, QString::fromStdString(format_time_s(m.move.time_ns / 1e9)));
        item->setText(1, QString::number(m.move.task));
        item->setText(2, m.kind.empty() ? tr("(not logged)") : QString::fromStdString(m.kind));
        item->setText(3, QString::fromStdString(format_time_s(m.move.since_last_ran_ns / 1e9)));
        if (with_cost) {
            const MigrationItem &mi = analysis_->items[items[i]];
            item->setText(4, HistogramView::durationLabel(mi.cost_ns()) + (mi.hot ? tr(", hot") : QString()) +
                                 (mi.ping_pong ? tr(", ping-pong") : QString()));
        }
        item->setText(5, m.reason.empty() ? tr("no reason kept (the decision log is bounded)")
                                          : QString::fromStdString(m.reason));
        item->setToolTip(5, item->text(5));
    }
    const QStringList labels = puLabels();
    const QString from = source < labels.size() ? labels[source] : QString::number(source);
    const QString to = target < labels.size() ? labels[target] : QString::number(target);
    status_->setText(tr("CPU %1 \u2192 CPU %2: %3 migrations of %4.")
                         .arg(from, to)
                         .arg(moves.size())
                         .arg(run_name_.isEmpty() ? tr("the run") : run_name_));
}

} // namespace schedscope::gui
