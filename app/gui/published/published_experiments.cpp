#include "published/published_experiments.h"

#include "main_window.h"
#include "panels/charts_panel.h"
#include "published/published_table.h"
#include "sim/scenario_document.h"

#include <QDockWidget>
#include <QMenu>

namespace schedscope::gui {

PublishedExperiments::PublishedExperiments(MainWindow *window) : QObject(window), window_(window)
{
    setObjectName(QStringLiteral("publishedExperiments"));
    table_ = new PublishedTableDialog(window);
    table_->setObjectName(QStringLiteral("publishedTable"));
    connect(table_, &PublishedTableDialog::resultReady, this, &PublishedExperiments::updateMarks);
    connect(window->document(), &ScenarioDocument::changed, this, &PublishedExperiments::documentChanged);
}

void PublishedExperiments::load()
{
    if (loaded_)
        return;
    loaded_ = true;
    try {
        experiments_ = load_published_dir(published_dir());
    } catch (const std::exception &e) {
        load_error_ = QString::fromStdString(e.what());
    }
}

void PublishedExperiments::fillMenu(QMenu *menu)
{
    load();
    menu->setToolTipsVisible(true);
    if (!load_error_.isEmpty()) {
        // Visible rather than missing: the entry says which file is wrong.
        QAction *a = menu->addAction(tr("(cannot read the published experiments)"));
        a->setEnabled(false);
        a->setToolTip(load_error_);
        return;
    }
    if (experiments_.empty())
        menu->addAction(tr("(no published experiments)"))->setEnabled(false);
    for (std::size_t i = 0; i < experiments_.size(); ++i) {
        const PublishedExperiment &e = experiments_[i];
        // The mark in the entry itself: fitted results are not predictions.
        const QString title = QString::fromStdString(e.name + ": " + e.title + " [" +
                                                     calibration_status_name(e.calibration.status) + "]");
        const QString tip = QString::fromStdString(e.source.thread + " (" + e.source.author + ", " + e.source.date +
                                                   ")");
        const std::vector<PublishedOpening> openings = published_openings(e);
        if (openings.size() <= 1) {
            QAction *a = menu->addAction(title, this, [this, i] { open(experiments_[i], 0); });
            a->setToolTip(tip);
            continue;
        }
        QMenu *sub = menu->addMenu(title);
        sub->setToolTipsVisible(true);
        for (std::size_t k = 0; k < openings.size(); ++k)
            sub->addAction(QString::fromStdString(openings[k].title), this, [this, i, k] { open(experiments_[i], k); })
                ->setToolTip(tip);
    }
}

bool PublishedExperiments::open(const PublishedExperiment &e, std::size_t opening, bool run)
{
    if (!window_->maybeSave())
        return false;
    const std::vector<PublishedOpening> openings = published_openings(e);
    bool shown = false;
    if (e.kind == PublishedKind::Profile) {
        shown = window_->openTopology(e.topology);
        shown_.reset();
        opening_.reset();
    } else if (opening < openings.size()) {
        shown = window_->showScenario(openings[opening].scenario, {});
        if (shown) {
            // After showScenario: its document change must not clear these.
            shown_ = e;
            opening_ = openings[opening];
            window_->analysisDocks().charts->setReferenceMarks(published_marks(e, *opening_, nullptr));
            if (QDockWidget *dock = window_->analysisDocks().charts_dock)
                dock->show();
        }
    }
    if (!shown)
        return false;
    if (!table_->experiment() || table_->experiment()->name != e.name || !table_->result()) {
        table_->setExperiment(e);
        if (run)
            table_->run(false);
    } else {
        updateMarks(); // the table already holds ours: the relative marks too
    }
    table_->show();
    table_->raise();
    return true;
}

void PublishedExperiments::documentChanged()
{
    // Another scenario, or this one edited: the published figures no longer apply.
    if (opening_ && window_->document()->scenario() == opening_->scenario)
        return;
    if (opening_ || !window_->analysisDocks().charts->referenceMarks().empty()) {
        shown_.reset();
        opening_.reset();
        window_->analysisDocks().charts->setReferenceMarks({});
    }
}

void PublishedExperiments::updateMarks()
{
    if (!shown_ || !opening_)
        return;
    const auto &result = table_->result();
    const bool ours = result && result->name == shown_->name;
    window_->analysisDocks().charts->setReferenceMarks(published_marks(*shown_, *opening_, ours ? &*result : nullptr));
}

} // namespace schedscope::gui
