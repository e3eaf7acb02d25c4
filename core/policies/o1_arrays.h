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
// Not modelled: the sleep average and everything built on it (the dynamic
// priority bonus of effective_prio(), TASK_INTERACTIVE's reinsertion into
// the active array, EXPIRED_STARVING, TIMESLICE_GRANULARITY's round-robin
// of interactive tasks): the engine has no sleep-average model, so a task's
// priority is its static priority (120 + nice) and every task whose slice
// ends is expired. Nor is sched_fork()'s halving of the parent's slice: the
// engine's tasks are not created by a running parent's fork() call, so each
// new task starts with a whole slice.

#include "engine/policy_context.h"
#include "engine/sim_types.h"

#include <cstdint>
#include <vector>

namespace schedscope {

class O1Arrays {
public:
    // Linux 2.6.9 kernel/sched.c: task_timeslice(), in ticks at `hz`:
    // SCALE_PRIO(DEF_TIMESLICE x 4) below nice 0, SCALE_PRIO(DEF_TIMESLICE)
    // from nice 0 up, never below MIN_TIMESLICE (800 ms at nice -20, 100 ms
    // at nice 0, 5 ms at nice 19, at HZ=1000).
    static int timeslice_ticks(int nice, int hz);
    // 2.6.9's static_prio: MAX_RT_PRIO (100) + 20 + nice.
    static int static_prio(int nice) { return 120 + nice; }

    void attach(int cpus, std::int64_t tick_ns);

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
    // tick: no task running, or a running task on the active array whose
    // slice goes on past this tick, counted down; true then. False, with
    // nothing changed, otherwise (the slice ends, or the task had expired):
    // tick() then does it all.
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
        int prio = 120;         // static_prio (no sleep-average bonus)
        std::uint8_t array = 0; // which of its CPU's two arrays holds it
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
    // tick()'s end of a slice: a new one, on the expired array.
    bool expire(PolicyView sim, TaskId cur, int cpu);
    // The array switch: rq->active and rq->expired swap.
    void flip(PolicyView sim, int cpu);

    std::vector<TaskState> tasks_;
    std::vector<std::uint8_t> active_; // [cpu]: which array is the active one
    std::uint64_t next_seq_ = 0;
    int hz_ = 1000;
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
    if (--tasks_[static_cast<size_t>(cur)].slice > 0)
        return false;
    return expire(sim, cur, cpu);
}

} // namespace schedscope
