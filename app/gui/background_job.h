#pragma once
// One long computation off the GUI thread at a time (heaptrack's Parser
// pattern), for the runners of the migration profiler and of the published
// experiments: launch() returns at once; the work reports back only through
// queued calls on the job's own thread, each guarded by a QPointer, so the
// job may be destroyed (after cancel and join) without the thread touching
// it. cancel() raises the flag the work was given; the destructor cancels
// and joins, so no thread outlives its job or writes into freed memory.

#include <QMetaObject>
#include <QObject>
#include <QPointer>

#include <atomic>
#include <memory>
#include <thread>
#include <utility>

namespace schedscope::gui {

class BackgroundJob : public QObject {
public:
    using QObject::QObject;
    ~BackgroundJob() override;
    BackgroundJob(const BackgroundJob &) = delete;
    BackgroundJob &operator=(const BackgroundJob &) = delete;

    void cancel();
    bool isRunning() const { return running_; }

protected:
    // Runs work(post, cancelled) on a thread of its own, where post(fn) has
    // fn(Derived &) called on this job's thread later (never once the job is
    // gone) and cancelled is the flag cancel() raises. The work owns copies
    // of whatever it reads. False, and nothing started, while a run is
    // going: the work's last post must call ended().
    template <class Derived, class Work> bool launch(Work work)
    {
        if (running_)
            return false;
        join(); // the previous run's thread has posted its result and is ending
        running_ = true;
        cancel_ = std::make_shared<std::atomic<bool>>(false);
        QPointer<Derived> self(static_cast<Derived *>(this));
        thread_ = std::thread([self, work = std::move(work), cancel = cancel_]() mutable {
            const auto post = [self](auto fn) {
                QMetaObject::invokeMethod(
                    self.data(),
                    [self, fn = std::move(fn)]() {
                        if (self)
                            fn(*self);
                    },
                    Qt::QueuedConnection);
            };
            work(post, *cancel);
        });
        return true;
    }
    // The run is over: the next launch() may start.
    void ended() { running_ = false; }

private:
    void join();

    std::thread thread_;
    std::shared_ptr<std::atomic<bool>> cancel_;
    bool running_ = false;
};

} // namespace schedscope::gui
