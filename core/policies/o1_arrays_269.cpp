// O1Rules::Linux269: Linux 2.6.9's sleep average and what is built on it,
// read in the released v2.6.9 kernel/sched.c function by function. Every
// constant below is that file's; the functions are named beside each rule.
//
// How the engine's events map onto the kernel's calls:
// - a wakeup (EnqueueKind::Wakeup) is try_to_wake_up() -> activate_task():
//   recalc_task_prio() with the time slept, then p->timestamp = now;
// - Policy::on_switch_in is schedule() picking the task: its on-runqueue
//   credit (p->activated > 0), then p->timestamp = now;
// - a task leaving the CPU (blocking, preempted, its slice over) is
//   schedule()'s charge of the time run (prev->sleep_avg -= run_time). The
//   engine has no hook there; the charge is made at the task's next event
//   (its wakeup or its next switch-in), from the engine's record of when it
//   stopped (Task::last_ran_ns), which nothing reads in between: the
//   arithmetic is the kernel's, made later. A slice end or a
//   TIMESLICE_GRANULARITY requeue charges at the tick, as schedule() does
//   at once; a switch at that same instant is that same schedule() call.
//
// p->activated, which the engine's wakeups do not carry, is taken from the
// operation the task was blocked in:
// - Sleep (a wait that ends with an interrupt: the I/O completion that
//   Op::channel names, or a timer): for a user task a blocking disk I/O,
//   which 2.6.9 waits for in TASK_UNINTERRUPTIBLE (the block layer's waits
//   on a buffer, a page or a direct I/O all sleep uninterruptibly), so
//   try_to_wake_up() sets -1; for a kernel thread (the OS noise's kworker
//   and daemons) a timer's interruptible sleep, woken from the timer
//   interrupt (in_interrupt(): 2).
// - Wait (a channel's token): woken by another task's Post, in process
//   context (1). The one exception is ksoftirqd, whose token the engine's
//   device interrupt posts: the kernel's 2 there (a full rather than a 30 %
//   on-runqueue credit) is not modelled; it changes nothing for a thread
//   that sleeps near all of its time (its sleep average stays at the cap).
//
// Not modelled: real-time tasks (rt_task(): the engine has none); the
// timestamp adjustments between CPUs' clocks (activate_task()'s and
// pull_task()'s timestamp_last_tick arithmetic: the model's CPUs share one
// clock); sched_fork()'s halving of the parent's slice and
// wake_up_new_task()'s PARENT_PENALTY (100: it only rounds the parent's
// sleep average down to its bonus) and child-runs-first, and sched_exit()'s
// return of a child's slice and EXIT_WEIGHT-weighted sleep average: the
// engine's tasks have no running parent (o1_arrays.h); sync wakeups, whose
// preemption try_to_wake_up() skips (the engine's wakeups carry no sync
// flag); the SMT sleeper rules (dependent_sleeper(): no SMT level here).

#include "engine/simulation.h"
#include "policies/o1_arrays.h"

#include <algorithm>

