// One label per pane, used everywhere (scenario/pane_label.h): two panes running the same policy
// with different parameters must read differently in every chart legend and
// hover text, the Explain pane picker, the charts' CSV and the trace export.
#include "main_window.h"
#include "panels/charts_panel.h"
#include "panels/cursor_chart_view.h"
#include "panels/explain_panel.h"
#include "panels/node_multiples_view.h"
#include "sim/comparison_page.h"
#include "sim/policy_dialog.h"
#include "sim/scenario_document.h"
#include "sim/simulation_controller.h"
#include "trace_export_job.h"
#include "window_test_support.h"

#include "scenario/pane_label.h"
#include "scenario/scenario.h"

#include <catch2/catch.hpp>

#include <QChart>
#include <QFile>
#include <QLegendMarker>
#include <QLineEdit>
#include <QTemporaryDir>

#include <set>

using namespace schedscope;
using namespace schedscope::gui;
using schedscope::test::QuietWindow;

namespace {

const QString kShort = QStringLiteral("sched-domains cache_hot_time=2.5ms");
const QString kLong = QStringLiteral("sched-domains cache_hot_time=10ms");

Scenario two_sched_domains()
{
    Scenario s;
    s.name = "labels";
    s.topology = "synthetic:pack:2 [numa] l3:1 core:2 pu:2";
    // Ten threads on eight PUs: the balancer has work to move, so the
    // migrations chart has lines (one thread per PU balances perfectly and
    // never migrates under the 2.6.9 rules).
    s.workload = {"numa01", {{"memory_mb", "32"}, {"loops", "2"}, {"threads", "5"}}};
    s.policies = {{"sched-domains", {{"cache_hot_time_ms", "2.5"}}, {}},
                  {"sched-domains", {{"cache_hot_time_ms", "10"}}, {}}};
    return s;
}

QStringList legend_labels(const CursorChartView *view)
{
    QStringList out;
    for (QLegendMarker *m : view->chart()->legend()->markers())
        out << m->label();
    return out;
}

std::vector<std::string> labels(std::vector<PolicySpec> p) { return pane_labels(p); }

QString read_all(const QString &path)
{
    QFile f(path);
    REQUIRE(f.open(QIODevice::ReadOnly));
    return QString::fromUtf8(f.readAll());
}

} // namespace

TEST_CASE("labels: same-named policies read apart in legends, hover, Explain, CSV and trace", "[label]")
{
    QuietWindow w;
    w.window.resize(1280, 720);
    w.window.show();
    w.window.showDocks({QStringLiteral("charts"), QStringLiteral("explain")});
    REQUIRE(w.window.showScenario(two_sched_domains(), {}));
    SimulationController *c = w.window.comparisonPage()->controller();
    REQUIRE(c->runTo(300'000'000));
    const AnalysisDocks &d = w.window.analysisDocks();
    d.charts->redraw();

    // Every chart's legend and hover text name each line by its pane's
    // label, never by the bare policy twice. Idle time has a line per pane.
    for (const CursorChartView *view : d.charts->views()) {
        INFO(chart_title(view->chartData().kind));
        const QStringList legend = legend_labels(view);
        const QString hover = view->valuesText(0.25);
        REQUIRE_FALSE(view->chartData().lines.empty());
        for (const ChartLine &line : view->chartData().lines) {
            const QString label = QString::fromStdString(line.label);
            INFO(label.toStdString());
            CHECK((label.startsWith(kShort) || label.startsWith(kLong)));
            CHECK(legend.contains(label));
            CHECK(hover.contains(label));
        }
        CHECK_FALSE(legend.contains(QStringLiteral("sched-domains")));
    }
    const CursorChartView *idle = d.charts->views()[3];
    REQUIRE(idle->chartData().kind == ChartKind::IdlePct);
    CHECK(legend_labels(idle) == QStringList({kShort, kLong}));
    // The dock's key names each pane once, whole; node convergence titles
    // each small chart with its pane's label.
    CHECK(d.charts->keyText().contains(kShort));
    CHECK(d.charts->keyText().contains(kLong));
    REQUIRE(d.charts->nodeMultiples()->charts().size() == 2);
    CHECK(d.charts->nodeMultiples()->charts()[0]->chart()->title() == kShort);
    CHECK(d.charts->nodeMultiples()->charts()[1]->chart()->title() == kLong);

    CHECK(d.explain->paneNames() == QStringList({kShort, kLong}));

    QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("charts.csv"));
    REQUIRE(d.charts->exportCsv(csv));
    const QString header = read_all(csv).section(QLatin1Char('\n'), 0, 0);
    CHECK(header.contains(QStringLiteral("Idle time: %1 [%]").arg(kShort)));
    CHECK(header.contains(QStringLiteral("Idle time: %1 [%]").arg(kLong)));

    TraceExportJob job{c->setup(), dir.filePath(QStringLiteral("t.json")).toStdString(), {}};
    job.options.window.end_ns = 50'000'000;
    run_trace_job(job);
    const QString trace = read_all(dir.filePath(QStringLiteral("t.json")));
    CHECK(trace.contains(QStringLiteral("\"%1\"").arg(kShort)));
    CHECK(trace.contains(QStringLiteral("\"%1\"").arg(kLong)));
    CHECK(w.errors.isEmpty());
}

