#include "panels/chart_overlap.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace schedscope::gui {

namespace {

bool lines_overlap(const ChartLine &a, const ChartLine &b, double tolerance)
{
    bool compared = false;
    for (const ChartLine *line : {&a, &b})
        for (double t : line->t_s) {
            const auto va = value_at(a, t), vb = value_at(b, t);
            if (!va || !vb)
                continue;
            if (std::abs(*va - *vb) > tolerance)
                return false;
            compared = true;
        }
    return compared;
}

int root(std::vector<int> &parent, int i)
{
    while (parent[static_cast<std::size_t>(i)] != i)
        i = parent[static_cast<std::size_t>(i)] = parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(i)])];
    return i;
}

} // namespace

double overlap_tolerance(double y_max)
{
    // One part in 200 of the axis: under a pixel on a chart 200 px tall.
    constexpr double kAxisFraction = 1.0 / 200.0;
    return std::max(y_max, 0.0) * kAxisFraction;
}

std::vector<std::vector<int>> overlapping_lines(const ChartData &data, double tolerance)
{
    const int n = static_cast<int>(data.lines.size());
    std::vector<int> parent(static_cast<std::size_t>(n));
    std::iota(parent.begin(), parent.end(), 0);
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j)
            if (lines_overlap(data.lines[static_cast<std::size_t>(i)], data.lines[static_cast<std::size_t>(j)],
                              tolerance))
                parent[static_cast<std::size_t>(root(parent, j))] = root(parent, i);
    std::vector<std::vector<int>> groups;
    std::vector<int> group_of(static_cast<std::size_t>(n), -1);
    for (int i = 0; i < n; ++i) {
        const int r = root(parent, i);
        if (group_of[static_cast<std::size_t>(r)] < 0) {
            group_of[static_cast<std::size_t>(r)] = static_cast<int>(groups.size());
            groups.emplace_back();
        }
        groups[static_cast<std::size_t>(group_of[static_cast<std::size_t>(r)])].push_back(i);
    }
    groups.erase(std::remove_if(groups.begin(), groups.end(), [](const auto &g) { return g.size() < 2; }),
                 groups.end());
    return groups;
}

} // namespace schedscope::gui
