#pragma once
// Runs published experiments (run_published) off the GUI thread, as the
// profiler's runner does: start() returns at once; progress and the result
// come back as queued signals; cancel() raises run_published's cancel flag,
// which stops the simulations under way at their next progress check.

#include "scenario/published.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

namespace schedscope::gui {

class PublishedRunner : public QObject {
    Q_OBJECT
public:
    explicit PublishedRunner(QObject *parent = nullptr);
    // Cancels and joins a run still going, so no thread outlives the runner.
    ~PublishedRunner() override;

    // False (and nothing started) when a run is already going. threads = 0:
    // one per hardware thread.
    bool start(std::vector<PublishedExperiment> experiments, bool quick, unsigned threads = 0);
    void cancel();
    bool isRunning() const { return running_; }

signals:
    void progressed(int done, int total);
    void finished(const std::vector<schedscope::PublishedResult> &results);
    void cancelled();
    void failed(const QString &message);

private:
    void join();

    std::thread thread_;
    std::shared_ptr<std::atomic<bool>> cancel_;
    bool running_ = false;
};

} // namespace schedscope::gui
