#pragma once
// The O(1) scheduler's runqueues as Linux 2.6.9 kernel/sched.c keeps them:
// per CPU an active and an expired priority array, a timeslice per task by
// its static priority (task_timeslice), counted down by the tick; a task
// whose slice ends goes to the expired array with a new slice, and when the
// active array has nothing left to run the two arrays switch. Within an
// array the best priority runs first, each priority in FIFO order.
//
// The engine keeps each CPU's queued tasks in one vector (Runqueue::queue);
// this class keeps, per task, which of its CPU's two arrays holds it and its
// place in that array's list (a sequence number stamped when it joined the
// tail), and per CPU which array is the active one. An array switch only
// flips that.
//
// Two sets of rules (O1Rules), each with the priorities its kernel's sleep
// average gives. Linux269, for the 2.6.9 balancer (domain_balancer.h):
// 2.6.9's sleep average, in nanoseconds (see o1_arrays_269.cpp, function
// by function): credited at each wakeup by the time slept, scaled up for
// a task that has little (recalc_task_prio()), capped for a task woken
// from an uninterruptible sleep and set to "just interactive" after a long
// sleep; credited again, at switch-in, for part of the time a woken task
// waited on the runqueue (schedule(), p->activated); charged the time run
// at each schedule() (less for a task with interactive credit); the
// priority bonus of effective_prio() from it; TASK_INTERACTIVE's
// reinsertion into the active array at a slice's end unless the expired
// array starves (EXPIRED_STARVING, also when a better static priority has
// expired); TIMESLICE_GRANULARITY's round-robin of interactive tasks within
// a slice; and the preemption of a running task by a woken or pulled one of
// better priority. Linux2559, for linux-2.5-numa: 2.5.59's timeslices and
// its sleep average, which 2.5.59 kept far simpler (a count of jiffies, up
// by the jiffies slept at each wakeup, down by one for each tick run; see
// the .cpp), with the priority bonus, the reinsertion of interactive tasks
// and the starvation limit built on it.
//
// Under either, sched_fork()'s halving of the parent's slice and
// sched_exit()'s return of a child's slice and sleep average to its parent
// are not modelled: the engine's tasks are not created by a running
// parent's fork() call, so each new task starts with a whole slice, and its
// sleep average is that of a child of a parent that had slept its fill.

#include "engine/policy_context.h"
#include "engine/sim_types.h"

#include <cstdint>
#include <vector>

namespace schedscope {

// The priority range and 2.6.9's timeslice bounds, as Linux kernel/sched.c
// (2.5.59 and 2.6.9 alike for the range) defines them: MAX_RT_PRIO 100,
// MAX_PRIO 140, MAX_USER_PRIO 40; DEF_TIMESLICE 100 ms and MIN_TIMESLICE
// 5 ms (2.6.9). Both rule sets' files read them from here.
namespace o1 {
inline constexpr int kMaxRtPrio = 100;
inline constexpr int kMaxPrio = 140;
inline constexpr int kMaxUserPrio = 40;
inline constexpr int kDefTimesliceMs = 100;
inline constexpr int kMinTimesliceMs = 5;
} // namespace o1

// Whose O(1) scheduler: the timeslices, and whether priorities follow the
// sleep average (see the header comment).
enum class O1Rules : std::uint8_t { Linux269, Linux2559 };

class O1Arrays {
public:
    // Linux 2.6.9 kernel/sched.c: task_timeslice(), in ticks at `hz`:
    // SCALE_PRIO(DEF_TIMESLICE x 4) below nice 0, SCALE_PRIO(DEF_TIMESLICE)
    // from nice 0 up, never below MIN_TIMESLICE (800 ms at nice -20, 100 ms
    // at nice 0, 5 ms at nice 19, at HZ=1000).
    static int timeslice_ticks(int nice, int hz);
    // 2.6.9's static_prio: MAX_RT_PRIO (100) + 20 + nice.
    static int static_prio(int nice) { return 120 + nice; }
    // Linux 2.5.59 kernel/sched.c: TASK_TIMESLICE(), in ticks at `hz`:
    // MIN_TIMESLICE + (MAX_TIMESLICE - MIN_TIMESLICE) * (MAX_PRIO - 1 -
    // static_prio) / 39, 10 to 300 ms (151 ms at nice 0, at HZ=1000).
    static int timeslice_ticks_2559(int nice, int hz);
    // Linux 2.5.59 kernel/sched.c: effective_prio(), the static priority
    // less a bonus of -5 to +5 scaled from the sleep average (in ticks, out
    // of MAX_SLEEP_AVG = 2 * HZ), within 100-139.
    static int effective_prio_2559(int nice, int sleep_avg, int hz);

