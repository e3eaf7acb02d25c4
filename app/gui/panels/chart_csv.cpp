#include "panels/chart_csv.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace schedscope::gui {

std::string csv_field(const std::string &text)
{
    if (text.find_first_of(",\"\r\n") == std::string::npos)
        return text;
    std::string out = "\"";
    for (char c : text) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out + "\"";
}

namespace {

std::string number(double v)
{
    // %.9g keeps sub-microsecond times and small rates without trailing noise.
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

} // namespace

std::string charts_to_csv(const std::vector<ChartData> &charts)
{
    std::string out = "time_s";
    std::vector<const ChartLine *> columns;
    for (const ChartData &chart : charts)
        for (const ChartLine &line : chart.lines) {
            out += ',';
            out += csv_field(std::string(chart_title(chart.kind)) + ": " + line.label + " [" + chart_unit(chart.kind) +
                             "]");
            columns.push_back(&line);
        }
    out += '\n';

    // Every run samples on the same interval, so the union of times is small;
    // a map keeps it sorted and finds each cell's row directly.
    std::map<double, std::vector<std::string>> rows;
    for (std::size_t c = 0; c < columns.size(); ++c) {
        const ChartLine &line = *columns[c];
        for (std::size_t i = 0; i < line.t_s.size(); ++i) {
            auto &row = rows[line.t_s[i]];
            row.resize(columns.size());
            row[c] = number(line.y[i]);
        }
    }
    for (auto &[t, cells] : rows) {
        out += number(t);
        cells.resize(columns.size());
        for (const std::string &cell : cells) {
            out += ',';
            out += cell;
        }
        out += '\n';
    }
    return out;
}

} // namespace schedscope::gui
