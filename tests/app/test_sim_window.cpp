// The comparison in the window: scenario files (open, bad input, save and the
// unsaved-changes prompt), the parameters dialog, closing while running, and
// the headless --scenario --run-to --screenshot path of the real executable.
#include "app_options.h"
#include "image_checks.h"
#include "main_window.h"
#include "sim/comparison_page.h"
#include "sim/comparison_view.h"
#include "sim/policy_dialog.h"
#include "sim/scenario_document.h"
#include "sim/simulation_controller.h"
#include "sim/simulation_pane.h"
#include "window_test_support.h"

#include "scenario/scenario.h"

#include <catch2/catch.hpp>

#include <QComboBox>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QLineEdit>
#include <QMessageBox>
#include <QSet>
#include <QTemporaryDir>

using namespace schedscope;
using namespace schedscope::gui;
using schedscope::test::write_file;

using schedscope::test::distinct_colours;
using schedscope::test::GuiRun;
using schedscope::test::has_colour;
using schedscope::test::run_gui;

namespace {

QByteArray scenario_json(const char *topology,
                         const char *policies = R"([{"name":"sched-domains"},{"name":"autonuma"}])")
{
    return QByteArray(R"({"schedscope_scenario": 1, "name": "t", "description": "test scenario", "topology": ")") +
           topology +
           R"(", "workload": {"name": "numa01", "params": {"memory_mb": "64", "loops": "4"}}, "policies": )" +
           policies + "}";
}

struct Captured {
    QStringList texts;
    ErrorSink sink()
    {
        return [this](const QString &, const QString &text) { texts << text; };
    }
};

} // namespace

TEST_CASE("a bad scenario file gives a message naming it, not a crash", "[window][scenario]")
{
    QTemporaryDir dir;
    Captured messages;
    MainWindow window;
    window.setErrorSink(messages.sink());
    CHECK_FALSE(window.openScenarioFile(write_file(dir, "broken.json", "{ not json")));
    CHECK_FALSE(window.openScenarioFile(dir.filePath("missing.json")));
    CHECK_FALSE(window.openScenarioFile(
        write_file(dir, "badpolicy.json", scenario_json("synthetic:pu:2", R"([{"name":"nope"}])"))));
    CHECK_FALSE(window.openScenarioFile(write_file(dir, "badmachine.json", scenario_json("sample:no-such-machine"))));
    REQUIRE(messages.texts.size() == 4);
    CHECK(messages.texts[0].contains("broken.json"));
    CHECK(messages.texts[1].contains("missing.json"));
    CHECK(messages.texts[2].contains("nope"));
    CHECK(messages.texts[3].contains("no-such-machine"));
}

TEST_CASE("opening a scenario shows one pane per policy, saving is atomic and clears the prompt", "[window][scenario]")
{
    QTemporaryDir dir;
    Captured messages;
    MainWindow window;
    window.setErrorSink(messages.sink());
    int prompts = 0;
    int answer = QMessageBox::Cancel;
    window.setSavePrompt([&](const QString &) {
        ++prompts;
        return answer;
    });
    REQUIRE(window.openScenarioFile(write_file(dir, "a.json", scenario_json("synthetic:pack:2 [numa] core:2 pu:1"))));
    CHECK(messages.texts.isEmpty());
    ComparisonPage *page = window.comparisonPage();
    CHECK(page->view()->paneCount() == 2);
    REQUIRE(page->controller()->waitLoaded());
    CHECK_FALSE(page->controller()->isPlaying());
    CHECK_FALSE(window.document()->isDirty());

    // A change in the GUI makes it dirty; Cancel keeps it, Save writes it.
    Scenario changed = window.document()->scenario();
    changed.policies[0].params["cache_hot_time_ms"] = "10";
    window.document()->modify(changed);
    CHECK_FALSE(window.maybeSave());
    CHECK(prompts == 1);
    answer = QMessageBox::Save;
    CHECK(window.maybeSave());
    CHECK_FALSE(window.document()->isDirty());
    const Scenario saved = load_scenario(dir.filePath("a.json").toStdString());
    CHECK(saved.policies[0].params.at("cache_hot_time_ms") == "10");
    CHECK(ScenarioDocument::recentFiles().contains(QFileInfo(dir.filePath("a.json")).absoluteFilePath()));
}