namespace schedscope {

namespace {
// Linux 2.6.9 kernel/sched.c, the "tuning knobs" and the macros built on
// them: MAX_RT_PRIO 100, MAX_PRIO 140, MAX_USER_PRIO 40, PRIO_BONUS_RATIO
// 25 (so MAX_BONUS = 40 * 25 / 100 = 10), INTERACTIVE_DELTA 2,
// DEF_TIMESLICE 100 ms, MIN_TIMESLICE 5 ms (at least a jiffy),
// ON_RUNQUEUE_WEIGHT 30, CHILD_PENALTY 95, CREDIT_LIMIT 100;
// MAX_SLEEP_AVG = DEF_TIMESLICE * MAX_BONUS jiffies (1 s), STARVATION_LIMIT
// = MAX_SLEEP_AVG, NS_MAX_SLEEP_AVG = MAX_SLEEP_AVG in ns.
using o1::kMaxPrio;
using o1::kMaxRtPrio;
using o1::kMaxUserPrio;
constexpr int kPrioBonusRatio = 25;
constexpr int kMaxBonus = kMaxUserPrio * kPrioBonusRatio / 100;
constexpr int kInteractiveDelta = 2;
using o1::kDefTimesliceMs;
using o1::kMinTimesliceMs;
constexpr int kOnRunqueueWeight = 30;
constexpr int kChildPenalty = 95;
constexpr int kCreditLimit = 100;

// JIFFIES_TO_NS() and NS_TO_JIFFIES()'s unit: 1000000000 / HZ.
std::int64_t ns_per_jiffy(int hz) { return 1'000'000'000 / std::max(hz, 1); }
int def_timeslice(int hz) { return std::max(kDefTimesliceMs * hz / 1000, 1); }
int min_timeslice(int hz) { return std::max(kMinTimesliceMs * hz / 1000, 1); }
// MAX_SLEEP_AVG and STARVATION_LIMIT, in jiffies.
int max_sleep_avg(int hz) { return def_timeslice(hz) * kMaxBonus; }
std::int64_t ns_max_sleep_avg(int hz) { return max_sleep_avg(hz) * ns_per_jiffy(hz); }
// HIGH_CREDIT() and LOW_CREDIT().
bool high_credit(const O1Arrays::Sleep269 &s) { return s.credit > kCreditLimit; }
bool low_credit(const O1Arrays::Sleep269 &s) { return s.credit < -kCreditLimit; }
// DELTA(): SCALE(TASK_NICE(p), 40, MAX_BONUS) + INTERACTIVE_DELTA, C's
// integer division (towards zero).
int delta(int nice) { return nice * kMaxBonus / 40 + kInteractiveDelta; }
} // namespace

int O1Arrays::current_bonus_269(std::int64_t sleep_avg_ns, int hz)
{
    // Linux 2.6.9 kernel/sched.c: CURRENT_BONUS(): the sleep average in
    // whole jiffies, scaled to 0..MAX_BONUS of MAX_SLEEP_AVG.
    return static_cast<int>(sleep_avg_ns / ns_per_jiffy(hz) * kMaxBonus / max_sleep_avg(hz));
}

int O1Arrays::effective_prio_269(int nice, std::int64_t sleep_avg_ns, int hz)
{
    // Linux 2.6.9 kernel/sched.c: effective_prio(): a bonus of -5..+5 (the
    // current bonus less MAX_BONUS / 2) off the static priority, kept
    // within the user priorities.
    const int bonus = current_bonus_269(sleep_avg_ns, hz) - kMaxBonus / 2;
    return std::clamp(static_prio(nice) - bonus, kMaxRtPrio, kMaxPrio - 1);
}

bool O1Arrays::task_interactive_269(int prio, int nice)
{
    // Linux 2.6.9 kernel/sched.c: TASK_INTERACTIVE(): a priority at least
    // DELTA better than the static one (at nice 0: 118 or better).
    return prio <= static_prio(nice) - delta(nice);
}

std::int64_t O1Arrays::interactive_sleep_ns(int nice, int hz)
{
    // Linux 2.6.9 kernel/sched.c: INTERACTIVE_SLEEP(): the sleep average
    // whose bonus is just interactive for this nice, less a jiffy (799 ms at
    // nice 0, HZ=1000).
    return static_cast<std::int64_t>(max_sleep_avg(hz) * (kMaxBonus / 2 + delta(nice) + 1) / kMaxBonus - 1) *
           ns_per_jiffy(hz);
}

int O1Arrays::timeslice_granularity(std::int64_t sleep_avg_ns, int hz, int cpus)
{
    // Linux 2.6.9 kernel/sched.c: TIMESLICE_GRANULARITY() (CONFIG_SMP):
    // MIN_TIMESLICE, doubled for each point of bonus below the maximum but
    // the first, times the online CPUs (20 ms at full bonus on 4 CPUs).
    const int shortfall = std::max(kMaxBonus - current_bonus_269(sleep_avg_ns, hz), 1);
    return min_timeslice(hz) * (1 << (shortfall - 1)) * std::max(cpus, 1);
}

void O1Arrays::recalc_task_prio(Sleep269 &s, std::int64_t sleep_ns, int activated, bool user, int nice, int hz)
{
    // Linux 2.6.9 kernel/sched.c: recalc_task_prio(). The time slept counts
    // up to NS_MAX_SLEEP_AVG.
    const std::int64_t cap = ns_max_sleep_avg(hz);
    std::int64_t sleep = std::min(sleep_ns, cap);
    if (sleep <= 0)
        return;
    const std::int64_t just_interactive = interactive_sleep_ns(nice, hz);
    // A user task (p->mm) that slept longer than INTERACTIVE_SLEEP, other
    // than from an uninterruptible sleep, is taken as idle: its sleep
    // average is set to MAX_SLEEP_AVG less one DEF_TIMESLICE (just
    // interactive, whatever it was), and it earns a credit.
    if (user && activated != kUninterruptible && sleep > just_interactive) {
        s.sleep_avg_ns = static_cast<std::int64_t>(max_sleep_avg(hz) - def_timeslice(hz)) * ns_per_jiffy(hz);
        if (!high_credit(s))
            ++s.credit;
        return;
    }
    // Otherwise the sleep counts times the bonus still missing (at least
    // once): a low sleep average rises fast.
    sleep *= std::max(kMaxBonus - current_bonus_269(s.sleep_avg_ns, hz), 1);
    // LOW_CREDIT: at most one timeslice's worth.
    const std::int64_t slice_ns = static_cast<std::int64_t>(timeslice_ticks(nice, hz)) * ns_per_jiffy(hz);
    if (low_credit(s) && sleep > slice_ns)
        sleep = slice_ns;
    // Woken from an uninterruptible sleep, a user task without high credit
    // rises to INTERACTIVE_SLEEP at most (and not at all if already there).
    if (activated == kUninterruptible && !high_credit(s) && user) {
        if (s.sleep_avg_ns >= just_interactive) {
            sleep = 0;
        } else if (s.sleep_avg_ns + sleep >= just_interactive) {
            s.sleep_avg_ns = just_interactive;
            sleep = 0;
        }
    }
    s.sleep_avg_ns += sleep;
    // Reaching the cap earns a credit.
    if (s.sleep_avg_ns > cap) {
        s.sleep_avg_ns = cap;
        if (!high_credit(s))
            ++s.credit;
    }
}

void O1Arrays::charge_run(Sleep269 &s, std::int64_t run_ns, int hz)
{
    // Linux 2.6.9 kernel/sched.c: schedule(): run_time is the time since
    // prev->timestamp, at most NS_MAX_SLEEP_AVG, divided by the current
    // bonus (at least 1) for a task with HIGH_CREDIT; the sleep average
    // loses it, and one that reaches 0 costs a credit unless the credit is
    // high or low already.
    std::int64_t run = std::min(std::max<std::int64_t>(run_ns, 0), ns_max_sleep_avg(hz));
    if (high_credit(s))
        run /= std::max(current_bonus_269(s.sleep_avg_ns, hz), 1);
    s.sleep_avg_ns -= run;
    if (s.sleep_avg_ns <= 0) {
        s.sleep_avg_ns = 0;
        if (!high_credit(s) && !low_credit(s))
            --s.credit;
    }
}

std::int64_t O1Arrays::on_runqueue_credit_ns(std::int64_t waited_ns, int activated)
{
    // Linux 2.6.9 kernel/sched.c: schedule(), on picking a task with
    // p->activated > 0: the time it waited on the runqueue since its wakeup
    // counts as sleep, in full when an interrupt woke it, weighted by
    // ON_RUNQUEUE_WEIGHT * 128 / 100 (38) / 128 when a task did.
    if (activated <= 0 || waited_ns <= 0)
        return 0;
    if (activated == kByTask)
        return waited_ns * (kOnRunqueueWeight * 128 / 100) / 128;
    return waited_ns;
}

bool O1Arrays::expired_starving_269(std::int64_t waited_jiffies, int nr_running, int hz, int running_static_prio,
                                    int best_expired_prio)
{
    // Linux 2.6.9 kernel/sched.c: EXPIRED_STARVING(): the expired array has
    // waited STARVATION_LIMIT (MAX_SLEEP_AVG) jiffies per runnable task,
    // and one, since its first task went there; or the running task's
    // static priority is worse than the best one expired.
    return (waited_jiffies >= 0 &&
            waited_jiffies >= static_cast<std::int64_t>(max_sleep_avg(hz)) * std::max(nr_running, 0) + 1) ||
           running_static_prio > best_expired_prio;
}

std::int64_t O1Arrays::child_sleep_avg_ns(int hz)
{
    // Linux 2.6.9 kernel/sched.c: wake_up_new_task(): the child's sleep
    // average is CHILD_PENALTY % of its parent's current bonus, in whole
    // points, as a sleep average: with the parent at MAX_BONUS, 9 points,
    // 900 ms (priority 116 at nice 0).
    const int points = kMaxBonus * kChildPenalty / 100;
    return static_cast<std::int64_t>(points * max_sleep_avg(hz) / kMaxBonus) * ns_per_jiffy(hz);
}

void O1Arrays::set_gran_at(TaskState &s, int nice)
{
    // Linux 2.6.9 kernel/sched.c: scheduler_tick(): a running interactive
    // task on the active array is requeued at the tick that leaves its
    // slice at timeslice - k x TIMESLICE_GRANULARITY (k >= 1), if at least
    // one granularity is left. Its priority, sleep average and slice only
    // change where this is called again, so the next such tick is known in
    // advance: the largest such value below the slice left.
    s.gran_at = 0;
    if (!task_interactive_269(s.prio, nice))
        return;
    const int g = timeslice_granularity(s.sleep.sleep_avg_ns, hz_, cpus_);
    const int full = timeslice_ticks(nice, hz_);
    const int used_after_next = full - (s.slice - 1);
    const int k = std::max(1, (used_after_next + g - 1) / g);
    const int at = full - k * g;
    if (at >= g)
        s.gran_at = at;
}

void O1Arrays::charge_stint(TaskState &s, SimTime end_ns)
{
    // Linux 2.6.9 kernel/sched.c: schedule() for a task leaving the CPU:
    // the time since p->timestamp is charged, and p->timestamp is now. A
    // stint ending where the last charge was made is that same call.
    if (end_ns > s.timestamp) {
        charge_run(s.sleep, end_ns - s.timestamp, hz_);
        s.timestamp = end_ns;
    }
    s.stint = -1;
}

void O1Arrays::new_269(PolicyView sim, TaskId t)
{
    // Linux 2.6.9 kernel/sched.c: sched_fork() stamps p->timestamp;
    // wake_up_new_task() sets the child's sleep average, a credit of 0 and
    // its priority. p->activated is the running parent's: 0.
    TaskState &s = state_mut(t);
    const int nice = sim.task(t).nice;
    s.sleep = Sleep269{child_sleep_avg_ns(hz_), 0};
    s.activated = kNone;
    s.timestamp = sim.now();
    s.stint = -1;
    s.prio = effective_prio_269(nice, s.sleep.sleep_avg_ns, hz_);
    set_gran_at(s, nice);
}

namespace {
// How the task's wakeup came, from the operation it was blocked in (the
// header comment of this file).
int activation_of(const Task &task)
{
    if (task.ops == nullptr || task.op_count == 0)
        return O1Arrays::kByTask;
    const Op &op = task.ops[std::clamp(task.pc - 1, 0, task.op_count - 1)];
    if (op.kind == Op::Kind::Sleep)
        return task.kernel ? O1Arrays::kByInterrupt : O1Arrays::kUninterruptible;
    return O1Arrays::kByTask;
}
} // namespace

void O1Arrays::wakeup_269(PolicyView sim, TaskId t)
{
    TaskState &s = state_mut(t);
    const Task &task = sim.task(t);
    // schedule() charged the stint that ended in the sleep.
    if (s.stint >= 0)
        charge_stint(s, task.last_ran_ns);
    // Linux 2.6.9 kernel/sched.c: try_to_wake_up() marks a task woken from
    // TASK_UNINTERRUPTIBLE (-1) before activate_task(); activate_task()
    // recalculates the priority from the time since p->timestamp (when it
    // went to sleep), then marks a task not so marked as woken from an
    // interrupt (2) or by a task (1), and stamps p->timestamp.
    const int how = activation_of(task);
    if (how == kUninterruptible)
        s.activated = kUninterruptible;
    recalc_task_prio(s.sleep, sim.now() - s.timestamp, s.activated, !task.kernel, task.nice, hz_);
    s.prio = effective_prio_269(task.nice, s.sleep.sleep_avg_ns, hz_);
    if (s.activated == kNone)
        s.activated = static_cast<std::int8_t>(how);
    s.timestamp = sim.now();
    set_gran_at(s, task.nice);
}

void O1Arrays::on_switch_in(PolicyView sim, TaskId t)
{
    if (rules_ != O1Rules::Linux269)
        return;
    TaskState &s = state_mut(t);
    const Task &task = sim.task(t);
    // A task put back on the queue (preempted, or its slice over): the
    // schedule() that took it off charged its stint, which ended at
    // last_ran_ns.
    if (s.stint >= 0)
        charge_stint(s, task.last_ran_ns);
    // Linux 2.6.9 kernel/sched.c: schedule(): the picked task's wait on the
    // runqueue since its wakeup, if p->activated > 0, is credited as sleep
    // (recalc_task_prio() at p->timestamp plus the credit); then
    // p->activated = 0 and p->timestamp = now.
    const SimTime now = sim.now();
    if (s.activated > 0) {
        const std::int64_t credit = on_runqueue_credit_ns(now - s.timestamp, s.activated);
        recalc_task_prio(s.sleep, credit, s.activated, !task.kernel, task.nice, hz_);
        s.prio = effective_prio_269(task.nice, s.sleep.sleep_avg_ns, hz_);
    }
    s.activated = kNone;
    s.timestamp = now;
    s.stint = now;
    set_gran_at(s, task.nice);
}

bool O1Arrays::others_first(PolicyView sim, TaskId cur, int cpu) const
{
    // Linux 2.6.9 kernel/sched.c: schedule()'s pick (the first task of the
    // best priority on the active array) against the running task, now on
    // its array's tail: any task left on the active array while it is
    // expired, or one of its own array at its priority or better. If none,
    // schedule() picks the running task again and does not switch.
    const bool cur_expired = expired(cur, cpu);
    const int prio = state(cur).prio;
    for (TaskId q : sim.rq(cpu).queue) {
        const bool q_expired = expired(q, cpu);
        if (cur_expired && !q_expired)
            return true;
        if (q_expired == cur_expired && state(q).prio <= prio)
            return true;
    }
    return false;
}

bool O1Arrays::expire_269(PolicyView sim, TaskId cur, int cpu)
{
    TaskState &s = state_mut(cur);
    const int nice = sim.task(cur).nice;
    // Linux 2.6.9 kernel/sched.c: scheduler_tick() at the end of a slice:
    // the priority from the sleep average (not yet charged for this
    // stint), a new slice, the runqueue's expired_timestamp set if unset.
    s.prio = effective_prio_269(nice, s.sleep.sleep_avg_ns, hz_);
    s.slice = timeslice_ticks(nice, hz_);
    const std::int64_t now_j = jiffies(sim);
    std::int64_t &since = expired_since_[static_cast<size_t>(cpu)];
    if (since == 0)
        since = now_j + 1;
    int &best = best_expired_[static_cast<size_t>(cpu)];
    const bool starving = expired_starving_269(now_j - (since - 1), sim.nr_running(cpu), hz_, static_prio(nice), best);
    // TASK_INTERACTIVE() and not starving: back on the active array's tail;
    // otherwise the expired array, noting its best static priority.
    if (task_interactive_269(s.prio, nice) && !starving) {
        join(cur, cpu, false);
    } else {
        join(cur, cpu, true);
        best = std::min(best, static_prio(nice));
    }
    // The schedule() that follows (set_tsk_need_resched()): the charge for
    // the time run, and the array switch if the active array is empty.
    charge_run(s.sleep, sim.now() - s.timestamp, hz_);
    s.timestamp = sim.now();
    switch_if_active_empty(sim, cpu);
    set_gran_at(s, nice);
    return others_first(sim, cur, cpu);
}

bool O1Arrays::requeue_granularity(PolicyView sim, TaskId cur, int cpu)
{
    TaskState &s = state_mut(cur);
    const int nice = sim.task(cur).nice;
    // Linux 2.6.9 kernel/sched.c: scheduler_tick(): an interactive task with
    // a granularity's worth of slice left goes to the tail of its priority's
    // list on the active array, its priority recalculated, and schedules:
    // a round-robin with the tasks of equal priority (its slice goes on).
    s.prio = effective_prio_269(nice, s.sleep.sleep_avg_ns, hz_);
    join(cur, cpu, false);
    charge_run(s.sleep, sim.now() - s.timestamp, hz_);
    s.timestamp = sim.now();
    set_gran_at(s, nice);
    return others_first(sim, cur, cpu);
}

} // namespace schedscope
