#include "analysis/profiler_runner.h"

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
                self.data(), [self, fn]() { if (self) fn(*self); }, Qt::QueuedConnection);
        };
        try {
            MigrationProfiler profiler(*topology, options);
            MigrationProfile profile = profiler.run(cancel.get(), [&](int done, int total) {
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
