// The analysis item models under QAbstractItemModelTester, attached before
// they are filled, with the tester's warnings counted as failures.
#include "panels/decision_filter_model.h"
#include "panels/decision_log_model.h"
#include "panels/heatmap_model.h"
#include "panels/migration_matrix.h"
#include "test_analysis_support.h"

#include <catch2/catch.hpp>

#include <QAbstractItemModelTester>

#include <cmath>

using namespace schedscope;
using namespace schedscope::gui;

namespace {
void touch_all(const QAbstractItemModel &m)
{
    for (int r = 0; r < m.rowCount(); ++r)
        for (int c = 0; c < m.columnCount(); ++c)
            for (int role :
                 {int(Qt::DisplayRole), int(Qt::ToolTipRole), int(Qt::BackgroundRole), int(Qt::UserRole + 1)})
                (void)m.data(m.index(r, c), role);
}
} // namespace

TEST_CASE("the heatmap model passes QAbstractItemModelTester", "[analysis][model]")
{
    test::QtWarningCounter warnings;
    HeatmapModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Warning);
    model.setMatrix({1, 2, std::nan(""), 4}, {"0", "1"}, 1, "ms");
    touch_all(model);
    CHECK(model.data(model.index(0, 1)).toString() == "2.0");
    CHECK(model.data(model.index(1, 0)).toString() == "-");
    CHECK(model.data(model.index(1, 1), HeatmapModel::FractionRole).toDouble() == Approx(1.0));
    model.setShowValues(false);
    CHECK(model.data(model.index(0, 0)).toString().isEmpty());
    model.clear();
    CHECK(model.rowCount() == 0);
    CHECK(warnings.count() == 0);
}

TEST_CASE("the decision log and its filter pass QAbstractItemModelTester", "[analysis][model]")
{
    const test::SmallRuns runs = test::run_small_numa01(500'000'000);
    const auto &decisions = runs.sims[1].recording().decisions;
    REQUIRE(decisions.size() > 10);

    test::QtWarningCounter warnings;
    DecisionLogModel log;
    DecisionFilterModel filter;
    QAbstractItemModelTester log_tester(&log, QAbstractItemModelTester::FailureReportingMode::Warning);
    QAbstractItemModelTester filter_tester(&filter, QAbstractItemModelTester::FailureReportingMode::Warning);
    filter.setSourceModel(&log);

    const std::size_t half = decisions.size() / 2;
    log.setDecisions({decisions.begin(), decisions.begin() + static_cast<std::ptrdiff_t>(half)});
    log.appendDecisions(std::span(decisions).subspan(half));
    CHECK(log.rowCount() == static_cast<int>(decisions.size()));
    touch_all(log);

    DecisionFilter f;
    f.task = decisions.front().task >= 0 ? decisions.front().task : 0;
    filter.setFilter(f);
    touch_all(filter);
    for (int r = 0; r < filter.rowCount(); ++r)
        CHECK(filter.data(filter.index(r, 0), DecisionLogModel::TaskRole).toInt() == *f.task);
    filter.setFilter({});
    CHECK(filter.rowCount() == log.rowCount());
    log.clear();
    CHECK(filter.rowCount() == 0);
    CHECK(warnings.count() == 0);
}
