// Samples > Published experiments: the openings and reference marks of the
// shipped experiments, the table against the core's run_published number
// for number, Cancel mid-run, and the window opening one with its marks.
#include "main_window.h"
#include "panels/charts_panel.h"
#include "published/published_experiments.h"
#include "published/published_scenarios.h"
#include "published/published_table.h"
#include "sim/scenario_document.h"
#include "window_test_support.h"

#include <catch2/catch.hpp>

#include <QLabel>
#include <QMenu>
#include <QTableWidget>

#include <algorithm>

using namespace schedscope;
using namespace schedscope::gui;

namespace {

PublishedExperiment shipped(const std::string &name)
{
    return load_published(std::string(SCHEDSCOPE_SOURCE_SAMPLES_DIR) + "/published/" + name + ".json");
}

const ReferenceMark *find_mark(const std::vector<ReferenceMark> &marks, const std::string &label_part)
{
    auto it = std::find_if(marks.begin(), marks.end(),
                           [&](const ReferenceMark &m) { return m.label.find(label_part) != std::string::npos; });
    return it == marks.end() ? nullptr : &*it;
}

} // namespace

TEST_CASE("published experiments open as scenarios, one pane per policy, at most four", "[published]")
{
    const PublishedExperiment gorman = shipped("autonuma-4node");
    const auto openings = published_openings(gorman);
    // Four workloads, each run under 3.6.0 and autonuma-v33.
    REQUIRE(openings.size() == 4);
    const PublishedOpening &numa01 = openings[0];
    REQUIRE(numa01.scenario.policies.size() == 2);
    CHECK(numa01.scenario.policies[0].name == "cfs");
    CHECK(numa01.scenario.policies[1].name == "autonuma");
    CHECK(numa01.scenario.policies[0].label == "numa01 elapsed, 3.6.0");
    CHECK(numa01.scenario.workload.name == "numa01");
    // The pane runs both its elapsed and its system-time row.
    REQUIRE(numa01.rows[0].size() == 2);
    CHECK(gorman.rows[numa01.rows[0][1]].label == "numa01 system, 3.6.0");
    CHECK(openings[3].scenario.workload.name == gorman.rows[6].scenario.workload.name);

    // Nine cache_hot_time values: three parts of at most four panes.
    const PublishedExperiment oltp = shipped("cache-hot-time-oltp");
    const auto sweep = published_openings(oltp);
    REQUIRE(sweep.size() == 3);
    CHECK(sweep[0].scenario.policies.size() == 4);
    CHECK(sweep[2].scenario.policies.size() == 1);
    CHECK(sweep[0].title.find("2.5 ms") == 0);
    CHECK(sweep[2].scenario.policies[0].params.at("cache_hot_time_ms") == "1000");
    CHECK(sweep[0].scenario.duration_s == oltp.duration_s);

    CHECK(published_openings(shipped("migration-matrix-p3")).empty());
}

