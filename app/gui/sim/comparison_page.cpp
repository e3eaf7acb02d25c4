#include "comparison_page.h"

#include "analysis_hookup.h"
#include "comparison_view.h"
#include "playback_bar.h"
#include "policy_dialog.h"
#include "simulation_controller.h"
#include "simulation_pane.h"

#include <QLabel>
#include <QVBoxLayout>

#include <exception>

namespace schedscope::gui {

QString start_hint_html(const RunSetup *setup, bool has_played)
{
    QStringList parts;
    if (!has_played)
        parts << QObject::tr("Press <b>Space</b> (or Play) to start; double-click a pane's header to change its "
                             "policy; Ctrl+Shift+C shows the charts.");
    // A laptop or a small VM: memory placement, the thing most lessons are
    // about, has nothing to show on one node. Offer a machine where it has.
    if (setup && setup->topology && setup->topology->numa_count() < 2 && runs_on_detected_machine(*setup))
        parts << QObject::tr("This machine has a single NUMA node, so no memory moves here: "
                             "<a href=\"open:numa-sample\">open a 2-node NUMA machine</a> or "
                             "<a href=\"open:numa-lesson\">the NUMA convergence lesson</a>.");
    return parts.join(QLatin1Char(' '));
}

ComparisonPage::ComparisonPage(QWidget *parent)
    : QWidget(parent), controller_(new SimulationController(this)), view_(new ComparisonView(this)),
      bar_(new PlaybackBar(this))
{
    hint_ = new QLabel(this);
    hint_->setWordWrap(true);
    hint_->setTextFormat(Qt::RichText);
    hint_->setStyleSheet(QStringLiteral("QLabel { background: #fff8dc; padding: 3px 6px; }"));
    connect(hint_, &QLabel::linkActivated, this, &ComparisonPage::hintLinkActivated);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(2);
    layout->addWidget(hint_);
    layout->addWidget(view_, 1);
    layout->addWidget(bar_);

    connect(controller_, &SimulationController::frameReady, view_, &ComparisonView::showFrame);
    connect(controller_, &SimulationController::frameReady, bar_,
            [this](const FrameSetPtr &f) { bar_->setTime(f->time_ns, f->furthest_ns); });
    connect(controller_, &SimulationController::playingChanged, bar_, &PlaybackBar::setPlaying);
    connect(controller_, &SimulationController::playingChanged, view_, [this](bool playing) {
        if (playing) {
            view_->restartFpsCount();
            has_played_ = true;
            updateHint();
        }
    });
    connect(controller_, &SimulationController::loaded, this, [this] { updateHint(); });
    // Stepping or a headless --run-to moves time too: the hint has done its job.
    connect(controller_, &SimulationController::frameReady, this, [this](const FrameSetPtr &f) {
        if (!has_played_ && f->time_ns > 0) {
            has_played_ = true;
            updateHint();
        }
    });
    updateHint();
    connect(controller_, &SimulationController::loadFailed, this, &ComparisonPage::loadFailed);
    connect(view_, &ComparisonView::fpsChanged, bar_, &PlaybackBar::setFps);
    // The real rate: simulated time reached per wall second, over about a
    // second of playing (PlaybackBar shows it when it falls short).
    connect(controller_, &SimulationController::playingChanged, this, [this](bool playing) {
        rate_wall_.invalidate();
        if (playing) {
            rate_wall_.start();
            rate_from_ns_ = controller_->time();
        }
    });
    connect(controller_, &SimulationController::frameReady, this, [this](const FrameSetPtr &f) {
        if (!controller_->isPlaying() || !rate_wall_.isValid() || !f->continuous)
            return;
        constexpr qint64 kRateWindowMs = 1000;
        const qint64 ms = rate_wall_.elapsed();
        if (ms < kRateWindowMs)
            return;
        bar_->setActualRate(static_cast<double>(f->time_ns - rate_from_ns_) / 1e9 / (static_cast<double>(ms) / 1e3));
        rate_wall_.restart();
        rate_from_ns_ = f->time_ns;
    });
    connect(view_, &ComparisonView::editPaneRequested, this, &ComparisonPage::editPane);
    connect(bar_, &PlaybackBar::playToggled, controller_, &SimulationController::togglePlay);
    connect(bar_, &PlaybackBar::stepRequested, controller_, &SimulationController::stepTick);
    connect(bar_, &PlaybackBar::resetRequested, controller_, &SimulationController::reset);
    connect(bar_, &PlaybackBar::speedChanged, controller_, &SimulationController::setSpeed);
    connect(bar_, &PlaybackBar::seekRequested, controller_, [this](SimTime t) {
        controller_->pause();
        controller_->seek(t);
    });
}

bool ComparisonPage::loadScenario(const Scenario &scenario, std::shared_ptr<const Topology> topology, QString *error)
{
    RunSetupPtr setup;
    try {
        setup = make_run_setup(scenario, std::move(topology));
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    view_->setSetup(setup);
    controller_->load(setup);
    bar_->setTime(0, 0);
    return true;
}

void ComparisonPage::updateHint()
{
    const RunSetupPtr setup = controller_->setup();
    const QString html = start_hint_html(setup.get(), has_played_);
    hint_->setText(html);
    hint_->setVisible(!html.isEmpty());
}

void ComparisonPage::editPane(int pane)
{
    const RunSetupPtr setup = controller_->setup();
    if (!setup || pane < 0 || pane >= static_cast<int>(setup->policies.size()))
        return;
    controller_->pause();
    PolicyDialog dialog(setup->policies[pane], this);
    dialog.setWindowTitle(tr("Pane %1: policy parameters").arg(pane + 1));
    if (dialog.exec() != QDialog::Accepted)
        return;
    const PolicySpec spec = dialog.spec();
    std::vector<PolicySpec> policies = setup->policies;
    policies[static_cast<std::size_t>(pane)] = spec;
    controller_->setPolicy(pane, spec);
    updateHeaders(policies);
    emit scenarioModified(controller_->setup()->scenario);
}

void ComparisonPage::setSpeed(double speed)
{
    controller_->setSpeed(speed);
    bar_->setSpeed(controller_->speed());
}

// One pane's new parameters can change every pane's label (pane_label.h).
void ComparisonPage::updateHeaders(const std::vector<PolicySpec> &policies)
{
    for (int i = 0; i < view_->paneCount() && i < static_cast<int>(policies.size()); ++i)
        view_->pane(i)->setParamsText(params_summary(policies, i));
}

void ComparisonPage::applyPolicies(const std::vector<std::pair<int, PolicySpec>> &changes)
{
    if (!controller_->setup() || changes.empty())
        return;
    std::vector<PolicySpec> policies = controller_->setup()->policies;
    for (const auto &[pane, spec] : changes)
        if (pane >= 0 && pane < static_cast<int>(policies.size()))
            policies[static_cast<std::size_t>(pane)] = spec;
    controller_->setPolicies(changes);
    updateHeaders(policies);
    emit scenarioModified(controller_->setup()->scenario);
}

} // namespace schedscope::gui
