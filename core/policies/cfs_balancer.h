#pragma once
// Linux 3.6's CFS and its load balancer as one policy base. The fair class
// (cfs_fair.cpp): per-CPU runqueues ordered by vruntime with nice weights,
// slices from sched_latency / sched_min_granularity scaled by the CPU count,
// wakeup preemption, vruntime placement on fork, wakeup and migration,
// wake_affine and select_idle_sibling, fork/exec balancing. The balancer
// (cfs_balancer.cpp): weighted, decayed cpu_load[] with per-domain indices,
// find_busiest_group / find_busiest_queue / calculate_imbalance, move_tasks
// with can_migrate_task (task_hot, nr_balance_failed > cache_nice_tries),
// active balancing through the stopper, and new-idle balancing gated by
// avg_idle. With no hook overridden it is the `cfs` policy; the NUMA
// policies derive from it (base=cfs) through the same three hooks as
// DomainBalancer's.

#include "engine/policy.h"
#include "engine/recording.h"
#include "policies/cfs_domain.h"
#include "policies/cfs_params.h"
#include "policies/next_balance.h"
#include "policies/numa_pull.h"
#include "util/prng.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace schedscope {

class CfsBalancer : public Policy {
public:
    explicit CfsBalancer(CfsParams params) : cp_(std::move(params)) {}

    void attach(PolicyContext sim) override;
    int select_cpu_fork(PolicyContext sim, TaskId t) override;
    int select_cpu_wakeup(PolicyContext sim, TaskId t, int waker_cpu) override;
    void on_tick(PolicyContext sim, int cpu) override;
    void on_idle(PolicyContext sim, int cpu) override;
    void on_enqueue(PolicyContext sim, TaskId t, int from_cpu, int cpu, EnqueueKind kind) override;
    int pick_next(PolicyContext sim, int cpu) override;
    bool check_preempt_tick(PolicyContext sim, int cpu) override;
    bool check_preempt_wakeup(PolicyContext sim, int cpu, TaskId woken) override;
    // Linux 3.6 (so TTWU_QUEUE on, kernel/sched/features.h: wakeup=queued
    // by default, engine/policy.h's default_wakeup_for()).
    KernelRelease modelled_kernel() const override { return {3, 6}; }
    // task_hot()'s threshold, sysctl_sched_migration_cost (cfs_balancer.cpp).
    double cache_hot_time_ms() const override { return static_cast<double>(cp_.sched_migration_cost_ns) / 1e6; }
    // Linux 3.6 kernel/sched/core.c: ttwu_queue() queues only a wakeup that
    // crosses a last-level cache (!cpus_share_cache(), since 3.3); within
    // one the waker takes the target's lock.
    bool queues_wakeup(int waker_cpu, int target) const override;

    // What tests and views read.
    const std::vector<CfsDomain> &domains_of(int cpu) const { return domains_.at(static_cast<size_t>(cpu)); }
    // A level's interval or last pass may change through this reference:
    // the kept time of `cpu`'s next periodic balance is forgotten, so that
    // its next tick walks the levels (and keeps the time again).
    std::vector<CfsDomain> &domains_mut(int cpu)
    {
        if (static_cast<size_t>(cpu) < next_balance_.size())
            next_balance_[static_cast<size_t>(cpu)] = NextBalance{};
        return domains_.at(static_cast<size_t>(cpu));
    }
    const CfsParams &cfs_params() const { return cp_; }
    SimTime latency_ns() const { return latency_ns_; }
    SimTime min_granularity_ns() const { return min_gran_ns_; }
    SimTime wakeup_granularity_ns() const { return wakeup_gran_ns_; }
    SimTime min_vruntime(int cpu) const { return min_vruntime_.at(static_cast<size_t>(cpu)); }
    std::uint64_t cpu_load(int cpu, int i) const
    {
        return cpu_load_.at(static_cast<size_t>(cpu))[static_cast<size_t>(i)];
    }
    SimTime avg_idle_ns(int cpu) const { return avg_idle_.at(static_cast<size_t>(cpu)); }
    void set_avg_idle_ns(int cpu, SimTime v) { avg_idle_.at(static_cast<size_t>(cpu)) = v; }
    // rq->load.weight: the weights of the runnable tasks, running one included.
    std::uint64_t weighted_cpuload(PolicyView sim, int cpu) const;
    // Linux 3.6 kernel/sched/fair.c: sched_slice() of the running task.
    SimTime sched_slice(PolicyView sim, int cpu, TaskId t, bool on_rq) const;
    // The running task's vruntime now (update_curr()).
    SimTime curr_vruntime(PolicyView sim, int cpu) const;
    // Linux 3.6 kernel/sched/fair.c: task_hot().
    bool task_hot(PolicyView sim, TaskId t) const;
    // A level's periodic balancing pass at `cpu`, as rebalance_domains() runs
    // it (idle: the CPU runs nothing); whether it moved a task.
    bool balance_level(PolicyContext sim, int cpu, int level, bool idle);

protected:
    enum class IdleType { NotIdle, Idle, NewIdle }; // enum cpu_idle_type

