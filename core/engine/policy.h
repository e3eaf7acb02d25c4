#pragma once
// How a scheduling or NUMA-balancing policy plugs into the engine. The engine
// owns all state and all costs; a policy sees it through a PolicyContext
// (engine/policy_context.h): it reads it through const queries and only
// decides, through the context's actions (migrate_task, migrate_chunk,
// arm_chunk, charge_sys, lock_rq, log) and those of engine/policy_actions.h,
// and says why. It cannot step, run, restore or add to the simulation. A
// policy's own state (preferred nodes, fault statistics, a scanner's
// position) lives in the policy and must copy with clone() so that
// checkpoints restore it.

#include "engine/policy_context.h"
#include "engine/sim_types.h"
#include "params/params.h"

#include <memory>
#include <optional>
#include <string>

namespace schedscope {

// The 2.6 scheduler's cache_hot_time default (cache_decay_ticks, 2.5 ms on
// the machines of the 2004 reports; docs/background.md). The balancers
// start from it; the migration analysis judges hot moves by it when the
// policy has no cache_hot_time_ms.
inline constexpr double kDefaultCacheHotTimeMs = 2.5;

enum class WakeupMode {
    Locked, // the waker takes the target runqueue's lock
    Queued, // the waker queues on the target's wake list and sends an IPI
};

// The Linux release whose scheduler a policy models (Policy::modelled_kernel());
// {0, 0} for a policy that models none.
struct KernelRelease {
    int major = 0;
    int minor = 0;
};

// `wakeup`'s default (engine/wakeup_param.h), stated here once for every
// policy: the wakeup path of the kernel it models. Queued remote wakeups
// (TTWU_QUEUE) came with Linux 3.0, on by default; every older kernel, and
// a policy that models none, takes the target runqueue's lock.
constexpr WakeupMode default_wakeup_for(KernelRelease k)
{
    return k.major >= 3 ? WakeupMode::Queued : WakeupMode::Locked;
}

// Why a task joins a runqueue, for Policy::on_enqueue.
enum class EnqueueKind {
    New,     // fork/exec: its first runqueue
    Wakeup,  // woken from a sleep (before a queued wakeup's IPI is delivered)
    Migrate, // moved by a balancer
};

class Policy {
public:
    virtual ~Policy() = default;
    virtual std::unique_ptr<Policy> clone() const = 0;
    virtual std::string name() const = 0;
    // Effective parameters after defaults, for reports and scenario files.
    virtual ParamMap params() const = 0;

    // Called once the simulation is built, before any task starts.
    virtual void attach(PolicyContext) {}
    // Where a new task (fork/exec) or a woken task goes. Must return a PU in
    // the task's cpus_allowed.
    virtual int select_cpu_fork(PolicyContext sim, TaskId t) = 0;
    virtual int select_cpu_wakeup(PolicyContext sim, TaskId t, int waker_cpu) = 0;
    // Every scheduler tick, for every PU (busy or idle).
    virtual void on_tick(PolicyContext, int /*cpu*/) {}
    // A PU just ran out of work (new-idle balancing).
    virtual void on_idle(PolicyContext, int /*cpu*/) {}
    // A task is about to join `cpu`'s runqueue, coming from `from_cpu`
    // (kNoCpu for a new task). A fair-share policy places its vruntime here.
    virtual void on_enqueue(PolicyContext, TaskId, int /*from_cpu*/, int /*cpu*/, EnqueueKind) {}
    // Which queued task `cpu` runs next: an index into rq(cpu).queue (never
    // empty when asked; not asked when it holds one task). The default runs
    // them in arrival order.
    virtual int pick_next(PolicyContext, int /*cpu*/) { return 0; }
    // `t`, taken off `cpu`'s queue, is about to run there (every switch,
    // whether pick_next was asked or not). Its last_ran_ns and
    // slice_start_ns still describe its previous stint on a CPU (or
    // last_ran_ns is -1 if it never ran). Default: nothing.
    virtual void on_switch_in(PolicyContext, int /*cpu*/, TaskId /*t*/) {}
    // On the tick, with more than one task runnable on `cpu`: whether the
    // running one has had its slice. The default is the engine's fair
    // slicing (kSchedLatencyNs shared by the runnable tasks, at least
    // kSchedMinGranularityNs).
    virtual bool check_preempt_tick(PolicyContext sim, int cpu);
    // `woken` just joined `cpu`'s runqueue (woken or moved there) while
    // another task runs: whether it preempts that task. Default: never.
    virtual bool check_preempt_wakeup(PolicyContext, int /*cpu*/, TaskId /*woken*/) { return false; }
    // A task hit an armed chunk (NUMA hinting fault) from `node`.
    virtual void on_hinting_fault(PolicyContext, TaskId, int /*chunk*/, int /*node*/) {}

    // --- what analyses and views may ask a policy ---
    // The node the policy wants the task on (AutoNUMA's preferred node,
    // sched/numa's home node), or kNoNode.
    virtual int preferred_node(PolicyView, TaskId) const { return kNoNode; }
    // The cache-hot threshold the policy's balancer judges migrations by
    // (the 2.6 balancer's cache_hot_time), in ms; negative when it has none.
    virtual double cache_hot_time_ms() const { return -1.0; }

    // The Linux release whose scheduler the policy models; what follows
    // from the release alone (the wakeup path) is derived from it, not
    // restated by each policy. Default: none ({0, 0}).
    virtual KernelRelease modelled_kernel() const { return {}; }
    // The wakeup path the policy runs with: the one `wakeup` set
    // (engine/wakeup_param.h), else its kernel's.
    WakeupMode wakeup_mode() const { return wakeup_ ? *wakeup_ : default_wakeup_mode(); }
    void set_wakeup_mode(WakeupMode m) { wakeup_ = m; }
    // The wakeup path of the kernel the policy models, when `wakeup` is not
    // given (default_wakeup_for()).
    WakeupMode default_wakeup_mode() const { return default_wakeup_for(modelled_kernel()); }
    // With queued wakeups: whether a wakeup from `waker_cpu` onto `target`
    // goes through the target's wake list and an IPI rather than the
    // target's runqueue lock. Default: every remote wakeup, as the series
    // measured on 2.6.39-rc3 and merged in 3.0 did (kernel/sched.c:
    // ttwu_queue(), `cpu != smp_processor_id()`).
    virtual bool queues_wakeup(int waker_cpu, int target) const { return waker_cpu != target; }

private:
    std::optional<WakeupMode> wakeup_;
};

} // namespace schedscope