    // Linux 2.6.9's sleep average (o1_arrays_269.cpp), each at `hz`, the
    // sleep average in ns as the kernel keeps it.
    // CURRENT_BONUS(): 0 to MAX_BONUS (10) from the sleep average.
    static int current_bonus_269(std::int64_t sleep_avg_ns, int hz);
    // effective_prio(): the static priority less CURRENT_BONUS - 5, within
    // 100-139.
    static int effective_prio_269(int nice, std::int64_t sleep_avg_ns, int hz);
    // TASK_INTERACTIVE(): prio at most static_prio - DELTA(nice).
    static bool task_interactive_269(int prio, int nice);
    // INTERACTIVE_SLEEP(): the sleep average, in ns, of "just interactive".
    static std::int64_t interactive_sleep_ns(int nice, int hz);
    // TIMESLICE_GRANULARITY() on `cpus` online CPUs, in ticks.
    static int timeslice_granularity(std::int64_t sleep_avg_ns, int hz, int cpus);
    // The part of a task's state the 2.6.9 rules below move.
    struct Sleep269 {
        std::int64_t sleep_avg_ns = 0; // p->sleep_avg
        int credit = 0;                // p->interactive_credit
    };
    // How the task's wakeup came (p->activated): from an uninterruptible
    // sleep (-1), none pending (0), woken by a task (1) or from an
    // interrupt (2).
    enum Activated : std::int8_t { kUninterruptible = -1, kNone = 0, kByTask = 1, kByInterrupt = 2 };
    // recalc_task_prio(): `sleep_ns` slept (or waited on the runqueue),
    // for a user task (p->mm) or a kernel thread.
    static void recalc_task_prio(Sleep269 &s, std::int64_t sleep_ns, int activated, bool user, int nice, int hz);
    // schedule()'s charge for `run_ns` run: the sleep average less the run
    // time (divided by the bonus for a task with high credit), at least 0.
    static void charge_run(Sleep269 &s, std::int64_t run_ns, int hz);
    // schedule()'s credit at switch-in for `waited_ns` on the runqueue
    // since a wakeup: all of it from an interrupt, 30 % (38/128) from a
    // task; nothing otherwise (the sleep_ns to pass to recalc_task_prio).
    static std::int64_t on_runqueue_credit_ns(std::int64_t waited_ns, int activated);
    // EXPIRED_STARVING(): the first task on the expired array has waited
    // `waited_jiffies` (-1: none there), with `nr_running` on the runqueue;
    // or a better static priority than the running task's has expired.
    static bool expired_starving_269(std::int64_t waited_jiffies, int nr_running, int hz, int running_static_prio,
                                     int best_expired_prio);
    // sched_fork()/wake_up_new_task(): a child's sleep average, CHILD_PENALTY
    // % of its parent's bonus (a parent that has slept its fill here).
    static std::int64_t child_sleep_avg_ns(int hz);

    void attach(int cpus, std::int64_t tick_ns, O1Rules rules = O1Rules::Linux269);

    // A task joins `cpu`'s queue: new (a whole slice, the active array's
    // tail), woken (the active array's tail, its slice as it was), or moved
    // by a balancer from `from_cpu` (pull_task(): the same array on the new
    // CPU, at its tail).
    void on_new(PolicyView sim, TaskId t, int cpu);
    void on_wakeup(PolicyView sim, TaskId t, int cpu);
    void on_migrate(PolicyView sim, TaskId t, int from_cpu, int to_cpu);
    // Linux269: `t` is about to run (Policy::on_switch_in): schedule()'s
    // charge for its previous stint if not made yet, its on-runqueue credit
    // and its timestamp.
    void on_switch_in(PolicyView sim, TaskId t);

