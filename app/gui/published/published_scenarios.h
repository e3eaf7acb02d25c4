#pragma once
// A published experiment as the GUI opens it (no widgets here, so it is
// tested without a display): its rows grouped into scenarios the comparison
// can show, one pane per policy, at most kMaxPanes at a time; and its
// published figures as reference marks on the charts of their metric.
//
//   for (const PublishedOpening &o : published_openings(experiment))
//       menu->addAction(o.title) ... window->showScenario(o.scenario, {});
//   charts->setReferenceMarks(published_marks(experiment, opening, nullptr));
//
// Rows run the same scenario when everything but the policy is the same
// (topology, workload and its parameters, duration, model); each such group
// becomes one opening, or several when it has more policies than panes.

#include "panels/chart_data.h"
#include "scenario/published.h"

#include <optional>
#include <string>
#include <vector>

namespace schedscope::gui {

struct PublishedOpening {
    std::string title;                          // the menu entry: the panes' row labels
    Scenario scenario;                          // policies = panes, labelled by their first row
    std::vector<std::vector<std::size_t>> rows; // per pane: the experiment's rows it runs
};

// Empty for profile experiments (they have no scenario; the GUI opens their
// machine instead).
std::vector<PublishedOpening> published_openings(const PublishedExperiment &e);

// "Gorman 2012": the author's surname and the year, or "published 2004"
// when the source names no one.
std::string published_source_short(const PublishedSource &source);

// The chart a metric is drawn on, and whether as a time (vertical line).
struct MarkPlace {
    ChartKind kind;
    bool vertical;
};
std::optional<MarkPlace> mark_place(const std::string &metric);

// The opening's rows as marks, pane by pane (run = pane index). A row with
// an absolute figure is drawn at it. A row relative to another (the OLTP
// sweep's index, or times compared with a baseline) is drawn where the
// published ratio puts it from our own reference run, so it needs `ours`
// (the experiment's result, run_published); without it such rows are left
// out. Rows whose metric has no chart are left out too (the table has them).
std::vector<ReferenceMark> published_marks(const PublishedExperiment &e, const PublishedOpening &opening,
                                           const PublishedResult *ours);

} // namespace schedscope::gui
