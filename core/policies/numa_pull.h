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
};

} // namespace schedscope
