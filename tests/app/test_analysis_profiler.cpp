// The migration matrix against the recording it counts, the cell listing
// with reasons, and the profiler view: a full run, the "Use" action, and a
// clean cancel mid-run.
#include "../core/scoped_env.h"
#include "analysis/migration_analysis.h"
#include "panels/heatmap_model.h"
#include "panels/migration_matrix.h"
#include "panels/profiler_panel.h"
#include "profiler/profile_store.h"
#include "scenario/run.h"
#include "test_analysis_support.h"
#include "topology/import.h"

#include <catch2/catch.hpp>

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace schedscope;
using namespace schedscope::gui;

TEST_CASE("the migration matrix counts hand-made moves", "[analysis][profiler]")
{
    Recording rec;
    rec.migrations = {{10, 1, 0, 1, DistanceClass::SameCore, 5},
                      {10, 2, 0, 1, DistanceClass::SameCore, 0},
                      {20, 1, 1, 3, DistanceClass::RemoteNode, 7},
                      {30, 4, 9, 0, DistanceClass::RemoteNode, 7}}; // PU 9: not on this machine
    rec.decisions = {{10, DecisionKind::Pull, 1, 0, 1, "CPU 1 idle: pulled task 1"},
                     {10, DecisionKind::Wakeup, 2, 0, 1, "task 2 woken on CPU 1"},
                     {20, DecisionKind::Exchange, 1, 1, 3, "swapped"}};
    std::int64_t skipped = 0;
    const MigrationMatrix m = MigrationMatrix::from_recording(rec, 4, &skipped);
    CHECK(m.at(0, 1) == 2);
    CHECK(m.at(1, 3) == 1);
    CHECK(m.total == 3);
    CHECK(m.max_count == 2);
    CHECK(skipped == 1);

    const auto cell = migrations_in_cell(rec, 0, 1);
    REQUIRE(cell.size() == 2);
    CHECK(cell[0].kind == "pull");
    CHECK(cell[1].reason == "task 2 woken on CPU 1");
    rec.decisions.erase(rec.decisions.begin()); // the bounded log dropped it
    CHECK(migrations_in_cell(rec, 0, 1)[0].reason.empty());
}

TEST_CASE("the migration matrix of a real run equals the recording's counts", "[analysis][profiler]")
{
    const test::SmallRuns runs = test::run_small_numa01();
    for (const Simulation &sim : runs.sims) {
        const int n = sim.topology().pu_count();
        const MigrationMatrix m = MigrationMatrix::from_recording(sim.recording(), n);
        for (int a = 0; a < n; ++a)
            for (int b = 0; b < n; ++b) {
                const auto expected = std::count_if(
                    sim.recording().migrations.begin(), sim.recording().migrations.end(),
                    [&](const MigrationRecord &r) { return r.from_cpu == a && r.to_cpu == b; });
                CHECK(m.at(a, b) == expected);
            }
        const RunResult summary = summarize(sim, true);
        // Samples lag the recording by up to one interval; count what the run did.
        CHECK(m.total == static_cast<std::int64_t>(sim.recording().migrations.size()));
        CHECK(m.total >= summary.migrations_total);
    }
}

TEST_CASE("the profiler view profiles, lists a cell and hands the profile on", "[analysis][profiler]")
{
    const test::SmallRuns runs = test::run_small_numa01();
    QTemporaryDir dir;
    ProfilerPanel panel;
    panel.setProfileDirectory(dir.path());
    panel.setTopology(runs.topology, false);
    panel.setRun(runs.names[1], std::make_shared<const Recording>(runs.sims[1].recording()));

    QSignalSpy ready(&panel, &ProfilerPanel::profileReady);
    panel.start();
    CHECK(panel.isRunning());
    REQUIRE(ready.wait(20000));
    CHECK_FALSE(panel.isRunning());
    REQUIRE(panel.profile());
    CHECK(panel.profile()->complete);
    CHECK(panel.costModel()->size() == runs.topology->pu_count());
    CHECK(panel.migrationModel()->size() == runs.topology->pu_count());

    const auto &migs = runs.sims[1].recording().migrations;
    if (!migs.empty()) {
        panel.showCell(migs.front().from_cpu, migs.front().to_cpu);
        CHECK(panel.cellList()->topLevelItemCount() ==
              static_cast<int>(
                  migrations_in_cell(runs.sims[1].recording(), migs.front().from_cpu, migs.front().to_cpu).size()));
        CHECK(panel.migrationModel()->value(migs.front().from_cpu, migs.front().to_cpu) >= 1);
    }

    QSignalSpy used(&panel, &ProfilerPanel::useForSchedDomains);
    for (QPushButton *b : panel.findChildren<QPushButton *>())
        if (b->text().startsWith("Use for"))
            b->click();
    REQUIRE(used.count() == 1);
    const QString path = used.first().at(0).toString();
    CHECK(QFileInfo::exists(path));
    const MigrationProfile loaded = load_profile(path.toStdString());
    CHECK(loaded.matrix_ms.size() == static_cast<std::size_t>(runs.topology->pu_count()));
    const auto levels = used.first().at(1).value<QMap<QString, double>>();
    CHECK(levels.contains("overall"));
}

