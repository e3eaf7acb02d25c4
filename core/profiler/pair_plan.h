#pragma once
// Which (source, target) pairs to evaluate, and how a full matrix is rebuilt
// from them. `all` evaluates every pair; `classes` evaluates one
// representative pair per distance class (DistanceClass plus SLIT distance),
// so a 1024-PU machine needs a handful of measurements instead of a million,
// and fills every other entry with its class's cost.

#include "profiler/migration_profile.h"
#include "topology/topology.h"

#include <utility>
#include <vector>

namespace schedscope {

enum class PairSelection { All, Classes };

class PairPlan {
public:
    // `usable[pu]` says whether the PU may be used (false: skipped, e.g. not
    // in the process's allowed cpuset). Representatives are chosen among
    // usable PUs only; a class without a usable pair stays unmeasured.
    PairPlan(const Topology &topology, PairSelection selection, const std::vector<bool> &usable);

    // The pairs to evaluate, in order (the diagonal first in `all`, so that
    // an interrupted run still has the pure dirtying costs).
    const std::vector<std::pair<int, int>> &pairs() const { return pairs_; }
    // Index into classes() of the pair's class.
    int class_index(int source, int target) const { return class_of_pair_[source][target]; }
    DistanceClass class_of(int source, int target) const { return classes_[class_index(source, target)].cls; }

    // Classes in order of first appearance, each with pair_count and the
    // representative; costs are filled by fill().
    const std::vector<ClassCost> &classes() const { return classes_; }

    // Builds the matrix from evaluated costs (`evaluated[i]` for pairs()[i],
    // NaN when not evaluated) and sets each class's min/max. In `classes`
    // mode every pair gets its class's representative cost.
    void fill(const std::vector<double> &evaluated, CostMatrix &matrix, std::vector<ClassCost> &classes) const;

private:
    bool usable_ok(int pu) const { return pu < static_cast<int>(usable_.size()) && usable_[pu]; }

    int pu_count_ = 0;
    PairSelection selection_;
    std::vector<bool> usable_;
    std::vector<std::pair<int, int>> pairs_;
    std::vector<std::vector<int>> class_of_pair_;
    std::vector<ClassCost> classes_;
};

} // namespace schedscope
