#pragma once
// What the catalog (catalog/catalog.h) knows of a workload: its name, what it
// models, its parameters and how to add it to a simulation.

#include "params/param_table.h"
#include "params/params.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace schedscope {

class Simulation;

struct WorkloadInfo {
    std::string name;
    std::string description;
    std::vector<ParamInfo> params;
    // Adds the workload's processes and tasks to a simulation not yet started,
    // after refusing parameter names not in `params` and bad values.
    std::function<void(Simulation &, const ParamMap &, const std::string &source)> build;
    bool fixed_work = true; // false: throughput over a duration
    // Each task stands for an OS process of its own, though the model keeps
    // them in one Process because they share memory (OLTP server processes
    // attached to one shared buffer). Views then tell the tasks apart.
    bool tasks_are_processes = false;
};

// A workload whose parameters are the table's (a function-local static):
// `build` gets them parsed and checked; it checks what depends on the
// machine (a node number, a CPU) itself.
template <class P>
WorkloadInfo workload_info(std::string name, std::string description, const ParamTable<P> &table,
                           std::function<void(Simulation &, const P &, const std::string &source)> build,
                           bool fixed_work = true)
{
    WorkloadInfo w{std::move(name), std::move(description), table.infos(), {}, fixed_work};
    w.build = [&table, build = std::move(build), what = "workload '" + w.name + "'"](Simulation &sim, const ParamMap &p,
                                                                                     const std::string &source) {
        build(sim, table.parse(p, what, source), source);
    };
    return w;
}

} // namespace schedscope
