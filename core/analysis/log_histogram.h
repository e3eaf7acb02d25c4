#pragma once
// A histogram over log-spaced bins, for quantities that span many orders of
// magnitude (a task's time since it last ran goes from 0 to seconds, the
// stall a migration costs from nanoseconds to tens of milliseconds).
//
// Bin i counts values in [edges[i], edges[i+1]); values below the lowest edge
// (zero included) and at or above the highest have bins of their own, so
// every value is counted exactly once.

#include <cstdint>
#include <vector>

namespace schedscope {

class LogHistogram {
public:
    // `decades` decades from `lowest_edge`, `bins_per_decade` bins each.
    LogHistogram(double lowest_edge, int decades, int bins_per_decade);

    void add(double value);

    const std::vector<double> &edges() const { return edges_; } // bins + 1 edges, ascending
    const std::vector<std::int64_t> &counts() const { return counts_; }
    std::int64_t below() const { return below_; } // values < edges().front(), zero included
    std::int64_t above() const { return above_; } // values >= edges().back()
    std::int64_t total() const;

private:
    std::vector<double> edges_;
    std::vector<std::int64_t> counts_;
    std::int64_t below_ = 0;
    std::int64_t above_ = 0;
    double log_low_ = 0;
    int per_decade_ = 1;
};

} // namespace schedscope
