#pragma once
// The scheduling-domain balancer of Linux 2.6 (2004): periodic balancing
// per domain level on the tick (more often when idle), new-idle balancing,
// exec placement down the hierarchy, wake-affine wakeups, cache-hot
// protection with cache_nice_tries, and active balancing after repeated
// failures. With no hooks overridden it is the `sched-domains` policy, the
// "no NUMA affinity" baseline; the NUMA policies derive from it and steer
// it through the virtual hooks. The `sched-domains` policy alone also
// models what 2.6.9's scheduler does beside the balancer (Scope::Whole):
// new tasks balanced at exec only (clones start on their creator's CPU),
// and the O(1) runqueues (policies/o1_arrays.h).

#include "engine/policy.h"
#include "engine/recording.h"
#include "policies/balancer_params.h"
#include "policies/cpu_choice.h"
#include "policies/next_balance.h"
#include "policies/numa_pull.h"
#include "policies/o1_arrays.h"
#include "policies/sched_domain.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace schedscope {

class DomainBalancer : public Policy {
public:
    // How much of Linux 2.6.9's scheduler is modelled beside the balancer:
    // none (the NUMA policies and bind, whose kernels placed and sliced
    // tasks their own way: placement down the hierarchy, the engine's fair
    // slices) or the whole of it (sched-domains: exec-only balancing and
    // the O(1) arrays and timeslices).
    enum class Scope { BalancerOnly, Whole };
    explicit DomainBalancer(BalancerParams params, Scope scope = Scope::BalancerOnly)
        : bp_(std::move(params)), whole_(scope == Scope::Whole)
    {
    }

    void attach(PolicyContext sim) override;
    int select_cpu_fork(PolicyContext sim, TaskId t) override;
    int select_cpu_wakeup(PolicyContext sim, TaskId t, int waker_cpu) override;
    void on_tick(PolicyContext sim, int cpu) override;
    void on_idle(PolicyContext sim, int cpu) override;
    void on_enqueue(PolicyContext sim, TaskId t, int from_cpu, int cpu, EnqueueKind kind) override;
    // Scope::Whole: the O(1) arrays' order, slices and preemption; else the
    // engine's defaults.
    int pick_next(PolicyContext sim, int cpu) override;
    void on_switch_in(PolicyContext sim, int cpu, TaskId t) override;
    bool check_preempt_tick(PolicyContext sim, int cpu) override;
    bool check_preempt_wakeup(PolicyContext sim, int cpu, TaskId woken) override;
    // The O(1) runqueues (Scope::Whole), else null.
    const O1Arrays *o1_arrays() const { return whole_ ? &o1_ : nullptr; }
    O1Arrays *o1_arrays() { return whole_ ? &o1_ : nullptr; }

    const std::vector<SchedDomain> &domains_of(int cpu) const { return domains_.at(cpu); }
    // The earliest time a level of `cpu` is due for periodic balancing if
    // the CPU is then idle (or busy), as kept between ticks and as derived
    // from its levels now; the two agree at every moment, and the tick
    // skips a CPU before it.
    SimTime next_balance_ns(int cpu, bool idle) const { return next_balance_ns_.at(static_cast<size_t>(cpu)).at(idle); }
    SimTime earliest_balance_ns(PolicyView sim, int cpu, bool idle) const;
    const BalancerParams &balancer_params() const { return bp_; }
    double cache_hot_time_ms() const override { return bp_.cache_hot_time_ms; }
    // Linux 2.6.9's balancer (the NUMA policies on base=sched-domains and
    // bind too).
    KernelRelease modelled_kernel() const override { return {2, 6}; }

protected:
    enum class IdleType { NotIdle, Idle, NewIdle };

    // NUMA hook: > 0 if moving the task brings it closer to its memory (or
    // home), < 0 if it takes it away, 0 if indifferent. A move away is
    // refused like a cache-hot one, until balancing has failed
    // cache_nice_tries times (2.6.9 can_migrate_task's test).
    virtual int numa_preference(PolicyView, TaskId, int /*from_cpu*/, int /*to_cpu*/) const { return 0; }
    // Why the task resists a move away (completes "task 5 kept: ...").
    virtual std::string numa_reason(PolicyView, TaskId) const { return "it prefers its node"; }
    // How that preference enters can_migrate_task() (numa_pull.h), and
    // whether `cpu` is on the task's node for StrictFirstPass.
    virtual NumaPull numa_pull() const { return NumaPull::AwayIsHot; }
    virtual bool numa_affine(PolicyView, TaskId, int /*cpu*/) const { return true; }
    // Whether the last on_tick() balanced (some level was due) on a CPU
    // running a task: where AutoNUMA27 runs its task exchange.
    bool balanced_busy_on_last_tick() const { return balanced_busy_on_last_tick_; }
    // Placement hook: the node a new task should start on, or kNoNode.
    virtual int fork_node(PolicyView, TaskId) const { return kNoNode; }

