#pragma once
// Charts as one wide CSV table: a time column and one column per line of
// every chart, each header naming the chart, the line and the unit, so the
// file reads on its own in a spreadsheet. Rows are the union of the sample
// times; a line with no point at a time leaves its cell empty.

#include "panels/chart_data.h"

#include <string>
#include <vector>

namespace schedscope::gui {

// Header example: time_s,Idle time: simple [%],Memory per node: autonuma node 1 [MiB]
std::string charts_to_csv(const std::vector<ChartData> &charts);

// RFC 4180 quoting when the field holds a comma, a quote or a line break.
std::string csv_field(const std::string &text);

} // namespace schedscope::gui
