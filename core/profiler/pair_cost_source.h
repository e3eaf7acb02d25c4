#pragma once
// Where a pair's migration cost comes from: the running machine
// (MigrationMeasurer) or the model of an imported one (MigrationModel). The
// profiler plans pairs and assembles results the same way for both.

#include <atomic>
#include <string>
#include <vector>

namespace schedscope {

class PairCostSource {
public:
    virtual ~PairCostSource() = default;
    // Per logical PU: may it be used? The model can use every PU; the
    // measurer only those the process is allowed to run on.
    virtual std::vector<bool> usable_pus() = 0;
    // Cost of migrating a cache-hot task from `source` to `target` in ms
    // (source == target: the pure dirtying cost). NaN when the pair could
    // not be evaluated (a bind that failed late, or `cancel` raised).
    virtual double cost_ms(int source, int target, const std::atomic<bool> *cancel) = 0;
    // Things the user should know (defaults used, PUs that failed to bind).
    virtual std::vector<std::string> notes() const { return {}; }
    // PUs found unusable only while evaluating (a bind that failed).
    virtual std::vector<int> failed_pus() const { return {}; }
};

} // namespace schedscope
