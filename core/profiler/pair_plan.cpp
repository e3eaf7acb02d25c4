#include "profiler/pair_plan.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace schedscope {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}

PairPlan::PairPlan(const Topology &topology, PairSelection selection, const std::vector<bool> &usable)
    : pu_count_(topology.pu_count()), selection_(selection), usable_(usable)
{
    const int n = pu_count_;
    auto ok = [&](int pu) { return usable_ok(pu); };
    std::map<std::pair<DistanceClass, int>, int> index_of;
    class_of_pair_.assign(n, std::vector<int>(n, 0));
    for (int s = 0; s < n; ++s) {
        for (int t = 0; t < n; ++t) {
            PuDistance d = topology.distance(s, t);
            auto [it, inserted] = index_of.try_emplace({d.cls, d.numa_distance}, static_cast<int>(classes_.size()));
            if (inserted) {
                ClassCost c;
                c.cls = d.cls;
                c.numa_distance = d.numa_distance;
                classes_.push_back(c);
            }
            ClassCost &c = classes_[it->second];
            ++c.pair_count;
            if (c.rep_source < 0 && ok(s) && ok(t)) {
                c.rep_source = s;
                c.rep_target = t;
            }
            class_of_pair_[s][t] = it->second;
        }
    }
    // Closest classes first, so that printing and JSON read from the cache
    // outwards.
    std::vector<int> order(classes_.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = static_cast<int>(i);
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        return std::pair(classes_[a].cls, classes_[a].numa_distance) <
               std::pair(classes_[b].cls, classes_[b].numa_distance);
    });
    std::vector<ClassCost> sorted;
    std::vector<int> new_index(classes_.size());
    for (size_t i = 0; i < order.size(); ++i) {
        new_index[order[i]] = static_cast<int>(i);
        sorted.push_back(classes_[order[i]]);
    }
    classes_ = std::move(sorted);
    for (auto &row : class_of_pair_)
        for (auto &c : row)
            c = new_index[c];

    if (selection_ == PairSelection::Classes) {
        for (const auto &c : classes_)
            if (c.rep_source >= 0)
                pairs_.emplace_back(c.rep_source, c.rep_target);
        return;
    }
    for (int p = 0; p < n; ++p)
        if (ok(p))
            pairs_.emplace_back(p, p);
    for (int s = 0; s < n; ++s)
        for (int t = 0; t < n; ++t)
            if (s != t && ok(s) && ok(t))
                pairs_.emplace_back(s, t);
}

void PairPlan::fill(const std::vector<double> &evaluated, CostMatrix &matrix, std::vector<ClassCost> &classes) const
{
    const int n = pu_count_;
    matrix.assign(n, std::vector<double>(n, kNaN));
    classes = classes_;
    for (auto &c : classes)
        c.min_ms = c.max_ms = kNaN;
    auto account = [&](int cls, double v) {
        auto &c = classes[cls];
        c.min_ms = std::isfinite(c.min_ms) ? std::min(c.min_ms, v) : v;
        c.max_ms = std::isfinite(c.max_ms) ? std::max(c.max_ms, v) : v;
    };
    for (size_t i = 0; i < pairs_.size() && i < evaluated.size(); ++i) {
        if (!std::isfinite(evaluated[i]))
            continue;
        auto [s, t] = pairs_[i];
        matrix[s][t] = evaluated[i];
        account(class_of_pair_[s][t], evaluated[i]);
    }
    if (selection_ != PairSelection::Classes)
        return;
    // A skipped PU stays unknown: nothing says it behaves like its class.
    for (int s = 0; s < n; ++s)
        for (int t = 0; t < n; ++t)
            if (!std::isfinite(matrix[s][t]) && usable_ok(s) && usable_ok(t))
                matrix[s][t] = classes[class_of_pair_[s][t]].min_ms;
}

} // namespace schedscope
