#include "analysis_hookup.h"

#include "analysis/charts_panel.h"
#include "analysis/explain_panel.h"
#include "comparison_page.h"
#include "simulation_controller.h"

#include <memory>
#include <span>
#include <vector>

namespace schedscope::gui {

void attach_analysis(ComparisonPage *page, ChartsPanel *charts, ExplainPanel *explain)
{
    SimulationController *c = page->controller();
    // Samples already handed to the charts, per pane.
    auto fed = std::make_shared<std::vector<std::size_t>>();

    QObject::connect(c, &SimulationController::loaded, charts, [=](const RunSetupPtr &setup) {
        QStringList names;
        if (setup)
            for (const PolicySpec &p : setup->policies)
                names << QString::fromStdString(p.name);
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
                charts->appendSamples(static_cast<int>(i),
                                      std::span<const MetricsSample>(rec.samples.data() + done, rec.samples.size() - done));
            done = rec.samples.size();
        }
        charts->setCursorTime(f->time_ns);
    });

    QObject::connect(c, &SimulationController::recordingChanged, explain,
                     [=](int pane) { explain->appendFrom(pane, c->recording(pane)); });

    QObject::connect(charts, &ChartsPanel::cursorMoved, c, [c](SimTime t) {
        c->pause();
        c->seek(t);
    });
}

} // namespace schedscope::gui
