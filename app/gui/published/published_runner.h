#pragma once
// Runs published experiments (run_published) off the GUI thread, as the
// profiler's runner does: start() returns at once; progress and the result
// come back as queued signals; cancel() raises run_published's cancel flag,
// which stops the simulations under way at their next progress check.

#include "background_job.h"
#include "scenario/published.h"

#include <QString>

#include <vector>

namespace schedscope::gui {

// Destroying it cancels and joins a run still going (BackgroundJob).
class PublishedRunner : public BackgroundJob {
    Q_OBJECT
public:
    explicit PublishedRunner(QObject *parent = nullptr);

    // False (and nothing started) when a run is already going. threads = 0:
    // one per hardware thread.
    bool start(std::vector<PublishedExperiment> experiments, bool quick, unsigned threads = 0);

signals:
    void progressed(int done, int total);
    void finished(const std::vector<schedscope::PublishedResult> &results);
    void cancelled();
    void failed(const QString &message);
};

} // namespace schedscope::gui
