#include "published/published_runner.h"

#include <exception>

namespace schedscope::gui {

PublishedRunner::PublishedRunner(QObject *parent) : BackgroundJob(parent)
{
    qRegisterMetaType<std::vector<schedscope::PublishedResult>>("std::vector<schedscope::PublishedResult>");
}

bool PublishedRunner::start(std::vector<PublishedExperiment> experiments, bool quick, unsigned threads)
{
    return launch<PublishedRunner>(
        [experiments = std::move(experiments), quick, threads](const auto &post, std::atomic<bool> &cancelled) {
            try {
                auto results = run_published(
                    experiments, quick, threads,
                    [&](int done, int total) {
                        post([done, total](PublishedRunner &r) { emit r.progressed(done, total); });
                    },
                    &cancelled);
                post([results = std::move(results)](PublishedRunner &r) {
                    r.ended();
                    emit r.finished(results);
                });
            } catch (const PublishedCancelled &) {
                post([](PublishedRunner &r) {
                    r.ended();
                    emit r.cancelled();
                });
            } catch (const std::exception &e) {
                post([message = QString::fromStdString(e.what())](PublishedRunner &r) {
                    r.ended();
                    emit r.failed(message);
                });
            }
        });
}

} // namespace schedscope::gui
