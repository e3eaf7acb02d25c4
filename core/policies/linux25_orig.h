#pragma once
// linux-2.5-numa's balancing core: Linux 2.5.59's load_balance(),
// find_busiest_queue() and find_busiest_node(), with the calls that drive
// them as released (variant=orig, January 2003). load_balance() runs from
// the timer tick (idle CPUs every tick, busy ones every 250 ms) and from
// schedule() when a runqueue empties; every NODE_BALANCE_RATE-th call it
// balances over the busiest other node instead of its own.
//
// The tick-driven rework (sched-2.5.59-A2, variant=rework) kept these three
// functions and only passed load_balance() a cpumask from its callers: it
// calls balance() and balance_node() below instead of cpus_to_balance().

#include "engine/simulation.h"
#include "policies/o1_arrays.h"

#include <string>
#include <vector>

namespace schedscope {

// How long after it ran a task counts as cache hot: 2.5's cache_decay_ticks,
// which Linux 2.5 arch/ia64/kernel/smpboot.c: smp_tune_scheduling() sets to
// 10 ticks (about 10 ms) on the TX7's architecture. Both variants apply it
// to every pull, idle or busy, as 2.5.59's CAN_MIGRATE_TASK (which the
// rework did not touch).
inline constexpr double kLinux25CacheDecayMs = 10.0;
// Linux 2.5.59 include/asm-ia64/topology.h and asm-generic/topology.h:
// NODE_BALANCE_RATE 10 (i386 NUMA-Q used 100).
inline constexpr std::int64_t kLinux25NodeBalanceRate = 10;
// Linux 2.5.59 kernel/sched.c: NODE_THRESHOLD 125, find_busiest_node()'s
// "100*load > NODE_THRESHOLD*this_load".
inline constexpr std::int64_t kLinux25NodeThresholdPct = 125;
// Linux 2.5.59 kernel/sched.c: BUSY_REBALANCE_TICK (HZ/4 ?: 1), 250 ms;
// the rework made it HZ/5 (the line it removes in the A2 -> B diff).
inline constexpr std::int64_t kLinux25OrigBusyTickMs = 250;

struct Linux25OrigParams {
    std::int64_t idle_tick_ms = 1; // IDLE_REBALANCE_TICK (HZ/1000 ?: 1)
    std::int64_t busy_tick_ms = kLinux25OrigBusyTickMs;
    std::int64_t node_balance_rate = kLinux25NodeBalanceRate;
    std::int64_t node_threshold_pct = kLinux25NodeThresholdPct;
};

class Linux25Orig {
public:
    explicit Linux25Orig(Linux25OrigParams p) : p_(p) {}
    void on_tick(PolicyContext sim, int cpu);
    void on_idle(PolicyContext sim, int cpu);

    // The rework's entry points. balance(): load_balance(this_rq, idle,
    // cpumask) over `mask`. balance_node(): sched-2.5.59-A2 balance_node(),
    // find_busiest_node() and then balance() over that node plus this CPU.
    // Both do nothing while our own migration is under way.
    void balance(PolicyContext sim, int cpu, bool idle, const CpuSet &mask, const std::string &how);
    void balance_node(PolicyContext sim, int cpu, bool idle, const std::string &how);
    // The O(1) runqueues whose order load_balance() walks (timeslice=o1), or
    // none (timeslice=cfs: the engine's queue, from its tail). The policy
    // that owns both sets it, and again on a copy.
    void use_arrays(O1Arrays *arrays) { arrays_ = arrays; }

private:
    // 2.5.59's per-runqueue balancing state (struct runqueue), per CPU.
    struct RqState {
        int nr_balanced = 0;             // rq->nr_balanced: calls since the last node balance
        std::vector<int> prev_cpu_load;  // rq->prev_nr_running[]: each CPU's length at our last look
        std::vector<int> prev_node_load; // rq->prev_node_load[]: decayed node loads as we saw them
    };
    RqState &state(PolicyView sim, int cpu);
    int find_busiest_node(PolicyView sim, RqState &st, int this_node, int &this_load, int &max_load) const;
    CpuSet cpus_to_balance(PolicyView sim, int cpu, std::string &why);
    void load_balance(PolicyContext sim, int cpu, bool idle, const std::string &how);

    Linux25OrigParams p_;
    std::vector<RqState> rq_;    // sized on first use
    O1Arrays *arrays_ = nullptr; // see use_arrays()
    std::vector<TaskId> order_;  // balance()'s walk, kept to save an allocation a pass
    bool acting_ = false;        // our own migration must not re-enter new-idle balancing
};

} // namespace schedscope
