#pragma once
// What the simulation thread needs to build a comparison: the scenario, its
// resolved machine and the policies that run (one pane each). Immutable once
// handed over, so both threads may hold it.

#include "scenario/scenario.h"
#include "topology/topology.h"

#include <QMetaType>
#include <QStringList>

#include <memory>
#include <string>
#include <vector>

namespace schedscope::gui {

// 1 to 4 panes side by side: more would leave each too small to read.
inline constexpr int kMaxPanes = 4;

struct RunSetup {
    Scenario scenario;
    std::shared_ptr<const Topology> topology;
    std::vector<PolicySpec> policies; // effective: what each pane runs
    bool fixed_work = true;
    // The panes colour tasks apart (WorkloadInfo::tasks_are_processes).
    bool colour_by_task = false;
};

using RunSetupPtr = std::shared_ptr<const RunSetup>;

// Resolves the scenario's machine (unless `topology` is given) and its
// effective policies, and checks what can be checked without running.
// Throws InputError with a message fit for the user.
RunSetupPtr make_run_setup(const Scenario &scenario, std::shared_ptr<const Topology> topology = {});

// Each pane's label (scenario/pane_label.h): what every legend, tooltip,
// picker and export of the GUI calls the pane.
QStringList pane_label_list(const RunSetup &setup);

// The comparison `schedscope` opens with no arguments: two policies on a
// workload that shows a difference on this machine. On a NUMA machine,
// numa01 under sched-domains against autonuma (memory convergence); on a
// single-node machine, a cache-affinity case: OLTP-like processes under
// sched-domains with the 2004 default cache_hot_time against a balancer
// that ignores caches.
Scenario default_comparison(const Topology &topology, const std::string &topology_spec);

} // namespace schedscope::gui

Q_DECLARE_METATYPE(schedscope::gui::RunSetupPtr)
