#pragma once
// Small real simulations for the analysis widget tests: numa01 on a 2-node,
// 4-PU synthetic machine under a NUMA-blind balancer and AutoNUMA, so every
// chart, the decision log and the migration matrix have real content.

#include "engine/simulation.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

namespace schedscope::test {

struct SmallRuns {
    std::shared_ptr<const Topology> topology;
    std::vector<Simulation> sims;
    QStringList names;
    std::vector<std::shared_ptr<const Recording>> recordings() const;
};

// Runs each policy until `until_ns` (or the end of the work).
SmallRuns run_small_numa01(SimTime until_ns = 2'000'000'000);

// Counts Qt warnings for its lifetime (QAbstractItemModelTester reports
// through them in Warning mode) and keeps their text, from any thread.
struct QtWarningCounter {
    QtWarningCounter();
    ~QtWarningCounter();
    int count() const;
    QStringList messages() const;
};

// Distinct colours in an image: a blank or one-colour render has very few.
int distinct_colours(const QString &png_path);

} // namespace schedscope::test