    // Adds the balancer's effective parameters and the wakeup knob.
    ParamMap base_params() const;
    // Migrate with the re-entrancy guard: the engine's switch_to_next may
    // call on_idle while we are in the middle of a decision.
    bool move_task(PolicyContext sim, TaskId t, int to_cpu, int by_cpu, DecisionKind kind, const std::string &why);
    bool acting() const { return acting_; }
    // Linux 2.6.9 active_load_balance(): busiest's migration thread pushes
    // queued tasks towards push_cpu's level (protected: tests push by hand).
    bool active_balance(PolicyContext sim, int busiest, int push_cpu);
    // Linux 2.6.9 kernel/sched.c: task_hot(): the time since p->last_ran,
    // which only schedule() sets, when the task stops running (2.6.9-rc3
    // still measured from p->timestamp, which activate_task() also stamps
    // at each wakeup; the release counts a long sleeper as cold when woken).
    // -1 for a task that never ran: a new task is cold.
    double hot_age_ms(PolicyView sim, TaskId t) const;

    // Linux 2.6.9 kernel/sched.c: source_load() and target_load(), in
    // SCHED_LOAD_SCALE units: the lower (a migration source's) and the
    // higher (a target's) of the decayed rq->cpu_load and the current
    // nr_running * SCHED_LOAD_SCALE. `uncounted`: runnable tasks the kernel
    // counts there and the engine does not yet (an exec'ing task).
    long source_load(PolicyView sim, int cpu, int uncounted = 0) const;
    long target_load(PolicyView sim, int cpu, int uncounted = 0) const;
    // The decayed rq->cpu_load (0 before the CPU's first tick).
    long cpu_load(int cpu) const { return cpu_load_.empty() ? 0 : cpu_load_[static_cast<size_t>(cpu)]; }
    // The same, writable (tests build a runqueue's history by hand).
    long &cpu_load_of(int cpu) { return cpu_load_.at(static_cast<size_t>(cpu)); }
    // What find_busiest_group() and find_busiest_queue() answer.
    struct Busiest {
        int group = -1;                   // the busiest group, -1 when balanced
        int cpu = -1;                     // its busiest queue (find_busiest_queue), -1 if none
        long imbalance = 0;               // tasks to move (*imbalance)
        long max_load = 0, this_load = 0; // per cpu_power, SCHED_LOAD_SCALE units
        bool out_balanced = false;        // within imbalance_pct, taken by the idle rule
    };
    // find_busiest_group() then, with a group, find_busiest_queue().
    Busiest find_busiest(PolicyView sim, int cpu, const SchedDomain &sd, IdleType idle) const;
    Busiest find_busiest_group(PolicyView sim, const SchedDomain &sd, IdleType idle) const;
    int find_busiest_queue(PolicyView sim, const SchedDomain &sd, int group) const;
    // find_busiest_group()'s loop: the groups' scaled loads, this CPU's
    // group's and the busiest other's, and the totals.
    struct GroupLoads {
        int group = -1;
        long max_load = 0, this_load = 0;
        long total_load = 0, total_pwr = 0;
    };
    GroupLoads group_loads(PolicyView sim, const SchedDomain &sd) const;

private:
    // Where a woken task goes and what moved it there, for the reason.
    struct WakeMove {
        int target = -1;
        const SchedDomain *affine_sd = nullptr; // the waker's level that took it (wake-affine or wake-balance)
        bool cold = false;                      // taken as cold (wake-affine)
        double ago = -1;                        // ms since it last ran, -1 if never
        long load = 0, this_load = 0, imbalance = 0;
        int idle_from = -1; // the busy target it was handed away from (wake_idle)
    };
    // select_cpu_wakeup()'s steps: try_to_wake_up()'s move to the waker's
    // CPU, wake_idle(), and the reason logged.
    void wake_affine(PolicyView sim, TaskId t, int waker_cpu, WakeMove &m) const;
    void wake_idle(PolicyView sim, const Task &task, WakeMove &m) const;
    std::string_view wakeup_reason(TaskId t, int prev, int waker_cpu, const WakeMove &m) const;

