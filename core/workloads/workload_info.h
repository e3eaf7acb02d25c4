#pragma once
// What the catalog (catalog/catalog.h) knows of a workload: its name, what it
// models, its parameters and how to add it to a simulation.

#include "params/params.h"

#include <functional>
#include <string>
#include <vector>

namespace schedscope {

class Simulation;

struct WorkloadInfo {
    std::string name;
    std::string description;
    std::vector<ParamInfo> params;
    // Adds the workload's processes and tasks to a simulation not yet started.
    // In workload_catalog(), it first refuses parameter names not in `params`.
    std::function<void(Simulation &, const ParamMap &, const std::string &source)> build;
    bool fixed_work = true; // false: throughput over a duration
    // Each task stands for an OS process of its own, though the model keeps
    // them in one Process because they share memory (OLTP server processes
    // attached to one shared buffer). Views then tell the tasks apart.
    bool tasks_are_processes = false;
};

} // namespace schedscope
