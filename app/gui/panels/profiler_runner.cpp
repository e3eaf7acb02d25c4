#include "panels/profiler_runner.h"

#include <exception>

namespace schedscope::gui {

ProfilerRunner::ProfilerRunner(QObject *parent) : BackgroundJob(parent)
{
    qRegisterMetaType<schedscope::MigrationProfile>("schedscope::MigrationProfile");
}

bool ProfilerRunner::start(std::shared_ptr<const Topology> topology, ProfilerOptions options)
{
    if (!topology)
        return false;
    return launch<ProfilerRunner>([topology, options](const auto &post, std::atomic<bool> &cancelled) {
        try {
            MigrationProfiler profiler(*topology, options);
            // At most one report per percent: one queued call per pair (262 144
            // on 512 PUs, the model does them in a fraction of a second) kept
            // the GUI thread busy for seconds draining them, so Cancel and the
            // result came late (found by the robustness test).
            int last_percent = -1;
            MigrationProfile profile = profiler.run(&cancelled, [&](int done, int total) {
                const int percent = total > 0 ? static_cast<int>(100LL * done / total) : 100;
                if (percent == last_percent && done != total)
                    return;
                last_percent = percent;
                post([done, total](ProfilerRunner &r) { emit r.progressed(done, total); });
            });
            post([profile = std::move(profile)](ProfilerRunner &r) {
                r.ended();
                emit r.finished(profile);
            });
        } catch (const std::exception &e) {
            post([message = QString::fromStdString(e.what())](ProfilerRunner &r) {
                r.ended();
                emit r.failed(message);
            });
        }
    });
}

} // namespace schedscope::gui
