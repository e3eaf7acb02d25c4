// Renders each analysis panel with real data to PNG (QWidget::grab on the
// offscreen platform) and checks it has real content. Set
// SCHEDSCOPE_ANALYSIS_PNG_DIR to keep the images and look at them.
#include "panels/charts_panel.h"
#include "panels/explain_panel.h"
#include "panels/lesson_panel.h"
#include "panels/profiler_panel.h"
#include "panels/task_snapshot.h"
#include "test_analysis_support.h"

#include <catch2/catch.hpp>

#include <QDir>
#include <QSignalSpy>
#include <QTemporaryDir>

using namespace schedscope;
using namespace schedscope::gui;

namespace {

QString save(QWidget &w, const QString &dir, const QString &name)
{
    w.show();
    for (int i = 0; i < 3; ++i) // layouts and chart plot areas settle in posted events
        QCoreApplication::processEvents();
    const QString path = QDir(dir).filePath(name);
    REQUIRE(w.grab().save(path, "PNG"));
    return path;
}

} // namespace

TEST_CASE("each analysis panel renders real data", "[analysis][render]")
{
    QTemporaryDir tmp;
    const QString dir = qEnvironmentVariableIsEmpty("SCHEDSCOPE_ANALYSIS_PNG_DIR")
                            ? tmp.path()
                            : qEnvironmentVariable("SCHEDSCOPE_ANALYSIS_PNG_DIR");
    QDir().mkpath(dir);
    const test::SmallRuns runs = test::run_small_numa01(3'000'000'000);

    ChartsPanel charts;
    charts.resize(1200, 900);
    charts.setRuns(runs.names, runs.recordings(), {"numa01 #0", "numa01 #1"});
    charts.setProcess(0);
    charts.setCursorTime(runs.sims[0].now() / 2);
    CHECK(test::distinct_colours(save(charts, dir, "analysis-charts.png")) > 50);

    ProfilerPanel profiler;
    profiler.resize(1200, 800);
    profiler.setTopology(runs.topology, false);
    profiler.setRun(runs.names[1], runs.sims[1]);
    QSignalSpy ready(&profiler, &ProfilerPanel::profileReady);
    profiler.start();
    REQUIRE(ready.wait(20000));
    const auto &migs = runs.sims[1].recording().migrations;
    if (!migs.empty())
        profiler.showCell(migs.front().from_cpu, migs.front().to_cpu);
    CHECK(test::distinct_colours(save(profiler, dir, "analysis-profiler.png")) > 20);

    // The explain view shows a task mid-run, while its caches are warm.
    test::SmallRuns mid = test::run_small_numa01(1'200'000'000);
    ExplainPanel explain;
    explain.resize(1200, 700);
    explain.setPaneNames(runs.names);
    for (int p = 0; p < 2; ++p)
        explain.setRecording(p, mid.sims[p].recording());
    explain.setCurrentPane(1);
    explain.setSnapshotProvider([&](int pane, TaskId t) { return take_task_snapshot(mid.sims[pane], t, pane); });
    const auto &mid_migs = mid.sims[1].recording().migrations;
    explain.selectTask(1, mid_migs.empty() ? 0 : mid_migs.front().task);
    CHECK(test::distinct_colours(save(explain, dir, "analysis-explain.png")) > 20);

    LessonPanel lessons;
    lessons.resize(500, 800);
    lessons.setScenarioDirectory(QDir(QStringLiteral(SCHEDSCOPE_SOURCE_SAMPLES_DIR)).filePath("scenarios"));
    lessons.setCurrentLesson(2);
    CHECK(test::distinct_colours(save(lessons, dir, "analysis-lessons.png")) > 10);
}
