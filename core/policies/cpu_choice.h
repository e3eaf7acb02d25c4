#pragma once
// CPU choices several policies share: the least loaded CPU of a set, and a
// node's CPUs.

#include "engine/simulation.h"

namespace schedscope {

// The CPU of `among` with the fewest runnable tasks (nr_running), the first
// such in CPU order unless `prefer` ties with it; -1 if `among` is empty.
inline int least_loaded_cpu(PolicyView sim, const CpuSet &among, int prefer = -1)
{
    int best = -1, best_load = 0;
    for (int c = among.first(); c >= 0 && c < sim.topology().pu_count(); c = among.next(c)) {
        const int load = sim.nr_running(c);
        if (best < 0 || load < best_load || (load == best_load && c == prefer)) {
            best = c;
            best_load = load;
        }
    }
    return best;
}

// Every CPU of the machine: the root object's set.
inline const CpuSet &machine_pus(const Topology &topo) { return topo.obj(topo.root()).cpuset; }

// A node's CPUs, or all of them on a machine without NUMA nodes.
inline CpuSet node_or_machine(const Topology &topo, int node)
{
    return topo.numa_count() > 0 ? topo.pus_of_node(node) : machine_pus(topo);
}

} // namespace schedscope
