#pragma once
// Runs the migration profiler off the GUI thread (heaptrack's Parser
// pattern): start() returns at once, progress and the typed result come back
// as queued signals on the runner's thread. cancel() raises the profiler's
// own cancel flag; the run then ends with the pairs evaluated so far
// (complete == false), which is still a valid, partial profile.

#include "background_job.h"
#include "profiler/migration_profiler.h"

#include <QString>

#include <memory>

namespace schedscope::gui {

// Destroying it cancels and joins a run still going (BackgroundJob): a
// window closing mid-measurement leaves no thread behind.
class ProfilerRunner : public BackgroundJob {
    Q_OBJECT
public:
    explicit ProfilerRunner(QObject *parent = nullptr);

    // False (and nothing started) when a run is already going.
    bool start(std::shared_ptr<const Topology> topology, ProfilerOptions options);

signals:
    void progressed(int done, int total);
    void finished(const schedscope::MigrationProfile &profile);
    // Bad options for this topology, or measurement impossible here.
    void failed(const QString &message);
};

} // namespace schedscope::gui