TEST_CASE("published figures become reference marks on the chart of their metric", "[published]")
{
    const PublishedExperiment gorman = shipped("autonuma-4node");
    CHECK(published_source_short(gorman.source) == "Gorman 2012");
    const PublishedOpening numa01 = published_openings(gorman).at(0);

    // Before our runs: only the absolute figures.
    const auto before = published_marks(gorman, numa01, nullptr);
    const ReferenceMark *elapsed = find_mark(before, "numa01 elapsed, 3.6.0");
    REQUIRE(elapsed);
    CHECK(elapsed->kind == ChartKind::Progress);
    CHECK(elapsed->vertical);
    CHECK(elapsed->value == 1519.5);
    CHECK(elapsed->run == 0);
    CHECK(elapsed->label == "Gorman 2012, numa01 elapsed, 3.6.0: 1519.5 s");
    // The system-time rows are the benchmark's own system time (task_sys_s);
    // the System time chart is the machine's kernel time, so they get no
    // mark there (the table beside the charts has them).
    CHECK_FALSE(find_mark(before, "numa01 system, autonuma-v33"));
    CHECK(mark_place("task_sys_s") == std::nullopt);
    const auto machine = mark_place("sys_s");
    REQUIRE(machine);
    CHECK(machine->kind == ChartKind::SystemTime);
    CHECK_FALSE(machine->vertical);
    // At full size every row of this table is absolute, AutoNUMA's too.
    const ReferenceMark *autonuma = find_mark(before, "numa01 elapsed, autonuma-v33");
    REQUIRE(autonuma);
    CHECK(autonuma->value == 757.4);
    CHECK(autonuma->run == 1);

    // A relative row needs ours: the 2003 kernels' kernbench, the rework's
    // rows relative to orig's.
    const PublishedExperiment tx7 = shipped("tx7-2003");
    const PublishedOpening kernbench = published_openings(tx7).at(0);
    REQUIRE(kernbench.scenario.policies.size() == 3);
    const auto kb_before = published_marks(tx7, kernbench, nullptr);
    CHECK(find_mark(kb_before, "kernbench, orig"));
    CHECK_FALSE(find_mark(kb_before, "kernbench, A2 as posted"));
    PublishedResult ours;
    ours.name = tx7.name;
    ours.rows.resize(tx7.rows.size());
    ours.rows[0].per_seed = {100, 110}; // "kernbench, orig", our seconds
    const auto after = published_marks(tx7, kernbench, &ours);
    const ReferenceMark *rel = find_mark(after, "kernbench, A2 as posted");
    REQUIRE(rel);
    CHECK(rel->value == Approx(136.74 / 134.43 * 105));
    CHECK(rel->run == 1);
    CHECK(after.size() == kb_before.size() + 2);

    // The OLTP sweep: the idle figures are absolute, the throughput index relative.
    const PublishedExperiment oltp = shipped("cache-hot-time-oltp");
    const auto parts = published_openings(oltp);
    const auto last = published_marks(oltp, parts[2], nullptr);
    REQUIRE(last.size() == 1);
    CHECK(last[0].kind == ChartKind::IdlePct);
    CHECK(last[0].value == 7);
}

TEST_CASE("the published table shows the numbers run_published gives", "[published][slow]")
{
    const PublishedExperiment oltp = shipped("cache-hot-time-oltp");
    PublishedTableDialog dialog;
    dialog.setExperiment(oltp);
    QTableWidget *t = dialog.table();
    REQUIRE(t->rowCount() == static_cast<int>(oltp.rows.size()));
    CHECK(t->item(3, PublishedTableDialog::PublishedColumn)->data(Qt::UserRole).toDouble() == 112.5);
    CHECK_FALSE(t->item(3, PublishedTableDialog::OursColumn));

    REQUIRE(dialog.run(true));
    CHECK(dialog.isRunning());
    REQUIRE(test::wait_until([&] { return !dialog.isRunning(); }, 300000));
    REQUIRE(dialog.result());

    // The CLI's reproduce --quick computes its table with the same call.
    const PublishedResult core = run_published({oltp}, true, 1).at(0);
    REQUIRE(core.rows.size() == oltp.rows.size());
    for (std::size_t i = 0; i < core.rows.size(); ++i) {
        const int r = static_cast<int>(i);
        INFO(core.rows[i].label);
        CHECK(t->item(r, PublishedTableDialog::RowColumn)->text().toStdString() == core.rows[i].label);
        CHECK(t->item(r, PublishedTableDialog::OursColumn)->data(Qt::UserRole).toDouble() == core.rows[i].ours);
        CHECK(t->item(r, PublishedTableDialog::OursColumn)->text().toStdString() ==
              format_published_value(core.rows[i].ours));
        const QVariantList range = t->item(r, PublishedTableDialog::RangeColumn)->data(Qt::UserRole).toList();
        REQUIRE(range.size() == 2);
        CHECK(range[0].toDouble() == core.rows[i].ours_min);
        CHECK(range[1].toDouble() == core.rows[i].ours_max);
        if (core.rows[i].ratio)
            CHECK(t->item(r, PublishedTableDialog::RatioColumn)->data(Qt::UserRole).toDouble() == *core.rows[i].ratio);
    }
    for (std::size_t i = 0; i < core.rows.size(); ++i) {
        const QTableWidgetItem *within = t->item(static_cast<int>(i), PublishedTableDialog::WithinColumn);
        REQUIRE(within);
        CHECK(within->data(Qt::UserRole).toBool() == core.rows[i].within);
    }
    const QString summary = dialog.summaryText();
    CHECK(summary.contains(QStringLiteral("direction: %1 (%2 of %3 claims)")
                               .arg(core.direction_ok ? "holds" : "DOES NOT HOLD")
                               .arg(core.claims_held)
                               .arg(core.claims)));
    CHECK(summary.contains(QStringLiteral("within \u00b130 % (or the published range): %1 of %2 rows")
                               .arg(core.within_30pct)
                               .arg(core.compared)));
    // The fitted/predicted mark, as the CLI prints it.
    CHECK(dialog.calibrationText().startsWith("calibration: fitted (oltp kOltpProcessesPerPu"));
    CHECK(dialog.findChild<QLabel *>("calibrationMark")->text() == dialog.calibrationText());
    CHECK(summary.contains("not comparable"));
}

