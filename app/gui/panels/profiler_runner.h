#pragma once
// Runs the migration profiler off the GUI thread (heaptrack's Parser
// pattern): start() returns at once, progress and the typed result come back
// as queued signals on the runner's thread. cancel() raises the profiler's
// own cancel flag; the run then ends with the pairs evaluated so far
// (complete == false), which is still a valid, partial profile.

#include "profiler/migration_profiler.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <thread>

namespace schedscope::gui {

class ProfilerRunner : public QObject {
    Q_OBJECT
public:
    explicit ProfilerRunner(QObject *parent = nullptr);
    // Cancels and joins a run still going: a window closing mid-measurement
    // must not leave a thread writing into freed memory.
    ~ProfilerRunner() override;

    // False (and nothing started) when a run is already going.
    bool start(std::shared_ptr<const Topology> topology, ProfilerOptions options);
    void cancel();
    bool isRunning() const { return running_; }

signals:
    void progressed(int done, int total);
    void finished(const schedscope::MigrationProfile &profile);
    // Bad options for this topology, or measurement impossible here.
    void failed(const QString &message);

private:
    void join();

    std::thread thread_;
    std::shared_ptr<std::atomic<bool>> cancel_;
    bool running_ = false;
};

} // namespace schedscope::gui
