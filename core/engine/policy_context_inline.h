#pragma once
// PolicyView's and PolicyContext's members (engine/policy_context.h), which
// forward to the Simulation; included at the end of engine/simulation.h.

#include "engine/policy_context.h"

#include <utility>

namespace schedscope {

inline const Topology &PolicyView::topology() const { return sim_->topology(); }
inline const ModelParams &PolicyView::model() const { return sim_->model(); }
inline SimTime PolicyView::now() const { return sim_->now(); }
inline std::uint64_t PolicyView::seed() const { return sim_->config().seed; }
inline const std::vector<Task> &PolicyView::tasks() const { return sim_->tasks(); }
inline const Task &PolicyView::task(TaskId t) const { return sim_->task(t); }
inline const std::vector<Process> &PolicyView::processes() const { return sim_->processes(); }
inline const Runqueue &PolicyView::rq(int cpu) const { return sim_->rq(cpu); }
inline int PolicyView::nr_running(int cpu) const { return sim_->nr_running(cpu); }
inline const int *PolicyView::nr_running_all() const { return sim_->nr_running_all(); }
inline bool PolicyView::cpu_idle(int cpu) const { return sim_->cpu_idle(cpu); }
inline std::int64_t PolicyView::queued_tasks() const { return sim_->queued_tasks(); }
inline int PolicyView::queued_on_node(int node) const { return sim_->queued_on_node(node); }
inline int PolicyView::node_of_pu(int cpu) const { return sim_->node_of_pu(cpu); }
inline double PolicyView::warmth_on(TaskId t, int cpu, int level) const { return sim_->warmth_on(t, cpu, level); }
inline std::vector<double> PolicyView::process_node_bytes(ProcId p) const { return sim_->process_node_bytes(p); }
inline bool PolicyView::checks_each_event() const { return sim_->checks_each_event(); }

inline bool PolicyContext::migrate_task(TaskId t, int to_cpu, int by_cpu, DecisionKind kind, const std::string &reason)
{
    return sim().migrate_task(t, to_cpu, by_cpu, kind, reason);
}
inline bool PolicyContext::migrate_chunk(ProcId p, int chunk, int node, int by_cpu, const std::string &reason)
{
    return sim().migrate_chunk(p, chunk, node, by_cpu, reason);
}
inline void PolicyContext::arm_chunk(ProcId p, int chunk, int by_cpu, double scan_cost_ns)
{
    sim().arm_chunk(p, chunk, by_cpu, scan_cost_ns);
}
inline void PolicyContext::place_chunks(ProcId proc, int chunk_begin, int chunk_end, int node)
{
    sim().place_chunks(proc, chunk_begin, chunk_end, node);
}
inline void PolicyContext::charge_sys(int cpu, double ns) { sim().charge_sys(cpu, ns); }
inline double PolicyContext::lock_rq(int rq_cpu, int by_cpu, double extra_hold_ns)
{
    return sim().lock_rq(rq_cpu, by_cpu, extra_hold_ns);
}
inline void PolicyContext::log(DecisionKind kind, TaskId t, int from, int to, std::string_view reason)
{
    sim().log(kind, t, from, to, reason);
}
template <class Reason> void PolicyContext::log_lazy(DecisionKind kind, TaskId t, int from, int to, Reason &&reason)
{
    sim().log_lazy(kind, t, from, to, std::forward<Reason>(reason));
}

} // namespace schedscope
