#include "analysis/log_histogram.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace schedscope {

LogHistogram::LogHistogram(double lowest_edge, int decades, int bins_per_decade)
    : log_low_(std::log10(lowest_edge)), per_decade_(bins_per_decade)
{
    if (!(lowest_edge > 0) || decades < 1 || bins_per_decade < 1)
        throw std::invalid_argument("LogHistogram: needs a positive lowest edge and at least one bin");
    const int bins = decades * bins_per_decade;
    edges_.reserve(static_cast<size_t>(bins) + 1);
    for (int i = 0; i <= bins; ++i)
        edges_.push_back(std::pow(10.0, log_low_ + static_cast<double>(i) / bins_per_decade));
    counts_.assign(static_cast<size_t>(bins), 0);
}

void LogHistogram::add(double value)
{
    if (!(value >= edges_.front())) { // NaN lands here too rather than nowhere
        ++below_;
        return;
    }
    if (value >= edges_.back()) {
        ++above_;
        return;
    }
    // The logarithm finds the bin in O(1); pow() rounding can put a value
    // sitting on an edge one bin off, which the comparisons repair.
    auto i = static_cast<size_t>(std::floor((std::log10(value) - log_low_) * per_decade_));
    i = std::min(i, counts_.size() - 1);
    while (i > 0 && value < edges_[i])
        --i;
    while (i + 1 < counts_.size() && value >= edges_[i + 1])
        ++i;
    ++counts_[i];
}

std::int64_t LogHistogram::total() const { return std::accumulate(counts_.begin(), counts_.end(), below_ + above_); }

} // namespace schedscope
