#include "panels/profiler_runner.h"

#include <QMetaObject>
#include <QPointer>

#include <exception>

namespace schedscope::gui {

ProfilerRunner::ProfilerRunner(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<schedscope::MigrationProfile>("schedscope::MigrationProfile");
}

ProfilerRunner::~ProfilerRunner()
{
    cancel();
    join();
}

void ProfilerRunner::join()
{
    if (thread_.joinable())
        thread_.join();
}

bool ProfilerRunner::start(std::shared_ptr<const Topology> topology, ProfilerOptions options)
{
    if (running_ || !topology)
        return false;
    join(); // the previous run's thread has posted its result and is ending
    running_ = true;
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    // The thread owns copies of everything it reads; it talks back only
    // through queued calls guarded by a QPointer, so the runner may be
    // destroyed (after cancel + join) without the thread touching it.
    QPointer<ProfilerRunner> self(this);
    thread_ = std::thread([self, topology, options, cancel = cancel_]() {
        auto post = [self](auto fn) {
            QMetaObject::invokeMethod(
                self.data(),
                [self, fn]() {
                    if (self)
                        fn(*self);
                },
                Qt::QueuedConnection);
        };
        try {
            MigrationProfiler profiler(*topology, options);
            // At most one report per percent: one queued call per pair (262 144
            // on 512 PUs, the model does them in a fraction of a second) kept
            // the GUI thread busy for seconds draining them, so Cancel and the
            // result came late (found by the robustness test).
            int last_percent = -1;
            MigrationProfile profile = profiler.run(cancel.get(), [&](int done, int total) {
                const int percent = total > 0 ? static_cast<int>(100LL * done / total) : 100;
                if (percent == last_percent && done != total)
                    return;
                last_percent = percent;
                post([done, total](ProfilerRunner &r) { emit r.progressed(done, total); });
            });
            post([profile = std::move(profile)](ProfilerRunner &r) {
                r.running_ = false;
                emit r.finished(profile);
            });
        } catch (const std::exception &e) {
            post([message = QString::fromStdString(e.what())](ProfilerRunner &r) {
                r.running_ = false;
                emit r.failed(message);
            });
        }
    });
    return true;
}

void ProfilerRunner::cancel()
{
    if (cancel_)
        *cancel_ = true;
}

} // namespace schedscope::gui
