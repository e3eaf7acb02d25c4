#include "published/published_runner.h"

#include <QMetaObject>
#include <QPointer>

#include <exception>

namespace schedscope::gui {

PublishedRunner::PublishedRunner(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<std::vector<schedscope::PublishedResult>>("std::vector<schedscope::PublishedResult>");
}

PublishedRunner::~PublishedRunner()
{
    cancel();
    join();
}

void PublishedRunner::join()
{
    if (thread_.joinable())
        thread_.join();
}

bool PublishedRunner::start(std::vector<PublishedExperiment> experiments, bool quick, unsigned threads)
{
    if (running_)
        return false;
    join(); // the previous run's thread has posted its result and is ending
    running_ = true;
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    // The thread owns its inputs and talks back only through queued calls
    // guarded by a QPointer, so the runner may go (after cancel + join).
    QPointer<PublishedRunner> self(this);
    thread_ = std::thread([self, experiments = std::move(experiments), quick, threads, cancel = cancel_]() {
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
            auto results = run_published(
                experiments, quick, threads,
                [&](int done, int total) {
                    post([done, total](PublishedRunner &r) { emit r.progressed(done, total); });
                },
                cancel.get());
            post([results = std::move(results)](PublishedRunner &r) {
                r.running_ = false;
                emit r.finished(results);
            });
        } catch (const PublishedCancelled &) {
            post([](PublishedRunner &r) {
                r.running_ = false;
                emit r.cancelled();
            });
        } catch (const std::exception &e) {
            post([message = QString::fromStdString(e.what())](PublishedRunner &r) {
                r.running_ = false;
                emit r.failed(message);
            });
        }
    });
    return true;
}

void PublishedRunner::cancel()
{
    if (cancel_)
        *cancel_ = true;
}

} // namespace schedscope::gui
