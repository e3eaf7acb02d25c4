#pragma once
// Lines of a chart that lie on top of each other, so the chart can say so
// instead of showing one line where there are several (numa02's 16 memory
// lines all at 256 MiB). Plain C++, tested without a display.

#include "panels/chart_data.h"

#include <vector>

namespace schedscope::gui {

// Groups of lines (indices into data.lines, each group of two or more, in
// line order) that never differ by more than `tolerance` wherever both have
// a value (value_at at every time either has a point). Overlap is grouped
// transitively: a-b and b-c make one group.
std::vector<std::vector<int>> overlapping_lines(const ChartData &data, double tolerance);

// How close two lines must stay to count as overlapping on a chart whose
// largest value is y_max: closer than a line's width on a 200 px axis.
double overlap_tolerance(double y_max);

} // namespace schedscope::gui
