// Item models under QAbstractItemModelTester, attached before the models are
// filled (hotspot's tst_models.cpp habit), with its warnings turned into
// test failures.
#include "distance_matrix_model.h"
#include "test_machines.h"
#include "topology_tree_model.h"

#include <catch2/catch.hpp>

#include <QAbstractItemModelTester>

#include <atomic>

using namespace schedscope;
using namespace schedscope::gui;

namespace {

std::atomic<int> g_tester_warnings{0};
QtMessageHandler g_previous = nullptr;

void count_warnings(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (type == QtWarningMsg || type == QtCriticalMsg || type == QtFatalMsg)
        ++g_tester_warnings;
    if (g_previous)
        g_previous(type, context, message);
}

// Counts Qt warnings (which is how the tester reports in Warning mode) for
// the lifetime of the guard.
struct WarningCounter {
    WarningCounter()
    {
        g_tester_warnings = 0;
        g_previous = qInstallMessageHandler(count_warnings);
    }
    ~WarningCounter() { qInstallMessageHandler(g_previous); }
    int count() const { return g_tester_warnings; }
};

// Touches every index so the tester and data() see the whole tree.
int walk(const QAbstractItemModel &model, const QModelIndex &parent)
{
    int n = 0;
    for (int r = 0; r < model.rowCount(parent); ++r) {
        for (int c = 0; c < model.columnCount(parent); ++c)
            (void)model.data(model.index(r, c, parent));
        n += 1 + walk(model, model.index(r, 0, parent));
    }
    return n;
}

} // namespace

TEST_CASE("the topology tree model passes QAbstractItemModelTester", "[model]")
{
    WarningCounter warnings;
    TopologyTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Warning);
    CHECK(model.rowCount() == 0);

    auto topo = std::make_shared<const Topology>(test::make_machine({}));
    model.setTopology(topo);
    CHECK(walk(model, {}) == static_cast<int>(topo->objects().size()));
    CHECK(model.rowCount() == 1);
    const QModelIndex machine = model.index(0, 0);
    CHECK(model.data(machine).toString() == "Machine");
    CHECK(model.rowCount(machine) == 2);

    // Memory children come first, as lstopo lists them.
    const QModelIndex pkg = model.index(0, 0, machine);
    CHECK(model.data(pkg).toString() == "Package L#0");
    CHECK(model.data(model.index(0, 0, pkg)).toString() == "NUMANode L#0 P#0");
    CHECK(model.data(model.index(0, TopologyTreeModel::AttributesColumn, pkg)).toString() == "16GB");
    CHECK(model.data(model.index(1, 0, pkg)).toString() == "L3");
    CHECK(model.data(model.index(1, TopologyTreeModel::AttributesColumn, pkg)).toString() == "16MB");
    CHECK(model.data(pkg, Qt::DisplayRole).isValid());
    CHECK(model.data(model.index(0, TopologyTreeModel::CpusetColumn, machine)).toString() == "0-11");

    // Every object has an index that maps back to it.
    for (const TopoObject &o : topo->objects()) {
        const QModelIndex index = model.indexOfObject(o.id);
        REQUIRE(index.isValid());
        CHECK(model.objectAt(index) == o.id);
        CHECK(model.data(index, TopologyTreeModel::ObjIdRole).toInt() == o.id);
    }

    // A second, different topology: the reset path.
    model.setTopology(std::make_shared<const Topology>(test::make_machine({.packages = 4, .numa_per_package = false})));
    CHECK(walk(model, {}) > 0);
    model.setTopology(nullptr);
    CHECK(model.rowCount() == 0);
    CHECK(warnings.count() == 0);
}

TEST_CASE("the NUMA distance model passes QAbstractItemModelTester", "[model]")
{
    WarningCounter warnings;
    DistanceMatrixModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Warning);

    Topology t = test::make_machine({.packages = 3});
    t.set_distances({{10, 21, 31}, {21, 10, 21}, {31, 21, 10}});
    auto topo = std::make_shared<const Topology>(std::move(t));
    model.setTopology(topo);
    CHECK(model.rowCount() == 3);
    CHECK(model.columnCount() == 3);
    CHECK(model.isMeasured());
    CHECK(model.data(model.index(0, 2)).toInt() == 31);
    CHECK(model.headerData(1, Qt::Horizontal).toString() == "N1");
    // Farther is more tinted.
    const auto tint = [&](int r, int c) {
        return qvariant_cast<QColor>(model.data(model.index(r, c), Qt::BackgroundRole));
    };
    CHECK(tint(0, 0).green() > tint(0, 1).green());
    CHECK(tint(0, 1).green() > tint(0, 2).green());

    model.setTopology(std::make_shared<const Topology>(test::make_machine({})));
    CHECK_FALSE(model.isMeasured());
    CHECK(model.data(model.index(0, 1)).toInt() == 20); // assumed remote distance
    CHECK(walk(model, {}) == 2);                        // rows; walk() reads every cell of them
    CHECK(warnings.count() == 0);
}
