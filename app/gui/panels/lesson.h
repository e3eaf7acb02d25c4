#pragma once
// A guided lesson: a short Markdown text with "try this" steps, tied to one
// scenario of samples/scenarios/. The text ships in the GUI's resources
// (resources/lessons/*.md); its first line names the scenario:
//
//   <!-- scenario: lesson-cache-hotness.json -->
//   # Cache hotness: when moving a task costs more than it saves
//   ...
//
// Lessons are ordered by file name (01-..., 02-...).

#include <string>
#include <vector>

namespace schedscope::gui {

struct Lesson {
    std::string id;       // file name without extension: "01-cache-hotness"
    std::string title;    // the first "# " heading
    std::string scenario; // file name in samples/scenarios/
    std::string markdown; // the whole text, scenario comment included
};

// Throws std::invalid_argument naming `id` when the scenario line or the
// title is missing.
Lesson parse_lesson(const std::string &id, const std::string &text);

// The lessons compiled into the GUI (Qt resources), in order.
std::vector<Lesson> builtin_lessons();

// samples/scenarios of the installed or source samples directory.
std::string default_scenario_dir();

} // namespace schedscope::gui