    // NUMA hooks, as DomainBalancer's: > 0 if the move brings the task
    // closer to its memory (or home), < 0 if it takes it away.
    virtual int numa_preference(PolicyView, TaskId, int /*from_cpu*/, int /*to_cpu*/) const { return 0; }
    virtual std::string numa_reason(PolicyView, TaskId) const { return "it prefers its node"; }
    // How that preference enters can_migrate_task() (numa_pull.h).
    virtual NumaPull numa_pull() const { return NumaPull::AwayIsHot; }
    // AutoNUMA27 task_autonuma_cpu(): no node chosen for the task yet, or
    // `cpu` is on the chosen one.
    virtual bool numa_affine(PolicyView, TaskId, int /*cpu*/) const { return true; }
    // Whether the last on_tick() ran the periodic balancing softirq
    // (run_rebalance_domains(): some level was due) on a CPU running a task;
    // AutoNUMA27 runs its task exchange there.
    bool balanced_busy_on_last_tick() const { return balanced_busy_on_last_tick_; }
    virtual int fork_node(PolicyView, TaskId) const { return kNoNode; }

    ParamMap base_params() const;
    bool move_task(PolicyContext sim, TaskId t, int to_cpu, int by_cpu, DecisionKind kind, const std::string &why);
    bool acting() const { return acting_; }

private:
    // --- fair class (cfs_fair.cpp) ---
    std::int64_t weight(PolicyView sim, TaskId t) const;
    void update_min_vruntime(PolicyView sim, int cpu);
    bool idle_cpu(PolicyView sim, int cpu) const; // core.c idle_cpu(): wake list counts
    bool wake_affine(PolicyView sim, const CfsDomain &sd, TaskId t, int this_cpu, int prev_cpu, std::string *why) const;
    int select_idle_sibling(PolicyView sim, TaskId t, int target, int this_cpu, int prev_cpu, std::string *why) const;
    int find_idlest_group(PolicyView sim, const CfsDomain &sd, const CpuSet &allowed, int this_cpu, int load_idx) const;
    int find_idlest_cpu(PolicyView sim, const CpuSet &group, const CpuSet &allowed, int this_cpu) const;