TEST_CASE("the published table's Cancel stops a long run and keeps the window live", "[published]")
{
    PublishedTableDialog dialog;
    dialog.setExperiment(shipped("autonuma-4node")); // minutes of simulation in full
    REQUIRE(dialog.run(false));
    dialog.cancel();
    REQUIRE(test::wait_until([&] { return !dialog.isRunning(); }, 60000));
    CHECK_FALSE(dialog.result());
    CHECK(dialog.summaryText().isEmpty());
    CHECK(dialog.findChild<QLabel *>() != nullptr);
}

TEST_CASE("Samples > Published experiments opens one in the window with its marks", "[published]")
{
    test::QuietWindow w;
    auto *published = w.window.findChild<PublishedExperiments *>();
    REQUIRE(published);
    REQUIRE(published->loadError().isEmpty());
    REQUIRE(published->experiments().size() >= 10);
    // The menu holds an entry (or a submenu of parts) per experiment.
    QMenu *menu = nullptr;
    for (QMenu *m : w.window.findChildren<QMenu *>())
        if (m->title() == QStringLiteral("&Published experiments"))
            menu = m;
    REQUIRE(menu);
    CHECK(menu->actions().size() == static_cast<int>(published->experiments().size()));
    // Every entry carries its experiment's mark: fitted results are not predictions.
    for (std::size_t i = 0; i < published->experiments().size(); ++i) {
        const PublishedExperiment &e = published->experiments()[i];
        const QString text = menu->actions()[static_cast<int>(i)]->text();
        INFO(text.toStdString());
        CHECK(text.endsWith(QString::fromStdString(" [" + calibration_status_name(e.calibration.status) + "]")));
    }

    const PublishedExperiment gorman = shipped("autonuma-4node");
    REQUIRE(published->open(gorman, 0, false));
    CHECK(w.errors.isEmpty());
    const PublishedOpening opening = published_openings(gorman).at(0);
    CHECK(w.window.document()->scenario() == opening.scenario);
    ChartsPanel *charts = w.window.analysisDocks().charts;
    CHECK(charts->referenceMarks() == published_marks(gorman, opening, nullptr));
    bool on_progress = false;
    for (const ChartData &d : charts->charts())
        for (const ReferenceMark &m : d.marks)
            on_progress = on_progress || (d.kind == ChartKind::Progress && m.value == 1519.5);
    CHECK(on_progress);
    REQUIRE(published->table()->experiment());
    CHECK(published->table()->experiment()->name == "autonuma-4node");
    CHECK_FALSE(published->table()->isRunning());

    // Another scenario: the published figures no longer apply.
    REQUIRE(w.window.openTopology("sample:xeon-2node-24"));
    CHECK(charts->referenceMarks().empty());
}
