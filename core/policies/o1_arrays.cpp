#include "policies/o1_arrays.h"

#include "engine/simulation.h"

#include <algorithm>

namespace schedscope {

namespace {
// Linux 2.6.9 kernel/sched.c: MAX_PRIO (140) and MAX_USER_PRIO / 2 (20),
// the divisor of SCALE_PRIO().
constexpr int kMaxPrio = 140;
constexpr int kHalfUserPrio = 20;
// DEF_TIMESLICE is 100 ms and MIN_TIMESLICE 5 ms (kernel/sched.c of 2.6.9),
// in jiffies: 100 * HZ / 1000 and max(5 * HZ / 1000, 1).
constexpr int kDefTimesliceMs = 100;
constexpr int kMinTimesliceMs = 5;
} // namespace

int O1Arrays::timeslice_ticks(int nice, int hz)
{
    // Linux 2.6.9 kernel/sched.c: task_timeslice() and SCALE_PRIO(): the
    // slice shrinks linearly with the static priority, four times as
    // steeply below nice 0, in integer jiffies.
    const int min_slice = std::max(kMinTimesliceMs * hz / 1000, 1);
    const int def_slice = kDefTimesliceMs * hz / 1000;
    const int prio = static_prio(nice);
    const int base = prio < static_prio(0) ? def_slice * 4 : def_slice;
    return std::max(base * (kMaxPrio - prio) / kHalfUserPrio, min_slice);
}

void O1Arrays::attach(int cpus, std::int64_t tick_ns)
{
    active_.assign(static_cast<size_t>(cpus), 0);
    hz_ = static_cast<int>(std::max<std::int64_t>(1, 1'000'000'000 / std::max<std::int64_t>(1, tick_ns)));
}

void O1Arrays::join(TaskId t, int cpu, bool expired)
{
    // enqueue_task(): the tail of the array's list for the task's priority.
    TaskState &s = state_mut(t);
    const std::uint8_t active = active_.at(static_cast<size_t>(cpu));
    s.array = expired ? active ^ 1 : active;
    s.seq = ++next_seq_;
}

void O1Arrays::switch_if_queue_expired(PolicyView sim, int cpu)
{
    for (TaskId q : sim.rq(cpu).queue)
        if (!expired(q, cpu))
            return;
    flip(sim, cpu);
}

void O1Arrays::flip(PolicyView sim, int cpu)
{
    std::uint8_t &active = active_[static_cast<size_t>(cpu)];
    active ^= 1;
    // A task woken onto the wake list (wakeup=queued) is activated only
    // when the IPI delivers it, on whichever array is active then.
    for (TaskId t : sim.rq(cpu).wake_list)
        state_mut(t).array = active;
}

void O1Arrays::on_new(PolicyView sim, TaskId t, int cpu)
{
    switch_if_active_empty(sim, cpu);
    TaskState &s = state_mut(t);
    const int nice = sim.task(t).nice;
    s.prio = static_prio(nice);
    s.slice = timeslice_ticks(nice, hz_);
    // wake_up_new_task(): __activate_task(), the active array.
    join(t, cpu, false);
}

void O1Arrays::on_wakeup(PolicyView sim, TaskId t, int cpu)
{
    switch_if_active_empty(sim, cpu);
    // activate_task(): the active array's tail; the slice is what was left.
    join(t, cpu, false);
}

void O1Arrays::on_migrate(PolicyView sim, TaskId t, int from_cpu, int to_cpu)
{
    // pull_task(): from busiest's expired array to this CPU's expired one,
    // from active to active.
    const bool was_expired = from_cpu >= 0 && expired(t, from_cpu);
    switch_if_active_empty(sim, to_cpu);
    join(t, to_cpu, was_expired);
}

bool O1Arrays::expire(PolicyView sim, TaskId cur, int cpu)
{
    // Its slice ended: a new one, and the expired array (no
    // TASK_INTERACTIVE reinsertion without a sleep average).
    state_mut(cur).slice = timeslice_ticks(sim.task(cur).nice, hz_);
    join(cur, cpu, true);
    return true;
}

int O1Arrays::pick(PolicyView sim, int cpu)
{
    // schedule(): the first task of the best priority's list on the active
    // array (sched_find_first_bit, queue->next).
    const std::vector<TaskId> &queue = sim.rq(cpu).queue;
    const auto best_active = [&]() {
        int best = -1;
        for (int i = 0; i < static_cast<int>(queue.size()); ++i) {
            const TaskId t = queue[static_cast<size_t>(i)];
            if (expired(t, cpu))
                continue;
            if (best < 0) {
                best = i;
                continue;
            }
            const TaskState &a = state(t), &b = state(queue[static_cast<size_t>(best)]);
            if (a.prio < b.prio || (a.prio == b.prio && a.seq < b.seq))
                best = i;
        }
        return best;
    };
    int best = best_active();
    if (best < 0) {
        flip(sim, cpu); // the array switch
        best = best_active();
    }
    return std::max(best, 0);
}

void O1Arrays::move_order(PolicyView sim, int cpu, std::vector<TaskId> &out)
{
    switch_if_active_empty(sim, cpu);
    out.assign(sim.rq(cpu).queue.begin(), sim.rq(cpu).queue.end());
    // Linux 2.6.9 move_tasks(): expired tasks first ("most likely to be
    // cache-cold"), then active ones; from priority 0 up; each list from
    // its tail (curr = head->prev).
    std::sort(out.begin(), out.end(), [&](TaskId x, TaskId y) {
        const bool ex = expired(x, cpu), ey = expired(y, cpu);
        if (ex != ey)
            return ex;
        const TaskState &a = state(x), &b = state(y);
        if (a.prio != b.prio)
            return a.prio < b.prio;
        return a.seq > b.seq;
    });
}

} // namespace schedscope
