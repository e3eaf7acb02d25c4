#pragma once
// How a NUMA policy's preference for a task's node enters the balancers'
// can_migrate_task() (CfsBalancer, DomainBalancer). Neither Linux 3.6 nor
// 2.6.9 has such a test; each 2012 patch added its own.

namespace schedscope {

enum class NumaPull {
    // A move that takes a task away from its node counts as cache hot, so
    // it waits for cache_nice_tries failed passes, and moves towards a
    // task's node are tried first (sched/numa's March 2012 posting,
    // task_numa_hot()).
    AwayIsHot,
    // AutoNUMA27 (PATCH 18/33, 4 October 2012: kernel/sched/fair.c
    // move_tasks() and move_one_task() with LBF_NUMA, kernel/sched/numa.c
    // sched_autonuma_can_migrate_task()): a first pass takes only tasks for
    // which the pulling CPU is on their node (the policy's numa_affine(),
    // task_autonuma_cpu()); if load is still to move, a second pass takes
    // any task as the plain balancer does (AutoNUMA27's default
    // autonuma_flags leave load_balance_strict off).
    StrictFirstPass,
    // sched/numa's 25 October 2012 posting ([PATCH 23/31] "sched, numa, mm:
    // Implement home-node awareness", with the feature defaults it and
    // [PATCH 26/31] leave: NUMA_HOT, NUMA_PULL, NUMA_PULL_BIAS on,
    // NUMA_TTWU_BIAS off). The home is the policy's preferred_node().
    // can_migrate_task(): only a busy CPU's pass (CPU_NOT_IDLE) counts a
    // move that brings the task no nearer its home by node_distance() as
    // hot (task_numa_hot()). move_tasks() and move_one_task(): the tasks
    // running off their home node are walked first (the runqueue's
    // offnode_tasks list), then the rest (cfs_tasks). find_busiest_group():
    // a NUMA level found balanced by imbalance_pct or the idle-CPU test still
    // pulls one off-node task (check_numa_busiest_group()), from a randomly
    // chosen group and runqueue that have one, if the pulling group has an
    // off-node or homeless task to trade; a lone off-node task is pushed by
    // the stopper at once (need_active_numa_balance()). CfsBalancer only.
    OffnodeFirst,
};

} // namespace schedscope
