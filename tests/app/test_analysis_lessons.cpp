// Every lesson compiled into the GUI loads, names an existing sample
// scenario that parses and builds, and the panel asks to open it.
#include "panels/lesson.h"
#include "panels/lesson_panel.h"
#include "scenario/run.h"
#include "scenario/scenario.h"

#include <catch2/catch.hpp>

#include <QDir>
#include <QFileInfo>
#include <QPushButton>
#include <QSignalSpy>

#include <set>

using namespace schedscope;
using namespace schedscope::gui;

namespace {
QString scenario_dir() { return QDir(QStringLiteral(SCHEDSCOPE_SOURCE_SAMPLES_DIR)).filePath("scenarios"); }
} // namespace

TEST_CASE("lessons load and reference existing scenarios", "[analysis][lessons]")
{
    const std::vector<Lesson> lessons = builtin_lessons();
    REQUIRE(lessons.size() >= 4);
    std::set<std::string> titles;
    for (const Lesson &l : lessons) {
        INFO(l.id);
        CHECK_FALSE(l.title.empty());
        titles.insert(l.title);
        CHECK(l.markdown.find("Try this") != std::string::npos);
        const QString path = QDir(scenario_dir()).filePath(QString::fromStdString(l.scenario));
        REQUIRE(QFileInfo::exists(path));
        const Scenario s = load_scenario(path.toStdString());
        CHECK(s.policies.size() >= 2); // a lesson is a comparison
        // It must build: a lesson whose scenario fails to open teaches nothing.
        const auto topo = scenario_topology(s);
        for (const PolicySpec &p : effective_policies(s))
            CHECK_NOTHROW(build_simulation(s, p, s.seed, topo));
    }
    CHECK(titles.size() == lessons.size());
}

TEST_CASE("a lesson without its scenario line is refused", "[analysis][lessons]")
{
    CHECK_THROWS_AS(parse_lesson("x", "# Title\ntext"), std::invalid_argument);
    CHECK_THROWS_AS(parse_lesson("x", "<!-- scenario: a.json -->\nno title"), std::invalid_argument);
    const Lesson l = parse_lesson("x", "<!-- scenario: a.json -->\n# The title\n\nTry this");
    CHECK(l.scenario == "a.json");
    CHECK(l.title == "The title");
}

TEST_CASE("the lesson panel asks to open the lesson's scenario", "[analysis][lessons]")
{
    LessonPanel panel;
    panel.setScenarioDirectory(scenario_dir());
    REQUIRE(panel.lessons().size() >= 4);
    QSignalSpy open(&panel, &LessonPanel::openScenarioRequested);
    for (int i = 0; i < static_cast<int>(panel.lessons().size()); ++i) {
        panel.setCurrentLesson(i);
        panel.openCurrentScenario();
        REQUIRE(open.count() == i + 1);
        CHECK(open.last().at(0).toString() == panel.scenarioPath(i));
    }
    panel.setScenarioDirectory("/nonexistent");
    panel.openCurrentScenario();
    CHECK(open.count() == static_cast<int>(panel.lessons().size()));
}
