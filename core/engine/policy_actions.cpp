#include "engine/policy_actions.h"

#include "engine/simulation.h"

namespace schedscope {

bool PolicyActions::set_cpus_allowed(Simulation &sim, TaskId t, const CpuSet &cpus)
{
    if (t < 0 || t >= static_cast<TaskId>(sim.tasks().size()) || cpus.empty())
        return false;
    Task &task = sim.task_mut(t);
    // A task on a runqueue stays on its PU: narrowing past it would need a
    // move the caller did not ask for (the kernel's migration_cpu_stop).
    const bool on_rq = task.state == TaskState::Running || task.state == TaskState::Runnable;
    if (sim.started() && on_rq && task.cpu >= 0 && !cpus.test(task.cpu))
        return false;
    task.cpus_allowed = cpus;
    return true;
}

bool PolicyActions::set_memory_policy(Simulation &sim, ProcId p, AllocPolicy alloc, const CpuSet &nodes)
{
    if (p < 0 || p >= static_cast<ProcId>(sim.processes().size()))
        return false;
    const int machine_nodes = std::max(1, sim.topology().numa_count());
    if (alloc != AllocPolicy::FirstTouch && (nodes.empty() || nodes.first() >= machine_nodes))
        return false;
    Process &proc = sim.process_mut(p);
    proc.alloc = alloc;
    proc.alloc_nodes = nodes;
    return true;
}

void PolicyActions::set_vruntime(Simulation &sim, TaskId t, SimTime vruntime_ns)
{
    sim.task_mut(t).vruntime_ns = vruntime_ns;
}

} // namespace schedscope