    // --- balancer (cfs_balancer.cpp) ---
    std::uint64_t source_load(PolicyView sim, int cpu, int type) const;
    std::uint64_t target_load(PolicyView sim, int cpu, int type) const;
    void update_cpu_load(PolicyView sim, int cpu);
    // on_tick() as Linux 3.6 orders it (scheduler_tick(): cpu_load[],
    // min_vruntime, trigger_load_balance()), for the ticks its common case
    // inline does not cover; and, once cpu_load[] and min_vruntime are
    // done, the periodic balancing that may be due. Out of line, so that
    // the common case saves no registers.
    [[gnu::noinline]] void on_tick_in_full(PolicyContext sim, int cpu);
    [[gnu::noinline]] void balance_on_tick(PolicyContext sim, int cpu);
    // Whether any level was due (the softirq had work); with
    // `rq_next_balance`, rq->next_balance as 3.6 sets it (the levels walked,
    // each at the interval of the idle type it was walked with).
    bool rebalance_domains(PolicyContext sim, int cpu, IdleType idle, SimTime *rq_next_balance = nullptr);
    // rebalance_domains()' interval of a level, in ns, for a CPU idle or not.
    SimTime balance_interval_ns(PolicyView sim, const CfsDomain &sd, IdleType idle) const;
    // The earliest time a level of `cpu` is due if the CPU is then idle (or
    // busy), derived from its levels; and the check (SCHEDSCOPE_CHECK_INVARIANTS)
    // that the kept one, unless forgotten, is that.
    // (A kept 0 is forgotten: the next tick walks the levels.)
    NextBalance earliest_balance(PolicyView sim, int cpu) const;
    void check_next_balance(PolicyView sim, int cpu) const;
    void idle_balance(PolicyContext sim, int cpu);
    // CONFIG_NO_HZ (CfsParams::nohz, cfs_balancer.cpp): an idle CPU's tick
    // is stopped and it leaves the busy counts; its first busy tick puts it
    // back. A busy CPU's tick may kick the first idle CPU, which balances
    // itself and then every other idle CPU.
    void nohz_enter_idle(int cpu);
    void nohz_exit_idle(int cpu);
    bool nohz_kick_needed(PolicyView sim, int cpu) const;
    void nohz_balancer_kick(PolicyContext sim);
    void nohz_idle_balance(PolicyContext sim, int ilb);
    // Linux 3.6 load_balance(): whether load moved; *balance = 0 when
    // another CPU of the local group balances this level. Its pieces below
    // carry the names of the 3.6 functions they follow.
    bool load_balance(PolicyContext sim, int cpu, CfsDomain &sd, IdleType idle, bool *balance);
    struct DomainStats { // struct sd_lb_stats, the fields the model uses
        int busiest = -1, local = -1;
        std::uint64_t total_load = 0, total_pwr = 0, avg_load = 0;
        std::uint64_t this_load = 0, this_load_per_task = 0, this_nr_running = 0, this_idle_cpus = 0;
        bool this_has_capacity = false;
        std::uint64_t max_load = 0, busiest_load_per_task = 0, busiest_nr_running = 0, busiest_group_capacity = 0;
        std::uint64_t busiest_idle_cpus = 0, busiest_group_weight = 0;
        bool busiest_has_capacity = false, group_imb = false;
        // sched/numa, 25 October 2012 posting: update_sd_numa_stats(), on a
        // NUMA level (SD_NUMA) under NumaPull::OffnodeFirst: the local group's
        // on- and off-node task counts, and each other group with off-node
        // tasks, in the order the groups are walked, with the 1-in-n chance of
        // replacing the one chosen before it (n = the level's span weight over
        // the group's). The draws are made in check_numa_busiest_group(), the
        // only reader: the same choice, with no draw when it is not asked.
        struct NumaGroup {
            int group = -1;
            std::uint64_t offnode_weight = 0, offnode_running = 0, rand_n = 1;
        };
        bool numa_level = false;
        std::uint64_t this_offnode_running = 0, this_onnode_running = 0;
        std::vector<NumaGroup> numa_groups;
    };
    // Balanced: find_busiest_group()'s `ret` exits; OutBalanced: its
    // out_balanced ones, where sched/numa's October 2012 posting looks
    // for an off-node task to pull (NumaPull::OffnodeFirst).
    enum class BusiestGroup { NotOurTurn, Balanced, OutBalanced, Found };
    bool update_sd_lb_stats(PolicyView sim, int this_cpu, const CfsDomain &sd, IdleType idle, const CpuSet &excluded,
                            DomainStats &sds) const;
    BusiestGroup find_busiest_group(PolicyView sim, int this_cpu, const CfsDomain &sd, IdleType idle,
                                    const CpuSet &excluded, DomainStats &sds, long *imbalance) const;
    std::uint64_t calculate_imbalance(PolicyView sim, int this_cpu, const CfsDomain &sd, DomainStats &sds) const;
    std::uint64_t fix_small_imbalance(PolicyView sim, int this_cpu, const CfsDomain &sd, DomainStats &sds) const;
    int find_busiest_queue(PolicyView sim, const CfsDomain &sd, int group, const CpuSet &excluded,
                           long imbalance) const;
    int move_tasks(PolicyContext sim, int this_cpu, int busiest, const CfsDomain &sd, IdleType idle, long *imbalance,
                   bool *any_allowed, const std::function<const std::string &()> &why);
    int move_tasks_pass(PolicyContext sim, int this_cpu, int busiest, const CfsDomain &sd, IdleType idle,
                        long *imbalance, bool *any_allowed, const std::function<const std::string &()> &why,
                        const std::vector<TaskId> &order, int loop_max, bool strict);
    void active_load_balance_cpu_stop(PolicyContext sim, int this_cpu, int busiest, TaskId cur, const CfsDomain &sd,
                                      const std::function<const std::string &()> &why, bool numa_active = false);
    // load_balance()'s failure path: the failure count, and the stopper
    // when need_active_balance() says so.
    void after_failed_pass(PolicyContext sim, int this_cpu, int busiest, CfsDomain &sd, IdleType idle, bool numa_pass,
                           bool *all_pinned, const std::function<const std::string &()> &why);