    // Linux 2.6.9 kernel/sched.c: load_balance(), out_balanced: a pass that
    // finds nothing to do waits twice as long, up to max_interval. It leaves
    // nr_balance_failed as it is (the reset there came with later kernels).
    static bool settle_balanced(SchedDomain &sd)
    {
        sd.balance_interval_ms = std::min(sd.max_interval_ms, sd.balance_interval_ms * 2);
        return false;
    }
    bool load_balance(PolicyContext sim, int cpu, SchedDomain &sd, IdleType idle);
    // 2.6.9 rebalance_tick(): the decayed load, then the levels due; true
    // when a level was due (a pass ran, which may have moved tasks).
    // Inlined into on_tick(), its only caller: every PU on every tick runs
    // it, and most runs stop before the levels.
    [[gnu::always_inline]] inline bool rebalance_tick(PolicyContext sim, int cpu);
    // on_tick() as 2.6.9 orders it, for the ticks its common case does not
    // cover (on_tick), out of line: a slice that ends or had ended, a level
    // due, the invariant checks.
    [[gnu::noinline]] void on_tick_in_full(PolicyContext sim, int cpu);
    // on_tick()'s common case once a level may be due (or the invariant
    // checks are on): the rest of rebalance_tick() and what follows it.
    [[gnu::noinline]] void balance_on_tick(PolicyContext sim, int cpu);
    static SimTime balance_interval_ns(SimTime tick_ns, const SchedDomain &sd, IdleType idle)
    {
        // Linux 2.6.9 kernel/sched.c: rebalance_tick(): a level's interval is
        // balance_interval, times busy_factor on a busy CPU, at least a tick.
        const double interval_ms = sd.balance_interval_ms * (idle == IdleType::NotIdle ? sd.busy_factor : 1);
        return std::max<SimTime>(tick_ns, static_cast<SimTime>(interval_ms * 1e6));
    }
    // The tick's pass over the levels of `cpu`, out of line: most ticks
    // skip it, and its loop would weigh on them.
    [[gnu::noinline]] void rebalance_levels(PolicyContext sim, int cpu, IdleType idle);
    // on_idle()'s new-idle pass (2.6.9 idle_balance()).
    void newidle_balance(PolicyContext sim, int cpu);
    NextBalance earliest_balance(PolicyView sim, int cpu) const;
    void check_next_balance(PolicyView sim, int cpu) const;
    // The rest of a pass that found an imbalance, out of line: most passes
    // settle before it (on_idle runs them inline), and its strings would
    // weigh on them.
    bool balance_from(PolicyContext sim, int cpu, SchedDomain &sd, IdleType idle, const Busiest &b);
    // `why_imbalanced` writes the reason on first use (most passes need none).
    bool pull_from(PolicyContext sim, int cpu, int busiest, SchedDomain &sd, IdleType idle, int want,
                   const std::function<const std::string &()> &why_imbalanced);

    void check_level_overrides(PolicyView sim) const;
    // Scope::Whole's placement of a new task (domain_269.cpp): a clone on
    // its creator's CPU, an exec'd program by sched_exec().
    int place_new_269(PolicyContext sim, TaskId t);
    int sched_exec_cpu(PolicyContext sim, TaskId t, std::string &why) const;

    BalancerParams bp_;
    std::vector<std::vector<SchedDomain>> domains_;      // [cpu][level], lowest first
    std::vector<int> wake_idle_level_;                   // [cpu]: first level with SD_WAKE_IDLE, or -1
    std::vector<int> levels_in_node_;                    // [cpu]: how many of its lowest levels lie in its node
    std::vector<std::pair<int, TaskId>> ranked_scratch_; // pull_from's candidate list, kept for its capacity
    std::vector<long> cpu_load_;                         // [cpu]: 2.6.9 rq->cpu_load, SCHED_LOAD_SCALE units
    std::vector<NextBalance> next_balance_ns_;           // [cpu]: earliest_balance_ns as of its last full tick
    bool acting_ = false;
    bool balanced_busy_on_last_tick_ = false;
    bool whole_ = false;                // Scope::Whole
    O1Arrays o1_;                       // Scope::Whole: the O(1) runqueues
    std::vector<std::uint8_t> resched_; // [cpu]: the running task's slice ended this tick
    std::vector<TaskId> order_scratch_; // move_tasks()'s walk, kept for its capacity
};

} // namespace schedscope
