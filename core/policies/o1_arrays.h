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
// Two sets of rules (O1Rules). Linux269, for the 2.6.9 balancer
// (domain_balancer.h): static priorities only. Its sleep average and what
// is built on it (the dynamic priority bonus of effective_prio(),
// TASK_INTERACTIVE's reinsertion into the active array, EXPIRED_STARVING,
// TIMESLICE_GRANULARITY's round-robin of interactive tasks) are not
// modelled: a task's priority is 120 + nice and every task whose slice
// ends is expired. Linux2559, for linux-2.5-numa: 2.5.59's timeslices and
// its sleep average, which 2.5.59 kept far simpler than 2.6.9 (a count of
// jiffies, up by the jiffies slept at each wakeup, down by one for each
// tick run; see the .cpp), with the priority bonus, the reinsertion of
// interactive tasks and the starvation limit built on it.
//
// Under either, sched_fork()'s halving of the parent's slice is not
// modelled: the engine's tasks are not created by a running parent's
// fork() call, so each new task starts with a whole slice.

#include "engine/policy_context.h"
#include "engine/sim_types.h"

#include <cstdint>
#include <vector>

namespace schedscope {

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

    void attach(int cpus, std::int64_t tick_ns, O1Rules rules = O1Rules::Linux269);

    // A task joins `cpu`'s queue: new (a whole slice, the active array's
    // tail), woken (the active array's tail, its slice as it was), or moved
    // by a balancer from `from_cpu` (pull_task(): the same array on the new
    // CPU, at its tail).
    void on_new(PolicyView sim, TaskId t, int cpu);
    void on_wakeup(PolicyView sim, TaskId t, int cpu);
    void on_migrate(PolicyView sim, TaskId t, int from_cpu, int to_cpu);

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
    // (the slice ends, or the task had expired): tick() then does it all.
    bool tick_plain(int cpu, TaskId cur)
    {
        if (cur < 0)
            return true;
        const auto i = static_cast<size_t>(cur);
        if (i >= tasks_.size())
            return false; // tick()'s lookup reports it
        TaskState &s = tasks_[i];
        if (s.array != active_[static_cast<size_t>(cpu)] || s.slice <= 1)
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
    int hz() const { return hz_; }
    // Tests: the slice of a task by hand.
    void set_slice(TaskId t, int ticks) { state_mut(t).slice = ticks; }

private:
    struct TaskState {
        int slice = 0;          // ticks left of its timeslice
        int prio = 120;         // Linux269: static_prio; Linux2559: effective_prio()
        std::uint8_t array = 0; // which of its CPU's two arrays holds it
        int sleep_avg = 0;      // Linux2559: p->sleep_avg, in ticks
        std::uint64_t seq = 0;  // when it joined its list's tail
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
    int slice_ticks(int nice) const
    {
        return rules_ == O1Rules::Linux2559 ? timeslice_ticks_2559(nice, hz_) : timeslice_ticks(nice, hz_);
    }
    std::int64_t jiffies(PolicyView sim) const;
    // The array switch: rq->active and rq->expired swap.
    void flip(PolicyView sim, int cpu);

    std::vector<TaskState> tasks_;
    std::vector<std::uint8_t> active_; // [cpu]: which array is the active one
    // Linux2559, [cpu]: rq->expired_timestamp, the jiffy the first task of
    // the expired array was put there, plus one (0: none since the last
    // array switch or idle spell).
    std::vector<std::int64_t> expired_since_;
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
    if (--s.slice > 0)
        return false;
    return expire(sim, cur, cpu);
}

} // namespace schedscope
