#include "policies/o1_arrays.h"

#include "engine/simulation.h"

#include <algorithm>

namespace schedscope {

namespace {
using o1::kDefTimesliceMs;
using o1::kMaxPrio;
using o1::kMaxRtPrio;
using o1::kMaxUserPrio;
using o1::kMinTimesliceMs;
// Linux 2.6.9 kernel/sched.c: MAX_USER_PRIO / 2 (20), the divisor of
// SCALE_PRIO(); DEF_TIMESLICE and MIN_TIMESLICE go to jiffies as
// 100 * HZ / 1000 and max(5 * HZ / 1000, 1).
constexpr int kHalfUserPrio = kMaxUserPrio / 2;

// Linux 2.5.59 kernel/sched.c, the "tuning knobs": MIN_TIMESLICE 10 ms,
// MAX_TIMESLICE 300 ms ("default timeslice is 150 msecs"), CHILD_PENALTY
// 95, PRIO_BONUS_RATIO 25, INTERACTIVE_DELTA 2, MAX_SLEEP_AVG and
// STARVATION_LIMIT 2 * HZ. (2.5.64 moved them to 200 ms, 50, 10 * HZ and
// 10 * HZ: the values the later 2.5 and the 2.6 kernels carry. The
// 2.5.59 ones are read in the earlier 2.5 sched.c and in the February
// 2003 split of Ingo Molnar's tunables patch against 2.5.59, which removes
// exactly these lines.)
constexpr int kMinTimeslice2559Ms = 10;
constexpr int kMaxTimeslice2559Ms = 300;
constexpr int kChildPenaltyPct = 95;
constexpr int kPrioBonusRatioPct = 25;
constexpr int kInteractiveDelta = 2;
constexpr int kMaxSleepAvgSeconds = 2; // MAX_SLEEP_AVG (2*HZ), in ticks below
constexpr int kStarvationSeconds = 2;  // STARVATION_LIMIT (2*HZ)

// MAX_SLEEP_AVG in ticks at `hz`.
constexpr int max_sleep_avg_ticks(int hz) { return kMaxSleepAvgSeconds * hz; }
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

int O1Arrays::timeslice_ticks_2559(int nice, int hz)
{
    const int min_slice = kMinTimeslice2559Ms * hz / 1000;
    const int max_slice = kMaxTimeslice2559Ms * hz / 1000;
    return std::max(min_slice + (max_slice - min_slice) * (kMaxPrio - 1 - static_prio(nice)) / 39, 1);
}

int O1Arrays::effective_prio_2559(int nice, int sleep_avg, int hz)
{
    // bonus = MAX_USER_PRIO*PRIO_BONUS_RATIO*sleep_avg/MAX_SLEEP_AVG/100 -
    //         MAX_USER_PRIO*PRIO_BONUS_RATIO/100/2, in C's integer order.
    const int bonus = static_cast<int>(static_cast<std::int64_t>(kMaxUserPrio) * kPrioBonusRatioPct * sleep_avg /
                                       std::max(max_sleep_avg_ticks(hz), 1) / 100) -
                      kMaxUserPrio * kPrioBonusRatioPct / 100 / 2;
    return std::clamp(static_prio(nice) - bonus, kMaxRtPrio, kMaxPrio - 1);
}

void O1Arrays::attach(int cpus, std::int64_t tick_ns, O1Rules rules)
{
    active_.assign(static_cast<size_t>(cpus), 0);
    tick_ns_ = std::max<std::int64_t>(1, tick_ns);
    hz_ = static_cast<int>(std::max<std::int64_t>(1, 1'000'000'000 / tick_ns_));
    rules_ = rules;
    cpus_ = std::max(cpus, 1);
    expired_since_.assign(static_cast<size_t>(cpus), 0);
    if (rules_ == O1Rules::Linux269)
        best_expired_.assign(static_cast<size_t>(cpus), kMaxPrio);
}

std::int64_t O1Arrays::jiffies(PolicyView sim) const { return sim.now() / tick_ns_; }

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
    // Linux 2.5.59 and 2.6.9 schedule(): the switch clears
    // rq->expired_timestamp; 2.6.9's also sets rq->best_expired_prio back
    // to MAX_PRIO.
    if (!expired_since_.empty())
        expired_since_[static_cast<size_t>(cpu)] = 0;
    if (!best_expired_.empty())
        best_expired_[static_cast<size_t>(cpu)] = kMaxPrio;
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
    s.slice = slice_ticks(nice);
    if (rules_ == O1Rules::Linux2559) {
        // Linux 2.5.59 kernel/sched.c: wake_up_forked_process() gives the
        // child CHILD_PENALTY % of the sleep average it copied from its
        // parent, and its priority from that. The engine's tasks have no
        // running parent: each is taken to be the child of one that had
        // slept its fill (MAX_SLEEP_AVG), as a shell waiting for a command
        // has, or a program that has just been started from one (95 % of
        // 95 % gives the same priority). An assumption; the kernel's
        // fork() also sets sleep_timestamp to now, so activate_task() adds
        // nothing.
        s.sleep_avg = max_sleep_avg_ticks(hz_) * kChildPenaltyPct / 100;
        s.prio = effective_prio_2559(nice, s.sleep_avg, hz_);
    } else {
        new_269(sim, t);
    }
    // wake_up_new_task(): __activate_task(), the active array.
    join(t, cpu, false);
}

void O1Arrays::on_wakeup(PolicyView sim, TaskId t, int cpu)
{
    switch_if_active_empty(sim, cpu);
    if (rules_ == O1Rules::Linux269)
        wakeup_269(sim, t);
    if (rules_ == O1Rules::Linux2559) {
        // Linux 2.5.59 kernel/sched.c: activate_task() adds the jiffies the
        // task slept (since schedule() stamped sleep_timestamp as it went
        // off the CPU) to its sleep average, up to MAX_SLEEP_AVG, and sets
        // its priority from it. A sleep shorter than a jiffy adds nothing.
        TaskState &s = state_mut(t);
        const SimTime stopped = sim.task(t).last_ran_ns;
        const std::int64_t slept = stopped >= 0 ? jiffies(sim) - stopped / tick_ns_ : 0;
        if (slept > 0) {
            s.sleep_avg = static_cast<int>(std::min<std::int64_t>(s.sleep_avg + slept, max_sleep_avg_ticks(hz_)));
            s.prio = effective_prio_2559(sim.task(t).nice, s.sleep_avg, hz_);
        }
    }
    // activate_task(): the active array's tail; the slice is what was left.
    join(t, cpu, false);
}

void O1Arrays::on_migrate(PolicyView sim, TaskId t, int from_cpu, int to_cpu)
{
    // Linux 2.6.9 pull_task(): from busiest's expired array to this CPU's
    // expired one, from active to active. Linux 2.5.59 pull_task(): to
    // this CPU's active array whichever it came from.
    const bool was_expired = rules_ == O1Rules::Linux269 && from_cpu >= 0 && expired(t, from_cpu);
    switch_if_active_empty(sim, to_cpu);
    join(t, to_cpu, was_expired);
}

bool O1Arrays::expire(PolicyView sim, TaskId cur, int cpu)
{
    if (rules_ == O1Rules::Linux269)
        return expire_269(sim, cur, cpu);
    TaskState &s = state_mut(cur);
    const int nice = sim.task(cur).nice;
    s.slice = slice_ticks(nice);
    // Linux 2.5.59 kernel/sched.c: scheduler_tick() at the end of a slice:
    // the priority from the sleep average, a new slice, and back on the
    // active array's tail if the task counts as interactive
    // (TASK_INTERACTIVE: prio <= static_prio - DELTA, DELTA = nice * 10 /
    // 40 + INTERACTIVE_DELTA) unless the expired array has waited too long
    // (EXPIRED_STARVING: STARVATION_LIMIT * nr_running jiffies and one
    // since the first task was expired); otherwise on the expired array,
    // noting when the first one went there.
    s.prio = effective_prio_2559(nice, s.sleep_avg, hz_);
    const int delta = nice * (kMaxUserPrio * kPrioBonusRatioPct / 100) / 40 + kInteractiveDelta;
    const bool interactive = s.prio <= static_prio(nice) - delta;
    std::int64_t &since = expired_since_[static_cast<size_t>(cpu)];
    const std::int64_t now = jiffies(sim);
    const bool starving = since > 0 &&
                          now - (since - 1) >=
                              static_cast<std::int64_t>(kStarvationSeconds) * hz_ * sim.nr_running(cpu) + 1;
    if (interactive && !starving) {
        join(cur, cpu, false);
        return true;
    }
    if (since == 0)
        since = now + 1;
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
