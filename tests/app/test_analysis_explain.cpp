// The explain view: the filter's meaning, the plain-words entries, and the
// panel filtering a real log and showing a task's path, warmth and memory.
#include "panels/decision_filter.h"
#include "panels/decision_filter_model.h"
#include "panels/decision_log_model.h"
#include "panels/explain_panel.h"
#include "panels/task_snapshot.h"
#include "test_analysis_support.h"

#include <catch2/catch.hpp>

#include <QSignalSpy>

using namespace schedscope;
using namespace schedscope::gui;

TEST_CASE("the decision filter matches task, CPU and kind", "[analysis][explain]")
{
    const Decision pull{1'000'000, DecisionKind::Pull, 7, 3, 0, "CPU 0 idle: pulled task 7 from CPU 3"};
    const Decision pages{2'000'000, DecisionKind::PageMigrate, -1, 1, 0, "chunk 4 moved"};
    DecisionFilter f;
    CHECK(f.matches(pull));
    f.task = 7;
    CHECK(f.matches(pull));
    CHECK_FALSE(f.matches(pages));
    f = {};
    f.cpu = 3;
    CHECK(f.matches(pull));
    // Page migrations name nodes, not CPUs: node 1 is not CPU 1.
    f.cpu = 1;
    CHECK_FALSE(f.matches(pages));
    f = {};
    f.set_kind(DecisionKind::Pull, false);
    CHECK_FALSE(f.matches(pull));
    CHECK(f.matches(pages));

    CHECK(describe(pull) == "1.0 ms  pulled  task 7, CPU 3 \u2192 CPU 0: CPU 0 idle: pulled task 7 from CPU 3");
    CHECK(endpoints_text(pages) == "node 1 \u2192 node 0");
}

TEST_CASE("the explain panel filters a real log and explains a task", "[analysis][explain]")
{
    const test::SmallRuns runs = test::run_small_numa01(1'000'000'000);
    ExplainPanel panel;
    panel.setPaneNames(runs.names);
    for (int p = 0; p < 2; ++p)
        panel.setRecording(p, runs.sims[p].recording());
    panel.setCurrentPane(1);
    const Recording &rec = runs.sims[1].recording();
    REQUIRE(panel.logModel()->rowCount() == static_cast<int>(rec.decisions.size()));

    auto count_if = [&](auto pred) {
        return static_cast<int>(std::count_if(rec.decisions.begin(), rec.decisions.end(), pred));
    };
    SECTION("by task")
    {
        DecisionFilter f;
        f.task = 1;
        panel.setFilter(f);
        CHECK(panel.filterModel()->rowCount() == count_if([](const Decision &d) { return d.task == 1; }));
        CHECK(panel.filter().task == 1);
    }
    SECTION("by CPU")
    {
        DecisionFilter f;
        f.cpu = 2;
        panel.setFilter(f);
        const int expected = count_if(
            [](const Decision &d) { return endpoints_are_cpus(d) && (d.from == 2 || d.to == 2); });
        CHECK(expected > 0);
        CHECK(panel.filterModel()->rowCount() == expected);
    }
    SECTION("by kind")
    {
        DecisionFilter f;
        f.kinds = DecisionFilter::bit(DecisionKind::PageMigrate);
        panel.setFilter(f);
        const int expected = count_if([](const Decision &d) { return d.kind == DecisionKind::PageMigrate; });
        CHECK(expected > 0); // AutoNUMA moved memory
        CHECK(panel.filterModel()->rowCount() == expected);
    }
    SECTION("appending only adds what is new")
    {
        ExplainPanel growing;
        growing.setPaneNames(runs.names);
        Simulation sim = runs.sims[1];
        growing.setRecording(0, sim.recording());
        const int before = growing.logModel()->rowCount();
        sim.run_until(sim.now() + 300'000'000);
        growing.appendFrom(0, sim.recording());
        CHECK(growing.logModel()->rowCount() == static_cast<int>(sim.recording().decisions.size()));
        CHECK(growing.logModel()->rowCount() >= before);
    }
    SECTION("selecting a task shows its path, warmth and memory")
    {
        const Simulation &sim = runs.sims[1];
        panel.setSnapshotProvider([&](int, TaskId t) { return take_task_snapshot(sim, t, 1); });
        QSignalSpy selected(&panel, &ExplainPanel::taskSelected);
        TaskId moved = 0;
        if (!rec.migrations.empty())
            moved = rec.migrations.front().task;
        panel.selectTask(1, moved);
        REQUIRE(selected.count() == 1);
        CHECK(selected.first().at(1).toInt() == moved);
        const QString text = panel.detailText();
        CHECK(text.contains("Path over CPUs"));
        CHECK(text.contains("Warmth per cache"));
        CHECK(text.contains("Where its memory is"));

        const TaskSnapshot s = take_task_snapshot(sim, moved, 1);
        const auto n = std::count_if(rec.migrations.begin(), rec.migrations.end(),
                                     [&](const MigrationRecord &m) { return m.task == moved; });
        CHECK(static_cast<long>(s.path.size()) == n);
        CHECK(s.process_node_bytes.size() == 2);
        if (!s.path.empty())
            CHECK(cpu_at(s, sim.now()) == s.path.back().to_cpu);
        for (const auto &w : s.warmth)
            CHECK(w.bytes <= w.capacity_bytes + 1);
    }
}