    // scheduler_tick(): the running task has used a tick of its slice; true
    // when the slice ended (the task is now on the expired array's tail with
    // a new slice, and must give way); `cur` is the running task (or -1),
    // as the caller read it. Inline, as settle(): every PU calls both on
    // every tick, and most calls only count a slice down.
    inline bool tick(PolicyView sim, int cpu, TaskId cur);
    // tick()'s common case, for a caller that runs on every PU on every
    // tick (the 2.6.9 balancer: under O1Rules::Linux2559 the sleep average
    // moves on every tick, and tick() must be called): no task running, or
    // a running task on the active array whose slice goes on past this
    // tick, counted down; true then. False, with nothing changed, otherwise
    // (the slice ends, the task had expired, or under Linux269 this tick is
    // one where TIMESLICE_GRANULARITY requeues it): tick() then does it all.
    bool tick_plain(int cpu, TaskId cur)
    {
        if (cur < 0)
            return true;
        const auto i = static_cast<size_t>(cur);
        if (i >= tasks_.size())
            return false; // tick()'s lookup reports it
        TaskState &s = tasks_[i];
        if (s.array != active_[static_cast<size_t>(cpu)] || s.slice <= 1 || s.slice - 1 == s.gran_at)
            return false;
        --s.slice;
        return true;
    }
    // schedule() with the running task still runnable and nothing on the
    // active array: if the task had expired, the arrays switch and it runs
    // on with its new slice.
    void settle(PolicyView sim, int cpu) { switch_if_active_empty(sim, cpu); }
    // schedule() found the runqueue empty and runs the idle task: 2.5.59
    // forgets when the first task expired (rq->expired_timestamp = 0).
    void on_idle(int cpu)
    {
        if (!expired_since_.empty())
            expired_since_[static_cast<size_t>(cpu)] = 0;
    }
    // schedule(): which queued task runs next, an index into rq(cpu).queue
    // (switching the arrays when the active one has none).
    int pick(PolicyView sim, int cpu);
    // move_tasks()'s walk of `cpu`'s queued tasks: the expired array first
    // (when it has any), then the active one; each from its best priority,
    // and each priority's list from the tail (the most recently queued).
    void move_order(PolicyView sim, int cpu, std::vector<TaskId> &out);

    bool expired(TaskId t, int cpu) const { return state(t).array != active_[static_cast<size_t>(cpu)]; }
    int slice_left(TaskId t) const { return state(t).slice; }
    int prio(TaskId t) const { return state(t).prio; }
    // Linux269: the sleep average (ns), interactive credit and activation
    // of a task, as the rules left them (tests and views).
    std::int64_t sleep_avg_ns(TaskId t) const { return state(t).sleep.sleep_avg_ns; }
    int interactive_credit(TaskId t) const { return state(t).sleep.credit; }
    int activated(TaskId t) const { return state(t).activated; }
    int hz() const { return hz_; }
    // Tests: the slice of a task by hand.
    void set_slice(TaskId t, int ticks) { state_mut(t).slice = ticks; }

private:
    struct TaskState {
        int slice = 0;             // ticks left of its timeslice
        int prio = 120;            // effective_prio()
        std::uint8_t array = 0;    // which of its CPU's two arrays holds it
        std::int8_t activated = 0; // Linux269: p->activated (Activated)
        int sleep_avg = 0;         // Linux2559: p->sleep_avg, in ticks
        // Linux269: the slice value after which TIMESLICE_GRANULARITY next
        // requeues the task while it runs, 0 for none (tick_plain's test).
        int gran_at = 0;
        std::uint64_t seq = 0; // when it joined its list's tail
        Sleep269 sleep;        // Linux269: p->sleep_avg and interactive_credit
        SimTime timestamp = 0; // Linux269: p->timestamp
        // Linux269: slice_start_ns of the stint on a CPU whose switch-in was
        // done and whose end schedule() has not charged yet; -1 for none.
        SimTime stint = -1;
    };
    const TaskState &state(TaskId t) const { return tasks_.at(static_cast<size_t>(t)); }
    TaskState &state_mut(TaskId t)
    {
        if (static_cast<size_t>(t) >= tasks_.size())
            tasks_.resize(static_cast<size_t>(t) + 1);
        return tasks_[static_cast<size_t>(t)];
    }
    void join(TaskId t, int cpu, bool expired);
    // The running task is on the expired array and no queued task on the
    // active one: the arrays switch (schedule() found the active one empty).
    // The running task's array is looked at inline; the queue, which only
    // an expired running task makes worth reading, out of line.
    inline void switch_if_active_empty(PolicyView sim, int cpu);
    void switch_if_queue_expired(PolicyView sim, int cpu);
    // tick()'s end of a slice: a new one, on the expired array (or, under
    // Linux2559, the active one for an interactive task).
    bool expire(PolicyView sim, TaskId cur, int cpu);
    // Linux269's parts of the above (o1_arrays_269.cpp).
    bool expire_269(PolicyView sim, TaskId cur, int cpu);
    bool requeue_granularity(PolicyView sim, TaskId cur, int cpu);
    void new_269(PolicyView sim, TaskId t);
    void wakeup_269(PolicyView sim, TaskId t);
    // schedule() for a task leaving the CPU at `end_ns` (its stint so far).
    void charge_stint(TaskState &s, SimTime end_ns);
    void set_gran_at(TaskState &s, int nice);
    // schedule() after the running task was put back on an array: whether
    // it picks another task (otherwise the running one goes on, no switch).
    bool others_first(PolicyView sim, TaskId cur, int cpu) const;
    int slice_ticks(int nice) const
    {
        return rules_ == O1Rules::Linux2559 ? timeslice_ticks_2559(nice, hz_) : timeslice_ticks(nice, hz_);
    }
    std::int64_t jiffies(PolicyView sim) const;
    // The array switch: rq->active and rq->expired swap.
    void flip(PolicyView sim, int cpu);

