#include "analysis_hookup.h"

#include "comparison_page.h"
#include "comparison_view.h"
#include "panels/charts_panel.h"
#include "panels/explain_panel.h"
#include "panels/profiler_panel.h"
#include "simulation_controller.h"

#include <QDockWidget>

#include <algorithm>
#include <memory>
#include <span>
#include <vector>

namespace schedscope::gui {

void attach_analysis(ComparisonPage *page, ChartsPanel *charts, ExplainPanel *explain)
{
    SimulationController *c = page->controller();
    // Samples already handed to the charts, per pane.
    auto fed = std::make_shared<std::vector<std::size_t>>();

    auto previous = std::make_shared<RunSetupPtr>();
    QObject::connect(c, &SimulationController::loaded, charts, [=](const RunSetupPtr &setup) {
        const QStringList names = setup ? pane_label_list(*setup) : QStringList();
        // A re-run (new parameters) keeps the task being looked at; another
        // machine or workload has other tasks under the same numbers.
        const RunSetupPtr before = std::exchange(*previous, setup);
        if (!setup || !before || before->topology != setup->topology ||
            before->scenario.workload != setup->scenario.workload ||
            before->scenario.topology != setup->scenario.topology)
            explain->forgetTask();
        if (setup) {
            charts->setFixedWork(setup->fixed_work);
            charts->setNuma(setup->topology && setup->topology->numa_count() > 1);
        }
        fed->assign(static_cast<std::size_t>(names.size()), 0);
        charts->setRuns(names, std::vector<std::shared_ptr<const Recording>>(static_cast<std::size_t>(names.size())));
        explain->setPaneNames(names);
        for (int i = 0; i < names.size(); ++i)
            explain->setRecording(i, Recording{});
    });

    QObject::connect(c, &SimulationController::frameReady, charts, [=](const FrameSetPtr &f) {
        if (f->panes.empty())
            return;
        if (fed->size() != f->panes.size())
            fed->assign(f->panes.size(), 0);
        QStringList procs;
        for (const std::string &n : f->panes.front().process_names)
            procs << QString::fromStdString(n);
        charts->setProcessNames(procs);
        charts->setWorkloadMemory(
            std::any_of(f->panes.begin(), f->panes.end(), [](const PaneFrame &p) { return p.workload_memory; }));
        for (std::size_t i = 0; i < f->panes.size(); ++i) {
            const Recording &rec = c->recording(static_cast<int>(i));
            std::size_t &done = (*fed)[i];
            const std::size_t before = f->panes[i].samples_before;
            if (before < done) {
                // Scrubbed back: keep what the recording still has.
                charts->truncateRun(static_cast<int>(i), before == 0 ? -1 : rec.samples[before - 1].time_ns);
                done = before;
            }
            if (rec.samples.size() > done)
                charts->appendSamples(static_cast<int>(i), std::span<const MetricsSample>(rec.samples.data() + done,
                                                                                          rec.samples.size() - done));
            done = rec.samples.size();
            const PaneFigures &g = f->panes[i].figures;
            if (g.fixed_work && g.finished)
                charts->setRunEnd(static_cast<int>(i), static_cast<double>(g.end_ns) / 1e9);
        }
        charts->setCursorTime(f->time_ns);
    });

    QObject::connect(c, &SimulationController::recordingChanged, explain,
                     [=](int pane) { explain->appendFrom(pane, c->recording(pane)); });

    QObject::connect(charts, &ChartsPanel::cursorMoved, c, [c](SimTime t) {
        c->pause();
        c->seek(t);
    });

    // The provider only asks; the answer comes back from the simulation
    // thread. Only the latest question's answer is shown.
    auto asked = std::make_shared<std::pair<int, TaskId>>(-1, -1);
    explain->setSnapshotProvider([c, asked](int pane, TaskId task) -> std::optional<TaskSnapshot> {
        *asked = {pane, task};
        c->requestTaskSnapshot(pane, task);
        return std::nullopt;
    });
    QObject::connect(c, &SimulationController::taskSnapshotReady, explain, [explain, asked](const TaskSnapshot &s) {
        if (s.pane == asked->first && s.task == asked->second)
            explain->showTaskSnapshot(s);
    });
}

bool runs_on_detected_machine(const RunSetup &setup)
{
    return setup.scenario.topology.is_string() && setup.scenario.topology.get<std::string>() == "detect";
}

std::vector<std::pair<int, PolicySpec>> profile_policy_changes(const RunSetup &setup, int selected_pane,
                                                               const QString &profile_path,
                                                               const QMap<QString, double> &cache_hot_time_ms)
{
    // One pane, so the comparison stays one: the selected pane if it runs
    // sched-domains, else the first that does, else the selected one.
    const int n = static_cast<int>(setup.policies.size());
    const auto runs_domains = [&](int i) {
        return setup.policies[static_cast<std::size_t>(i)].name == "sched-domains";
    };
    std::vector<int> panes;
    if (selected_pane >= 0 && selected_pane < n && runs_domains(selected_pane))
        panes.push_back(selected_pane);
    for (int i = 0; i < n && panes.empty(); ++i)
        if (runs_domains(i))
            panes.push_back(i);
    if (panes.empty() && selected_pane >= 0 && selected_pane < n)
        panes.push_back(selected_pane);
    std::vector<std::pair<int, PolicySpec>> changes;
    for (int pane : panes) {
        PolicySpec spec = setup.policies[static_cast<std::size_t>(pane)];
        // Explicit levels win over a profile in the policy: drop them so the
        // new values are the ones that apply.
        for (auto it = spec.params.begin(); it != spec.params.end();)
            it = it->first.rfind("cache_hot_time_ms.", 0) == 0 ? spec.params.erase(it) : std::next(it);
        if (!profile_path.isEmpty()) {
            // The profile's values replace the pane's single value too
            // (BalancerParams::hot_ms_for): a label keeping it would lie.
            spec.params.erase("cache_hot_time_ms");
            spec.params.erase("migration_cost_ns");
            spec.params["autotune"] = "profile";
            spec.params["profile"] = profile_path.toStdString();
        } else {
            spec.params.erase("autotune");
            spec.params.erase("profile");
            for (auto it = cache_hot_time_ms.begin(); it != cache_hot_time_ms.end(); ++it)
                if (it.key() != QLatin1String("overall"))
                    spec.params["cache_hot_time_ms." + it.key().toStdString()] = QString::number(it.value())
                                                                                     .toStdString();
        }
        changes.emplace_back(pane, std::move(spec));
    }
    return changes;
}

void attach_profiler(ComparisonPage *page, ProfilerPanel *profiler, ExplainPanel *explain, QDockWidget *dock,
                     std::function<void(const QString &)> status)
{
    SimulationController *c = page->controller();
    auto shown_topology = std::make_shared<const Topology *>(nullptr);
    auto refresh = [c, explain, dock] {
        if (dock->isVisible() && c->frame() && !c->isPlaying())
            c->requestPaneCopy(explain->currentPane());
    };
    QObject::connect(c, &SimulationController::loaded, profiler, [=](const RunSetupPtr &setup) {
        // A re-run keeps its machine (and the profile made on it).
        if (!setup || setup->topology.get() == *shown_topology)
            return;
        *shown_topology = setup->topology.get();
        profiler->setTopology(setup->topology, runs_on_detected_machine(*setup));
    });
    QObject::connect(c, &SimulationController::frameReady, profiler, [=] { refresh(); });
    // The last frame of a finished run arrives while still "playing".
    QObject::connect(c, &SimulationController::playingChanged, profiler, [=](bool playing) {
        if (!playing)
            refresh();
    });
    QObject::connect(explain, &ExplainPanel::currentPaneChanged, profiler, [=] { refresh(); });
    QObject::connect(dock, &QDockWidget::visibilityChanged, profiler, [=](bool visible) {
        if (visible)
            refresh();
    });
    QObject::connect(c, &SimulationController::paneCopyReady, profiler,
                     [c, profiler](int pane, const std::shared_ptr<const Simulation> &sim) {
                         const RunSetupPtr setup = c->setup();
                         if (!setup || !sim || pane >= static_cast<int>(setup->policies.size()))
                             return;
                         profiler->setRun(
                             QStringLiteral("%1 (pane %2)").arg(pane_label_list(*setup).at(pane)).arg(pane + 1), *sim);
                     });
    QObject::connect(profiler, &ProfilerPanel::useForSchedDomains, page,
                     [=](const QString &path, const QMap<QString, double> &levels) {
                         const RunSetupPtr setup = c->setup();
                         if (!setup)
                             return;
                         const auto changes = profile_policy_changes(*setup, explain->currentPane(), path, levels);
                         if (changes.empty()) {
                             status(QObject::tr("No pane to apply the profile to"));
                             return;
                         }
                         page->applyPolicies(changes);
                         QStringList panes;
                         for (const auto &ch : changes)
                             panes << QString::number(ch.first + 1);
                         status(path.isEmpty()
                                    ? QObject::tr("Pane %1 re-run with the profile's cache_hot_time per level; "
                                                  "the other panes keep theirs")
                                          .arg(panes.join(QStringLiteral(", ")))
                                    : QObject::tr("Pane %1 re-run with autotune=profile, profile=%2; the other "
                                                  "panes keep theirs")
                                          .arg(panes.join(QStringLiteral(", ")), path));
                     });
    QObject::connect(profiler, &ProfilerPanel::saveFailed, page,
                     [status](const QString &message) { status(QObject::tr("Profile not saved: %1").arg(message)); });
}

} // namespace schedscope::gui