TEST_CASE("the parameters dialog shows the catalog's errors beside the field", "[window][dialog]")
{
    PolicyDialog dialog(PolicySpec{"sched-domains", {}});
    CHECK(dialog.valid());
    REQUIRE(dialog.field("cache_hot_time_ms"));
    dialog.field("cache_hot_time_ms")->setText("soon");
    CHECK_FALSE(dialog.valid());
    CHECK(dialog.fieldError("cache_hot_time_ms").contains("not a number"));
    dialog.field("cache_hot_time_ms")->setText("10");
    CHECK(dialog.valid());
    CHECK(dialog.fieldError("cache_hot_time_ms").isEmpty());
    CHECK(dialog.spec().params.at("cache_hot_time_ms") == "10");
    dialog.policyBox()->setCurrentText("autonuma");
    CHECK(dialog.field("scan_sleep_pass_ms"));
    CHECK(dialog.spec().name == "autonuma");
}

TEST_CASE("closing the window while a comparison plays neither hangs nor crashes", "[window][controller]")
{
    auto *window = new MainWindow;
    window->setSavePrompt({});
    REQUIRE(window->openTopology("sample:numa-8node-64"));
    window->resize(1200, 800);
    window->show();
    SimulationController *c = window->comparisonPage()->controller();
    REQUIRE(c->waitLoaded());
    c->setSpeed(0);
    c->play();
    QElapsedTimer run;
    run.start();
    while (run.elapsed() < 400)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    CHECK(c->time() > 0);
    QElapsedTimer closing;
    closing.start();
    CHECK(window->close());
    delete window;
    CHECK(closing.elapsed() < 3000);
}

TEST_CASE("the panes' headers show live figures", "[window]")
{
    MainWindow window;
    window.setSavePrompt({});
    REQUIRE(window.openTopology("synthetic:pack:2 [numa] core:2 pu:1"));
    SimulationController *c = window.comparisonPage()->controller();
    REQUIRE(c->runTo(500'000'000));
    QCoreApplication::processEvents();
    SimulationPane *pane = window.comparisonPage()->view()->pane(1);
    CHECK(pane->headerTitle().startsWith("autonuma"));
    CHECK(pane->headerFigures().contains("idle"));
    CHECK(pane->headerFigures().contains("migrations"));
    CHECK(pane->headerFigures().contains("local access"));
}

TEST_CASE("screenshot mode with --scenario and --run-to writes the panes at that time", "[screenshot][scenario]")
{
    QTemporaryDir dir;
    const char *topology = GENERATE("synthetic:pack:2 [numa] core:2 pu:1", "sample:numa-8node-64");
    INFO(topology);
    const QString scenario = write_file(dir, "s.json", scenario_json(topology));
    const QString out = dir.filePath("shot.png");
    const GuiRun run = run_gui({"--scenario", scenario, "--run-to", "1s", "--screenshot", out, "--size", "1400x900"});
    INFO(run.err.toStdString());
    REQUIRE(run.exit_code == 0);
    QImage image(out);
    REQUIRE(!image.isNull());
    CHECK(image.size() == QSize(1400, 900));
    CHECK(distinct_colours(image) > 40);
    CHECK(has_colour(image, qRgb(78, 121, 167)));  // the first process's colour: tokens and memory bars
    CHECK(has_colour(image, qRgb(210, 231, 164))); // lstopo's package green under the overlays
}

TEST_CASE("screenshot mode with a bad --scenario file exits 2 with the reason", "[screenshot][scenario]")
{
    QTemporaryDir dir;
    const QString out = dir.filePath("shot.png");
    GuiRun run = run_gui({"--scenario", write_file(dir, "bad.json", "{]"), "--screenshot", out});
    CHECK(run.exit_code == 2);
    CHECK(run.err.contains("bad.json"));
    CHECK_FALSE(QFile::exists(out));
    run = run_gui({"--scenario", "x.json", "--run-to", "soon", "--screenshot", out});
    CHECK(run.exit_code == 2);
    CHECK(run.err.contains("--run-to"));
}

TEST_CASE("new command line options", "[options]")
{
    auto parsed = parse_app_options(
        {"schedscope", "--scenario", "a.json", "--run-to", "250ms", "--screenshot", "x.png"});
    REQUIRE(parsed.options);
    CHECK(parsed.options->scenario == "a.json");
    CHECK(parsed.options->run_to_ns == 250'000'000);
    parsed = parse_app_options({"schedscope", "--workload", "numa01", "--policy", "simple", "--policy", "autonuma",
                                "--benchmark-render", "2", "--speed", "0"});
    REQUIRE(parsed.options);
    CHECK(parsed.options->policies.size() == 2);
    CHECK(parsed.options->headless());
    CHECK(parsed.options->speed == 0);
    CHECK_FALSE(parse_app_options({"schedscope", "--policy", "simple"}).options);
    CHECK(parse_duration_ns("5s") == 5'000'000'000);
    CHECK(parse_duration_ns("1.5") == 1'500'000'000);
    CHECK(parse_duration_ns("2m") == 120'000'000'000);
    CHECK_FALSE(parse_duration_ns("later"));
}
