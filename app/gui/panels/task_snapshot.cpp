#include "panels/task_snapshot.h"

#include <algorithm>

namespace schedscope::gui {

namespace {

// The first CPU the task was placed on: the engine logs every placement at
// fork/exec, but the log is bounded, so fall back to the first move's source.
int first_cpu_of(const Recording &rec, TaskId task, const std::vector<TaskSnapshot::Hop> &path)
{
    for (const Decision &d : rec.decisions)
        if (d.task == task && d.kind == DecisionKind::Place && d.to >= 0)
            return d.to;
    return path.empty() ? kNoCpu : path.front().from_cpu;
}

std::string cache_label(const Topology &topo, const CacheState &c)
{
    if (c.obj == kNoObj)
        return "L" + std::to_string(c.level);
    const TopoObject &o = topo.obj(c.obj);
    return std::string(obj_type_name(o.type)) + " #" + std::to_string(o.logical_index) + " (CPUs " +
           o.cpuset.to_list_string() + ")";
}

} // namespace

TaskSnapshot take_task_snapshot(const Simulation &sim, TaskId task, int pane)
{
    TaskSnapshot s;
    s.pane = pane;
    s.task = task;
    s.at_ns = sim.now();
    if (task < 0 || task >= static_cast<int>(sim.tasks().size()))
        return s;
    const Task &t = sim.task(task);
    const Topology &topo = sim.topology();
    s.name = t.name;
    s.proc = t.proc;
    s.process = sim.processes().at(t.proc).name;
    s.state = task_state_name(t.state);
    s.cpu = t.cpu;
    s.working_set_bytes = t.working_set_bytes;
    s.preferred_node = sim.policy().preferred_node(sim, task);

    const Recording &rec = sim.recording();
    for (const MigrationRecord &m : rec.migrations)
        if (m.task == task)
            s.path.push_back({m.time_ns, m.from_cpu, m.to_cpu, m.cls, m.since_last_ran_ns});
    s.first_cpu = first_cpu_of(rec, task, s.path);

    // Every cache that holds part of its working set, marking those above
    // the CPU it is on: those are what it loses when it moves.
    const std::vector<ObjId> here = t.cpu >= 0 ? topo.caches_of_pu(t.cpu) : std::vector<ObjId>{};
    for (const CacheState &c : sim.caches()) {
        for (const CacheShare &share : c.shares) {
            if (share.task != task || share.bytes <= 0)
                continue;
            const bool above = std::find(here.begin(), here.end(), c.obj) != here.end();
            s.warmth.push_back({c.obj, c.level, cache_label(topo, c), share.bytes, c.capacity_bytes, above});
        }
    }
    std::stable_sort(s.warmth.begin(), s.warmth.end(), [](const auto &a, const auto &b) {
        return a.above_current_cpu != b.above_current_cpu ? a.above_current_cpu : a.level < b.level;
    });

    s.process_node_bytes = sim.process_node_bytes(t.proc);
    s.access_share_by_node = t.node_weight;
    return s;
}

int cpu_at(const TaskSnapshot &snapshot, SimTime t_ns)
{
    int cpu = snapshot.first_cpu;
    for (const TaskSnapshot::Hop &hop : snapshot.path) {
        if (hop.time_ns > t_ns)
            break;
        cpu = hop.to_cpu;
    }
    return cpu;
}

} // namespace schedscope::gui