    std::vector<TaskState> tasks_;
    std::vector<std::uint8_t> active_; // [cpu]: which array is the active one
    // [cpu]: rq->expired_timestamp, the jiffy the first task of the
    // expired array was put there (Linux269: the jiffy of the first slice
    // end), plus one (0: none since the last array switch or idle spell).
    std::vector<std::int64_t> expired_since_;
    // Linux269, [cpu]: rq->best_expired_prio, the best static priority on
    // the expired array since the last switch (MAX_PRIO: none).
    std::vector<int> best_expired_;
    int cpus_ = 1; // num_online_cpus(), for TIMESLICE_GRANULARITY
    std::uint64_t next_seq_ = 0;
    std::int64_t tick_ns_ = 1'000'000;
    int hz_ = 1000;
    O1Rules rules_ = O1Rules::Linux269;
};

// Both need PolicyView's inline members (engine/simulation.h): only
// domain_balancer.cpp and o1_arrays.cpp call them, and both include it.
inline void O1Arrays::switch_if_active_empty(PolicyView sim, int cpu)
{
    // Linux 2.6.9 schedule(): with nothing left on the active array, the
    // expired one becomes active (rq->active and rq->expired swap). The
    // engine may have switched to an expired task without asking (a queue
    // of one), so the switch is caught up here, before anything looks.
    const TaskId cur = sim.rq(cpu).current;
    if (cur >= 0 && expired(cur, cpu))
        switch_if_queue_expired(sim, cpu);
}

inline bool O1Arrays::tick(PolicyView sim, int cpu, TaskId cur)
{
    if (cur < 0)
        return false;
    // scheduler_tick(): a task already expired but not yet scheduled off
    // only asks again to be (after the switch that schedule() would have
    // made, which leaves it active if nothing queued is).
    if (expired(cur, cpu)) {
        switch_if_queue_expired(sim, cpu);
        if (expired(cur, cpu))
            return true;
    }
    TaskState &s = tasks_[static_cast<size_t>(cur)];
    // Linux 2.5.59 kernel/sched.c: scheduler_tick() takes a tick off the
    // running task's sleep average ("if (p->sleep_avg) p->sleep_avg--")
    // before its slice; the priority follows only when the slice ends or
    // the task sleeps.
    if (rules_ == O1Rules::Linux2559 && s.sleep_avg > 0)
        --s.sleep_avg;
    if (--s.slice > 0) {
        // Linux 2.6.9 kernel/sched.c: scheduler_tick(): with slice left,
        // TIMESLICE_GRANULARITY's round-robin may requeue the task (gran_at
        // says in which tick; 0 under Linux2559).
        if (s.slice == s.gran_at)
            return requeue_granularity(sim, cur, cpu);
        return false;
    }
    return expire(sim, cur, cpu);
}

} // namespace schedscope