TEST_CASE("Use for sched-domains saves under the data directory with the name once", "[analysis][profiler]")
{
    // As main() names the application; restored afterwards for other tests.
    QTemporaryDir data;
    const schedscope::testing::ScopedEnv xdg("XDG_DATA_HOME", data.path().toStdString());
    const QString old_org = QCoreApplication::organizationName(), old_app = QCoreApplication::applicationName();
    QCoreApplication::setOrganizationName(QStringLiteral("schedscope"));
    QCoreApplication::setApplicationName(QStringLiteral("schedscope"));
    struct Restore {
        QString org, app;
        ~Restore()
        {
            QCoreApplication::setOrganizationName(org);
            QCoreApplication::setApplicationName(app);
        }
    } restore{old_org, old_app};

    const test::SmallRuns runs = test::run_small_numa01();
    ProfilerPanel panel;
    const QString expected = QDir(data.path()).filePath(QStringLiteral("schedscope"));
    CHECK(panel.profileDirectory() == expected);
    panel.setTopology(runs.topology, false);
    QSignalSpy ready(&panel, &ProfilerPanel::profileReady);
    panel.start();
    REQUIRE(ready.wait(20000));
    QSignalSpy used(&panel, &ProfilerPanel::useForSchedDomains);
    for (QPushButton *b : panel.findChildren<QPushButton *>())
        if (b->text().startsWith("Use for"))
            b->click();
    REQUIRE(used.count() == 1);
    const QFileInfo saved(used.first().at(0).toString());
    CHECK(saved.exists());
    CHECK(saved.absolutePath() == expected);
    CHECK_FALSE(QFileInfo::exists(QDir(expected).filePath(QStringLiteral("schedscope"))));
}

TEST_CASE("the profiler view cancels cleanly mid-run", "[analysis][profiler]")
{
    // A 512-PU machine: a quarter million pairs.
    auto topo = std::make_shared<const Topology>(import_synthetic("pack:8 [numa] l3:1 core:32 pu:2"));
    ProfilerPanel panel;
    panel.setTopology(topo, false);
    QSignalSpy progress(&panel, &ProfilerPanel::profileReady);
    panel.start();
    REQUIRE(panel.isRunning());
    // At once: since progress is reported once per percent rather than once
    // per pair, the model finishes the 512-PU run well within 50 ms.
    panel.cancel();
    REQUIRE((progress.count() == 1 || progress.wait(20000)));
    CHECK_FALSE(panel.isRunning());
    REQUIRE(panel.profile());
    CHECK_FALSE(panel.profile()->complete);

    SECTION("and a panel destroyed mid-run stops its thread")
    {
        auto *doomed = new ProfilerPanel;
        doomed->setTopology(topo, false);
        doomed->start();
        REQUIRE(doomed->isRunning());
        delete doomed; // must join, not crash
        SUCCEED();
    }
}

TEST_CASE("the profiler view shows the core's migration analysis of a run", "[analysis][profiler]")
{
    const test::SmallRuns runs = test::run_small_numa01();
    const Simulation &sim = runs.sims[1];
    ProfilerPanel panel;
    panel.setTopology(runs.topology, false);
    panel.setRun(runs.names[1], sim);
    REQUIRE(panel.analysis());
    const MigrationAnalysis &a = *panel.analysis();
    // The core's matrix, the plain one and the heatmap agree cell by cell.
    const MigrationMatrix plain = MigrationMatrix::from_recording(sim.recording(), runs.topology->pu_count());
    CHECK(a.pu_matrix.total() == plain.total);
    for (int f = 0; f < plain.pu_count; ++f)
        for (int t = 0; t < plain.pu_count; ++t) {
            CHECK(a.pu_matrix.count(f, t) == plain.at(f, t));
            CHECK(panel.migrationModel()->value(f, t) == Approx(static_cast<double>(plain.at(f, t))));
        }
    CHECK(panel.totalsText().contains("ping-pongs"));
    const auto &migs = sim.recording().migrations;
    if (!migs.empty()) {
        panel.showCell(migs.front().from_cpu, migs.front().to_cpu);
        REQUIRE(panel.cellList()->topLevelItemCount() > 0);
        CHECK_FALSE(panel.cellList()->topLevelItem(0)->text(4).isEmpty()); // its cost
    }
}
