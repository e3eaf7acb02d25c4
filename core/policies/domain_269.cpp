// What the `sched-domains` policy models of Linux 2.6.9's scheduler beside
// the domain balancer (DomainBalancer::Scope::Whole): where a new task
// starts, and the O(1) runqueues' order, slices and preemption.
//
// New tasks, from the engine's workload model to 2.6.9's calls:
// - a Process's first task to arrive, or a task marked as an OS process of
//   its own (Simulation::TaskSpec::own_process: OLTP's server processes),
//   is a program started by fork and exec. The task that forked it (a
//   shell, make, a listener) is not modelled: it ran on the task's first
//   allowed CPU, where the child starts (copy_process()) and from where
//   exec balances it (sched_exec()).
// - every other task of a Process is created by the Process's first task
//   that has started (its main thread): a thread (clone with CLONE_VM), or
//   a forked child that does not exec (hackbench's processes). 2.6.9 has no
//   fork balancing: it starts on its creator's CPU and stays there until
//   the balancer moves it.

#include "engine/simulation.h"
#include "policies/domain_balancer.h"
#include "policies/policy_text.h"

#include <algorithm>
#include <climits>

namespace schedscope {

namespace {
// The task that created `t`: its Process's first task, other than itself
// and those that are OS processes of their own, that has started. -1 for
// an exec'd program.
TaskId creator_of(PolicyView sim, TaskId t)
{
    const Task &task = sim.task(t);
    if (task.own_process)
        return -1;
    for (TaskId o : sim.processes().at(static_cast<size_t>(task.proc)).tasks) {
        const Task &other = sim.task(o);
        if (o != t && !other.own_process && other.state != TaskState::NotStarted && other.cpu >= 0)
            return o;
    }
    return -1;
}
} // namespace

int DomainBalancer::place_new_269(PolicyContext sim, TaskId t)
{
    const Task &task = sim.task(t);
    if (const TaskId creator = creator_of(sim, t); creator >= 0) {
        // Linux 2.6.9 kernel/fork.c: copy_process() sets the child's CPU to
        // the parent's (set_task_cpu(p, smp_processor_id())), and
        // wake_up_new_task() queues it there: no balancing at fork.
        const int cpu = sim.task(creator).cpu;
        if (task.cpus_allowed.test(cpu)) {
            sim.log_lazy(DecisionKind::Other, t, -1, cpu, [&] {
                return task_text(t) + " created by " + task_text(creator) + " on its " + cpu_text(cpu) +
                       " (2.6.9 balances at exec, not at fork)";
            });
            return cpu;
        }
        // The child inherits its parent's cpus_allowed; one narrowed since
        // (sched_setaffinity) is moved by set_cpus_allowed() to
        // any_online_cpu(new_mask): its first allowed CPU.
        const int first = task.cpus_allowed.first();
        sim.log_lazy(DecisionKind::Other, t, -1, first, [&] {
            return task_text(t) + " created by " + task_text(creator) + " on " + cpu_text(cpu) +
                   ", outside its affinity: set_cpus_allowed() moves it to its first allowed " + cpu_text(first);
        });
        return first;
    }
    std::string why;
    const int cpu = sched_exec_cpu(sim, t, why);
    if (!why.empty())
        sim.log(DecisionKind::Other, t, task.cpus_allowed.first(), cpu, std::move(why));
    return cpu;
}

int DomainBalancer::sched_exec_cpu(PolicyContext sim, TaskId t, std::string &why) const
{
    const Task &task = sim.task(t);
    const int this_cpu = task.cpus_allowed.first();
    // The exec'ing task runs on this_cpu: 2.6.9's counts include it, the
    // engine's do not yet (it is not queued).
    // Linux 2.6.9 kernel/sched.c: sched_exec(): stay when this task is the
    // only one running here.
    if (sim.nr_running(this_cpu) == 0)
        return this_cpu;
    // The highest level with SD_BALANCE_EXEC.
    const SchedDomain *sd = nullptr;
    for (const auto &d : domains_.at(static_cast<size_t>(this_cpu)))
        if (d.has(kSdBalanceExec))
            sd = &d;
    if (!sd)
        return this_cpu;
    // Linux 2.6.9 kernel/sched.c: find_idlest_cpu(): the allowed CPU of the
    // level with the lowest target_load(), the first of equals, the walk
    // ending at an idle one.
    CpuSet mask = sd->span;
    mask &= task.cpus_allowed;
    long min_load = LONG_MAX;
    int min_cpu = this_cpu;
    for (int c = mask.first(); c >= 0 && c < sim.topology().pu_count(); c = mask.next(c)) {
        const long load = target_load(sim, c, c == this_cpu ? 1 : 0);
        if (load < min_load) {
            min_cpu = c;
            min_load = load;
            if (load == 0)
                break;
        }
    }
    // find_idlest_cpu(): source_load(this_cpu) plus one task "for the new
    // task"; move when the idlest is below it by half of imbalance_pct.
    const long this_load = source_load(sim, this_cpu, 1) + kLoadScale;
    const long pct = 100 + (sd->imbalance_pct - 100) / 2;
    if (min_load * pct >= this_load * 100)
        return this_cpu;
    why = task_text(t) + " exec'd on " + cpu_text(this_cpu) + ", balanced to " + cpu_text(min_cpu) + " (" + sd->level +
          " level, sched_exec): its target_load " + std::to_string(min_load) + " x " + std::to_string(pct) +
          "% is below " + cpu_text(this_cpu) + "'s " + std::to_string(this_load) + " with this task (128 a task)";
    return min_cpu;
}

int DomainBalancer::pick_next(PolicyContext sim, int cpu)
{
    return whole_ ? o1_.pick(sim, cpu) : Policy::pick_next(sim, cpu);
}

void DomainBalancer::on_switch_in(PolicyContext sim, int /*cpu*/, TaskId t)
{
    // Linux 2.6.9 schedule(): the picked task's on-runqueue credit and
    // timestamp, and the charge for its previous stint (o1_arrays_269.cpp).
    if (whole_)
        o1_.on_switch_in(sim, t);
}

bool DomainBalancer::check_preempt_tick(PolicyContext sim, int cpu)
{
    if (!whole_)
        return Policy::check_preempt_tick(sim, cpu);
    // Linux 2.6.9 scheduler_tick(): set_tsk_need_resched() once the slice
    // has run out; until then the task keeps the CPU (no fair slicing).
    const bool resched = resched_[static_cast<size_t>(cpu)] != 0;
    resched_[static_cast<size_t>(cpu)] = 0;
    return resched;
}

bool DomainBalancer::check_preempt_wakeup(PolicyContext sim, int cpu, TaskId woken)
{
    if (!whole_)
        return Policy::check_preempt_wakeup(sim, cpu, woken);
    // Linux 2.6.9 kernel/sched.c: TASK_PREEMPTS_CURR(), asked by
    // try_to_wake_up() and pull_task(): a better priority (a lower number)
    // than the running task's, both as the sleep average left them
    // (effective_prio()). A task of equal priority never preempts.
    // wake_up_new_task() asks too, for a child queued on another CPU than
    // its parent's; the engine does not ask for a new task.
    const TaskId cur = sim.rq(cpu).current;
    const bool preempt = cur >= 0 && o1_.prio(woken) < o1_.prio(cur);
    // A slice end this tick belonged to the task now preempted.
    if (preempt)
        resched_[static_cast<size_t>(cpu)] = 0;
    return preempt;
}

} // namespace schedscope
