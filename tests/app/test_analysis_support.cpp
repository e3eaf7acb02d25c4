#include "test_analysis_support.h"

#include "image_checks.h"

#include "scenario/run.h"
#include "scenario/scenario.h"

#include <QImage>
#include <QMutex>
#include <QMutexLocker>

#include <atomic>
#include <set>

namespace schedscope::test {

std::vector<std::shared_ptr<const Recording>> SmallRuns::recordings() const
{
    std::vector<std::shared_ptr<const Recording>> out;
    for (const Simulation &sim : sims)
        out.push_back(std::make_shared<const Recording>(sim.recording()));
    return out;
}

SmallRuns run_small_numa01(SimTime until_ns)
{
    Scenario s;
    s.name = "analysis test";
    s.topology = "synthetic:pack:2 [numa] l3:1 core:2 pu:1";
    // Three threads per process on four CPUs: the balancers have tasks to
    // move, so every chart (task migrations included) has lines.
    s.workload = {"numa01", {{"memory_mb", "128"}, {"loops", "8"}, {"threads", "3"}}};
    // numa01's memory divided by 24 (128 MiB of 3 GiB): knuma_scand's 10 s
    // pause after a pass is divided by the same, as in the convergence
    // lesson, so that AutoNUMA acts within the 2 s run.
    s.policies = {{"sched-domains", {}}, {"autonuma", {{"scan_sleep_pass_ms", "417"}}}};
    s.sample_interval_ms = 50;
    SmallRuns runs;
    runs.topology = scenario_topology(s);
    for (const PolicySpec &p : s.policies) {
        Simulation sim = build_simulation(s, p, 1, runs.topology);
        sim.run_until(until_ns);
        runs.sims.push_back(std::move(sim));
        runs.names << QString::fromStdString(p.name);
    }
    return runs;
}

namespace {
std::atomic<int> g_warnings{0};
QMutex g_messages_mutex;
QStringList g_messages;
QtMessageHandler g_previous = nullptr;
void count_warning(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (type != QtDebugMsg && type != QtInfoMsg) {
        ++g_warnings;
        const QMutexLocker lock(&g_messages_mutex);
        g_messages << message;
    }
    if (g_previous)
        g_previous(type, context, message);
}
} // namespace

QtWarningCounter::QtWarningCounter()
{
    g_warnings = 0;
    {
        const QMutexLocker lock(&g_messages_mutex);
        g_messages.clear();
    }
    g_previous = qInstallMessageHandler(count_warning);
}
QtWarningCounter::~QtWarningCounter() { qInstallMessageHandler(g_previous); }
int QtWarningCounter::count() const { return g_warnings; }
QStringList QtWarningCounter::messages() const
{
    const QMutexLocker lock(&g_messages_mutex);
    return g_messages;
}

int distinct_colours(const QString &png_path) { return distinct_colours(QImage(png_path)); }

} // namespace schedscope::test