TEST_CASE("labels: a label given in the parameters dialog names the pane everywhere", "[label]")
{
    QuietWindow w;
    REQUIRE(w.window.showScenario(two_sched_domains(), {}));
    SimulationController *c = w.window.comparisonPage()->controller();
    REQUIRE(c->waitLoaded());

    PolicyDialog dialog(c->setup()->policies[1]);
    dialog.labelEdit()->setText(QStringLiteral("  2004 default  "));
    const PolicySpec spec = dialog.spec();
    CHECK(spec.label == "2004 default");
    CHECK(dialog.valid());
    w.window.comparisonPage()->applyPolicies({{1, spec}});
    REQUIRE(schedscope::test::wait_until([&] { return c->setup()->policies[1].label == "2004 default"; }));
    REQUIRE(c->waitLoaded());
    const AnalysisDocks &d = w.window.analysisDocks();
    // The unnamed pane still says what sets it apart from the other sched-domains.
    CHECK(d.explain->paneNames() == QStringList({kShort, QStringLiteral("2004 default")}));
    // The scenario saved from here keeps the name.
    CHECK(w.window.document()->scenario().policies[1].label == "2004 default");
}

// The label function itself (scenario/pane_label.h), without a window.

TEST_CASE("labels: a policy that runs once is labelled by its name alone", "[label][unit]")
{
    CHECK(labels({{"sched-domains", {{"cache_hot_time_ms", "10"}}, {}}, {"autonuma", {}, {}}}) ==
          std::vector<std::string>{"sched-domains", "autonuma"});
}

TEST_CASE("labels: same-named policies are told apart by the parameters that differ", "[label][unit]")
{
    CHECK(labels({{"sched-domains", {{"cache_hot_time_ms", "2.5"}}, {}},
                  {"sched-domains", {{"cache_hot_time_ms", "10"}}, {}}}) ==
          std::vector<std::string>{"sched-domains cache_hot_time=2.5ms", "sched-domains cache_hot_time=10ms"});
    CHECK(labels({{"bind", {{"mode", "hard"}}, {}}, {"bind", {{"mode", "inverse"}}, {}}, {"autonuma", {}, {}}}) ==
          std::vector<std::string>{"bind mode=hard", "bind mode=inverse", "autonuma"});
    CHECK(labels({{"sched-domains", {{"wakeup", "locked"}}, {}}, {"sched-domains", {{"wakeup", "queued"}}, {}}}) ==
          std::vector<std::string>{"sched-domains wakeup=locked", "sched-domains wakeup=queued"});
}

TEST_CASE("labels: parameters all panes share are left out, and a pane at its defaults says so", "[label][unit]")
{
    const auto l = labels({{"linux-2.5-numa", {}, {}},
                           {"linux-2.5-numa", {{"idle_node_rebalance_tick_ms", "5"}}, {}},
                           {"linux-2.5-numa", {{"idle_balance_mask", "cpu"}}, {}}});
    CHECK(l == std::vector<std::string>{"linux-2.5-numa (defaults)", "linux-2.5-numa idle_node_rebalance_tick=5ms",
                                        "linux-2.5-numa idle_balance_mask=cpu"});
    // A shared setting is in the pane header, not in every label.
    CHECK(labels({{"sched-domains", {{"wakeup", "queued"}, {"cache_hot_time_ms", "1"}}, {}},
                  {"sched-domains", {{"wakeup", "queued"}, {"cache_hot_time_ms", "2"}}, {}}}) ==
          std::vector<std::string>{"sched-domains cache_hot_time=1ms", "sched-domains cache_hot_time=2ms"});
}

TEST_CASE("labels: the user's label wins, and labels never collide", "[label][unit]")
{
    CHECK(labels({{"sched-domains", {}, "2.6.9"}, {"sched-domains", {{"cache_hot_time_ms", "0"}}, {}}})[0] == "2.6.9");
    const auto same = labels({{"autonuma", {}, {}}, {"autonuma", {}, {}}, {"x", {}, "autonuma"}});
    CHECK(std::set<std::string>(same.begin(), same.end()).size() == 3);
    CHECK(same[0] == "autonuma");
    CHECK(same[1] == "autonuma #2");
    // "2.5" and "2.50" are one setting: nothing differs, so numbers tell them apart.
    CHECK(labels({{"sched-domains", {{"cache_hot_time_ms", "2.5"}}, {}},
                  {"sched-domains", {{"cache_hot_time_ms", "2.50"}}, {}}})[1] == "sched-domains #2");
}

TEST_CASE("labels: parameter values read with their unit, paths by file name", "[label][unit]")
{
    CHECK(param_label("cache_hot_time_ms.node", "5") == "cache_hot_time.node=5ms");
    CHECK(param_label("profile", "/home/u/.local/share/schedscope/host.json") == "profile=host.json");
    CHECK(param_label("mode", "hard") == "mode=hard");
    CHECK(param_label("scan_period_ms", "fast") == "scan_period_ms=fast"); // not a number: no unit moved
}

TEST_CASE("labels: a policy's label round-trips through the scenario file", "[label][unit]")
{
    const char *text = R"({"schedscope_scenario": 1, "topology": "sample:itanium-4way",
        "workload": {"name": "oltp"}, "duration_s": 1,
        "policies": [{"name": "sched-domains", "label": "2004 default"}, {"name": "simple"}]})";
    const Scenario s = parse_scenario(text, "t.json");
    CHECK(s.policies[0].label == "2004 default");
    CHECK(s.policies[1].label.empty());
    const nlohmann::json j = scenario_to_json(s);
    CHECK(j["policies"][0]["label"] == "2004 default");
    CHECK_FALSE(j["policies"][1].contains("label"));
    CHECK(parse_scenario(j.dump(), "t.json") == s);
    CHECK_THROWS_WITH(parse_scenario(R"({"schedscope_scenario": 1, "topology": "sample:itanium-4way",
        "workload": {"name": "oltp"}, "policies": [{"name": "simple", "label": 3}]})",
                                     "t.json"),
                      Catch::Contains("policies[0].label"));
}