    // --- sched/numa's 25 October 2012 posting (cfs_numa_pull.cpp),
    // NumaPull::OffnodeFirst only ---
    // A task with a home (preferred_node()) queued or running on a CPU off
    // that node: on the runqueue's offnode_tasks list.
    bool offnode(PolicyView sim, TaskId t, int cpu) const;
    // task_numa_hot(): the move brings the task no nearer its home.
    bool task_numa_hot(PolicyView sim, TaskId t, int from_cpu, int to_cpu) const;
    // `order` (a walk of a runqueue) with its off-node tasks first, each
    // part in its own order (offnode_tasks, then cfs_tasks); returns how
    // many are off their node (where the second part starts).
    size_t offnode_first(PolicyView sim, int cpu, std::vector<TaskId> &order) const;
    // update_sg_numa_stats() for one CPU: rq->offnode_running,
    // onnode_running, offnode_weight.
    struct NumaRq {
        std::uint64_t offnode_running = 0, onnode_running = 0, offnode_weight = 0;
    };
    NumaRq numa_rq(PolicyView sim, int cpu) const;
    void update_sd_numa_stats(PolicyView sim, const CfsDomain &sd, const CpuSet &excluded, DomainStats &sds) const;
    bool check_numa_busiest_group(DomainStats &sds, long *imbalance);
    int find_busiest_numa_queue(PolicyView sim, const CfsDomain &sd, int group, const CpuSet &excluded);
    // pick_numa_rand(n): true with probability 1/n.
    bool pick_numa_rand(std::uint64_t n);

    CfsParams cp_;
    SimTime latency_ns_ = 0, min_gran_ns_ = 0, wakeup_gran_ns_ = 0;
    int nr_latency_ = 8;                                 // sched_nr_latency: latency / min_granularity
    SimTime max_lb_interval_ms_ = 100;                   // max_load_balance_interval
    std::vector<std::vector<CfsDomain>> domains_;        // [cpu][level], lowest first
    std::vector<int> llc_level_;                         // [cpu]: sd_llc, the highest level sharing a cache, or -1
    std::vector<int> llc_id_;                            // [cpu]: sd_llc_id, the first CPU of sd_llc (itself if none)
    std::vector<int> cpu_power_;                         // [cpu]
    std::vector<SimTime> min_vruntime_;                  // [cpu] cfs_rq->min_vruntime
    std::vector<std::array<std::uint64_t, 5>> cpu_load_; // [cpu] rq->cpu_load[CPU_LOAD_IDX_MAX]
    std::vector<SimTime> avg_idle_;                      // [cpu] rq->avg_idle
    std::vector<SimTime> idle_stamp_;                    // [cpu] rq->idle_stamp (-1 = none)
    // [cpu]: earliest_balance() as of the CPU's last walk over its levels
    // (rebalance_domains). Only load_balance() and that walk change a
    // level's interval or last pass, on levels reached through domains_mut(),
    // which forgets the kept time; the walk keeps it again at its end. Before
    // it no level is due, so the tick skips the walk, which would find none
    // and change nothing (rq->next_balance in Linux 3.6, which
    // trigger_load_balance() compares).
    std::vector<NextBalance> next_balance_;
    // CONFIG_NO_HZ, when CfsParams::nohz is on. [cpu]: the tick stopped on
    // entering idle (NOHZ_TICK_STOPPED, in nohz.idle_cpus_mask, and not
    // counted in its groups' nr_busy_cpus) until its first busy tick.
    bool nohz_ = false;
    std::vector<char> nohz_idle_;
    int nohz_nr_cpus_ = 0;          // nohz.nr_cpus
    SimTime nohz_next_balance_ = 0; // nohz.next_balance
    bool all_nice0_ = true;
    bool acting_ = false;
    // get_random_int() of sched/numa's October 2012 balancer
    // (pick_numa_rand()), seeded from the run's seed at attach().
    Prng numa_rng_;
    bool balanced_busy_on_last_tick_ = false;
};

} // namespace schedscope
