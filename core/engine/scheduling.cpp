// Scheduling actions: arrivals, runqueues, context switches, the task
// program interpreter, blocking and wakeups with their runqueue-lock costs,
// and task migration.

#include "engine/simulation.h"

#include "engine/nice.h"
#include "util/input_error.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace schedscope {

namespace {
// A program that runs this many ops without computing or blocking is stuck
// (e.g. Post/Wait on a channel that always has tokens): a workload bug.
constexpr int kMaxOpsPerDispatch = 100'000;

std::string cpu_name(int cpu) { return "CPU " + std::to_string(cpu); }
} // namespace

bool Policy::check_preempt_tick(PolicyContext sim, int cpu)
{
    // Fair slicing: the period shared by the runnable tasks, floored.
    const Runqueue &rq = sim.rq(cpu);
    const SimTime slice = std::max<SimTime>(kSchedMinGranularityNs, kSchedLatencyNs / rq.nr_running());
    return sim.now() - sim.task(rq.current).slice_start_ns >= slice;
}

void Simulation::resched(int cpu)
{
    if (rqs_[cpu].current < 0)
        return;
    put_prev(cpu, true);
    switch_to_next(cpu);
}

void Simulation::arrive(TaskId tid)
{
    Task &t = tasks_[tid];
    int cpu = policy_->select_cpu_fork(*this, tid);
    if (!t.cpus_allowed.test(cpu))
        throw std::logic_error(policy_->name() + " placed task " + std::to_string(tid) + " outside its cpus_allowed");
    t.last_ran_ns = -1;
    t.cpu = cpu;
    lock_rq(cpu, cpu);
    log(DecisionKind::Place, tid, -1, cpu,
        "task " + std::to_string(tid) + " (" + t.name + ") started on " + cpu_name(cpu));
    if (sink_)
        sink_->on_task_new(now_, tid, cpu);
    policy_->on_enqueue(*this, tid, kNoCpu, cpu, EnqueueKind::New);
    enqueue(tid, cpu);
}

void Simulation::enqueue(TaskId tid, int cpu)
{
    Task &t = tasks_[tid];
    t.state = TaskState::Runnable;
    t.cpu = cpu;
    Runqueue &rq = rqs_[cpu];
    rq.queue.push_back(tid);
    count_queued(cpu, +1);
    ++nr_running_[cpu];
    if (rq.current < 0)
        switch_to_next(cpu);
}

void Simulation::put_prev(int cpu, bool requeue, TaskState leaving_as)
{
    Runqueue &rq = rqs_[cpu];
    const TaskId tid = rq.current;
    if (tid < 0)
        return;
    for_core_of(cpu, [this](int s) { advance_cpu(s); });
    Task &t = tasks_[tid];
    t.last_ran_ns = now_;
    t.vruntime_ns += t.nice == 0 ? now_ - t.slice_start_ns
                                 : calc_delta_fair(now_ - t.slice_start_ns, nice_weight(t.nice));
    rq.current = -1;
    memory_.demand_changed(cpu); // what the congestion update reads of the PU
    rq.need_resched = false;
    --nr_running_[cpu];
    if (sink_)
        sink_->on_switch_out(now_, cpu, tid, requeue ? TaskState::Runnable : leaving_as);
    if (requeue) {
        t.state = TaskState::Runnable;
        rq.queue.push_back(tid);
        count_queued(cpu, +1);
        ++nr_running_[cpu];
    }
    for_core_of(cpu, [this](int s) { refresh_rate(s); });
}

void Simulation::switch_to_next(int cpu)
{
    Runqueue &rq = rqs_[cpu];
    if (rq.current >= 0)
        return;
    if (rq.queue.empty()) {
        policy_->on_idle(*this, cpu); // may pull work here, which switches to it
        if (rq.current >= 0 || rq.queue.empty())
            return;
    }
    for_core_of(cpu, [this](int s) { advance_cpu(s); });
    const auto next = rq.queue.begin() + (rq.queue.size() > 1 ? policy_->pick_next(*this, cpu) : 0);
    const TaskId tid = *next;
    rq.queue.erase(next);
    count_queued(cpu, -1);
    policy_->on_switch_in(*this, cpu, tid);
    Task &t = tasks_[tid];
    t.state = TaskState::Running;
    t.slice_start_ns = now_;
    t.last_ran_ns = now_;
    rq.current = tid;
    memory_.demand_changed(cpu); // what the congestion update reads of the PU
    if (sink_)
        sink_->on_switch_in(now_, cpu, tid);
    // schedule() runs under the CPU's own runqueue lock: a remote waker that
    // took it last pays the line's way back here, and one arriving now waits.
    lock_rq(cpu, cpu);
    charge_sys(cpu, static_cast<double>(cfg_.model.context_switch_ns));
    if (t.remaining_work_ns <= 0.5)
        run_program(tid); // may block or exit, and switch again
    for_core_of(cpu, [this](int s) { refresh_rate(s); });
}

void Simulation::run_program(TaskId tid)
{
    Task &t = tasks_[tid];
    // Still in the kernel, waking its post's waiters: its next op starts when
    // the last is woken (continue_post).
    if (t.in_post)
        return;
    const int cpu = t.cpu;
    // Woken with a message's token: it reads the message now, on this PU.
    if (t.message_channel >= 0) {
        message_taken(t.message_channel, t.message_from_cpu, cpu);
        t.message_channel = -1;
        t.message_from_cpu = -1;
    }
    for (int guard = 0; guard < kMaxOpsPerDispatch; ++guard) {
        if (t.pc >= t.op_count) {
            t.pc = 0;
            ++t.iteration;
            if (t.program.iterations > 0 && t.iteration >= t.program.iterations) {
                task_exit(tid);
                return;
            }
        }
        const Op &op = t.ops[t.pc];
        switch (op.kind) {
        case Op::Kind::Compute:
            ++t.pc;
            t.remaining_work_ns = op.b > op.a ? rng_.uniform(static_cast<double>(op.a), static_cast<double>(op.b))
                                              : static_cast<double>(op.a);
            if (t.remaining_work_ns > 0.5) {
                // Back to user mode: a wakeup that preempted it in the
                // kernel takes the CPU now.
                if (rqs_[cpu].need_resched)
                    resched(cpu);
                return;
            }
            break;
        case Op::Kind::Sleep: {
            ++t.pc;
            double d = static_cast<double>(op.a);
            if (op.b > op.a)
                d = rng_.exponential(0.5 * static_cast<double>(op.a + op.b));
            // A timer fires late by up to the task's timer slack (OS noise).
            if (cfg_.model.os_noise > 0 && cfg_.model.noise_timer_slack_ns > 0)
                d += rng_.uniform() * static_cast<double>(cfg_.model.noise_timer_slack_ns);
            block(tid);
            events_.push(now_ + std::max<SimTime>(1, static_cast<SimTime>(d)), EventType::TimerWake, tid, t.wake_seq);
            switch_to_next(cpu);
            return;
        }
        case Op::Kind::Wait: {
            ++t.pc;
            Channel &ch = channels_.at(op.channel);
            if (ch.tokens > 0) {
                --ch.tokens;
                if (ch.message.any()) {
                    const int from = ch.token_cpus.empty() ? -1 : ch.token_cpus.front();
                    if (!ch.token_cpus.empty())
                        ch.token_cpus.pop_front();
                    message_taken(op.channel, from, cpu);
                }
                break;
            }
            ch.waiters.push_back(tid);
            block(tid);
            switch_to_next(cpu);
            return;
        }
        case Op::Kind::Post: {
            ++t.pc;
            // b = 1 wakes only tasks already waiting, as a waker that hands
            // work to the idle ones it finds (sembench's ipc_wake_some()).
            waking_from_ = tid;
            post_tokens(op.channel, op.a, cpu, op.b == 1);
            waking_from_ = -1;
            // Waiters left to wake: the task stays in the kernel, on its
            // PU, until the last (continue_post).
            if (t.in_post)
                return;
            break;
        }
        case Op::Kind::CountOp:
            ++t.pc;
            ++t.stats.ops;
            break;
        }
    }
    throw std::logic_error("task '" + t.name + "' ran " + std::to_string(kMaxOpsPerDispatch) +
                           " operations without computing or blocking");
}

void Simulation::post_tokens(int channel, std::int64_t tokens, int waker_cpu, bool only_waiting)
{
    Channel &ch = channels_.at(channel);
    const std::int64_t added = only_waiting
                                   ? std::min<std::int64_t>(tokens, static_cast<std::int64_t>(ch.waiters.size()))
                                   : tokens;
    ch.tokens += added;
    message_posted(channel, waker_cpu, added);
    // Each waiter woken gets its token (a semaphore's up hands the count to
    // the task blocked in semop, which does not take it again): all are set
    // aside before the first wakeup, so that a woken task that runs at once
    // and waits again on this channel blocks rather than taking a token
    // meant for another waiter.
    //
    // The waker then wakes them one after the other, each wakeup when it
    // has paid for the previous one (a PostWake event each): 2.6.39
    // ipc/sem.c wake_up_sem_queue_do() walks its list calling
    // wake_up_process() in turn, as __wake_up_common() (2.6.9 kernel/sched.c,
    // 3.6 kernel/sched/core.c) and futex_wake() walk theirs. Woken all at one
    // instant, as this did before, the waker's lock bookings landed up to
    // milliseconds ahead of the tasks it had just woken, whose PUs then
    // waited for them (docs/CALIBRATION.md, sembench-128).
    std::int64_t n = std::min<std::int64_t>(ch.tokens, static_cast<std::int64_t>(ch.waiters.size()));
    ch.tokens -= n;
    if (n <= 0)
        return;
    int slot = 0;
    while (slot < static_cast<int>(pending_posts_.size()) && pending_posts_[static_cast<size_t>(slot)].busy)
        ++slot;
    if (slot == static_cast<int>(pending_posts_.size()))
        pending_posts_.emplace_back();
    PendingPost &pp = pending_posts_[static_cast<size_t>(slot)];
    pp.busy = true;
    pp.waiters.clear();
    pp.next = 0;
    pp.waker_cpu = waker_cpu;
    pp.poster = waking_from_;
    if (n > 1 && pp.poster >= 0)
        tasks_[pp.poster].in_post = true;
    for (; n > 0; --n) {
        const TaskId w = ch.waiters.front();
        pp.waiters.push_back(w);
        ch.waiters.pop_front();
        if (ch.message.any() && !ch.token_cpus.empty()) {
            tasks_[w].message_channel = channel;
            tasks_[w].message_from_cpu = ch.token_cpus.front();
            ch.token_cpus.pop_front();
        }
    }
    continue_post(slot);
}

// One wakeup of a post in progress. The waiter's wait entry lives on its
// own kernel stack, written there when it went to sleep, and the waker reads
// and writes it before the scheduler is involved: one line from the CPU the
// waiter slept on, whichever wakeup path follows, priced as a lock line.
// Linux 2.6.39 ipc/sem.c: update_queue() reads the sleeper's sem_queue,
// wake_up_sem_queue_prepare() and wake_up_sem_queue_do() write its status and
// read q->sleeper. __wake_up_common() reads each wait_queue_t on the
// sleepers' stacks (pipes, sockets); futex_wake() (2.6.9-3.6 kernel/futex.c)
// walks the futex_q entries the same way.
void Simulation::continue_post(int slot)
{
    PendingPost &pp = pending_posts_[static_cast<size_t>(slot)];
    const TaskId w = pp.waiters[pp.next++];
    const int waker_cpu = pp.waker_cpu;
    const TaskId saved = waking_from_;
    waking_from_ = pp.poster;
    // What this wakeup costs the waker: its PU's debt grows by it.
    if (waker_cpu >= 0)
        advance_cpu(waker_cpu);
    const double before = waker_cpu >= 0 ? rqs_[static_cast<size_t>(waker_cpu)].sys_debt_ns : 0.0;
    const int slept_on = tasks_[w].cpu;
    if (waker_cpu >= 0 && slept_on >= 0 && slept_on != waker_cpu)
        charge_sys(waker_cpu, lock_transfer_ns(slept_on, waker_cpu));
    wake(w, waker_cpu);
    waking_from_ = saved;
    PendingPost &again = pending_posts_[static_cast<size_t>(slot)];
    if (again.next < again.waiters.size()) {
        const double cost = waker_cpu >= 0 ? rqs_[static_cast<size_t>(waker_cpu)].sys_debt_ns - before : 0.0;
        events_.push(now_ + std::max<SimTime>(1, ceil_ns(std::max(0.0, cost))), EventType::PostWake, slot);
        return;
    }
    again.busy = false;
    // The last wakeup done, the poster leaves the kernel and goes on with its
    // program, unless a wakeup asked to preempt it meanwhile: that one takes
    // its PU first, and the poster goes on when it runs again. (A post of
    // one waiter, or from no task, never set in_post: it is done within its
    // Post op.)
    const TaskId poster = again.poster;
    if (poster < 0 || !tasks_[poster].in_post)
        return;
    Task &pt = tasks_[poster];
    pt.in_post = false;
    const int cpu = pt.cpu;
    if (pt.state != TaskState::Running || rqs_[cpu].current != poster)
        return; // preempted meanwhile: switch_to_next runs its program
    if (rqs_[cpu].need_resched) {
        resched(cpu);
        return;
    }
    run_program(poster);
    for_core_of(cpu, [this](int s) { refresh_rate(s); });
}

void Simulation::block(TaskId tid)
{
    Task &t = tasks_[tid];
    const int cpu = t.cpu;
    put_prev(cpu, false, TaskState::Blocked);
    t.state = TaskState::Blocked;
    ++t.wake_seq;
}

void Simulation::task_exit(TaskId tid)
{
    Task &t = tasks_[tid];
    const int cpu = t.cpu;
    put_prev(cpu, false, TaskState::Exited);
    t.state = TaskState::Exited;
    t.remaining_work_ns = 0;
    memory_.forget_task(tid);
    if (t.program.iterations > 0)
        --finite_.live_tasks;
    // What it creates as its program ends arrives now, after its exit, in
    // the order it was built (an event each, as a fork at start is).
    for (TaskId child : t.creates_at_exit)
        events_.push(now_, EventType::Arrive, child);
    check_finished();
    if (!finished_)
        switch_to_next(cpu);
}

void Simulation::check_finished()
{
    if (finite_.live_tasks == 0 && finite_.total_ns > 0) {
        finished_ = true;
        end_ns_ = now_;
    }
}

void Simulation::wake(TaskId tid, int waker_cpu)
{
    Task &t = tasks_[tid];
    if (t.state != TaskState::Blocked)
        return;
    ++t.wake_seq;
    const int prev = t.cpu;
    const int target = policy_->select_cpu_wakeup(*this, tid, waker_cpu);
    if (!t.cpus_allowed.test(target))
        throw std::logic_error(policy_->name() + " woke task " + std::to_string(tid) + " outside its cpus_allowed");
    if (prev >= 0 && target != prev) {
        const DistanceClass cls = topo_->distance(prev, target).cls;
        ++migrations_by_class_[static_cast<int>(cls)];
        ++t.stats.migrations;
        t.prev_cpu = prev;
        const std::int64_t record = record_migration(
            MigrationRecord{now_, tid, prev, target, cls, t.last_ran_ns >= 0 ? now_ - t.last_ran_ns : 0},
            DecisionKind::Wakeup, std::string());
        open_migration_cost(t, prev, target, record);
    }
    if (sink_)
        sink_->on_wakeup(now_, tid, target, waker_cpu);
    policy_->on_enqueue(*this, tid, prev, target, EnqueueKind::Wakeup);
    const int by = waker_cpu >= 0 ? waker_cpu : target;
    if (policy_->wakeup_mode() == WakeupMode::Queued && by != target && policy_->queues_wakeup(by, target)) {
        // One atomic add on the target's wake list (a line transfer, no lock
        // hold); only the add that finds the list empty sends an IPI, as
        // llist_add() tells the kernel. The target takes its own lock when
        // the IPI arrives and enqueues everything on the list.
        const double transfer = lock_transfer_ns(target, by);
        Runqueue &rq = rqs_[target];
        t.state = TaskState::Runnable;
        t.cpu = target;
        rq.wake_list.push_back(tid);
        const bool send_ipi = rq.wake_list.size() == 1;
        charge_sys(by, transfer + (send_ipi ? 0.5 * static_cast<double>(cfg_.model.ipi_ns) : 0.0));
        if (send_ipi)
            events_.push(now_ + cfg_.model.ipi_ns, EventType::WakeIpi, target);
        return;
    }
    // Enqueued under the target's lock by another CPU, the enqueue waits for
    // lines the target's own scheduler wrote last while the lock is held:
    // what queued wakeups were built to save (2.6.39-rc: the patch that
    // moved ttwu()'s second half to the target CPU names these line
    // transfers as what it saves). ModelParams::rq_remote_enqueue_lines
    // counts those on the enqueue's dependent chain.
    const double remote_lines = by != target ? static_cast<double>(cfg_.model.rq_remote_enqueue_lines) *
                                                   lock_transfer_ns(target, by)
                                             : 0.0;
    lock_rq(target, by, remote_lines);
    enqueue(tid, target);
    check_preempt(target, tid);
}

void Simulation::check_preempt(int cpu, TaskId woken)
{
    Runqueue &rq = rqs_[cpu];
    if (rq.current < 0 || rq.current == woken || !policy_->check_preempt_wakeup(*this, cpu, woken))
        return;
    // The task posting the wakeup is in the kernel: it is preempted on its
    // way back to user mode (run_program), not in the middle of its op.
    if (rq.current == waking_from_)
        rq.need_resched = true;
    else
        resched(cpu);
}

void Simulation::deliver_wake_list(int cpu)
{
    Runqueue &rq = rqs_[cpu];
    if (rq.wake_list.empty())
        return;
    charge_irq(cpu, 0.5 * static_cast<double>(cfg_.model.ipi_ns)); // the IPI's handler
    lock_rq(cpu, cpu);
    auto list = std::move(rq.wake_list);
    rq.wake_list.clear();
    // Each enqueue may ask for a preemption; the CPU reschedules once, after
    // the whole list (the IPI handler returns, then schedule() runs).
    bool preempt = false;
    for (TaskId tid : list) {
        const bool busy = rq.current >= 0;
        enqueue(tid, cpu);
        preempt = preempt || (busy && policy_->check_preempt_wakeup(*this, cpu, tid));
    }
    if (preempt)
        resched(cpu);
}

double Simulation::lock_transfer_ns(int owner_cpu, int by_cpu) const
{
    const double local = static_cast<double>(cfg_.model.rq_lock_local_ns);
    const double remote = static_cast<double>(cfg_.model.rq_lock_remote_ns);
    if (layout_.lock_near_exact) {
        // The classes of Topology::distance, in its order: sharing a core or
        // a cache, then the same node, then remote by the SLIT distance.
        const ObjId near = layout_.pu_lock_near[static_cast<size_t>(owner_cpu)];
        if (near != kNoObj && near == layout_.pu_lock_near[static_cast<size_t>(by_cpu)])
            return 2.0 * local;
        const int node_a = pu_node_[static_cast<size_t>(owner_cpu)], node_b = pu_node_[static_cast<size_t>(by_cpu)];
        if (node_a == node_b)
            return remote;
        return remote * memory_.latency_ratio(node_a, node_b);
    }
    const PuDistance d = topo_->distance(owner_cpu, by_cpu);
    switch (d.cls) {
    case DistanceClass::Self: return local;
    case DistanceClass::SameCore:
    case DistanceClass::SharedL2:
    case DistanceClass::SharedL3: return 2.0 * local;
    case DistanceClass::SamePackage:
    case DistanceClass::SameNode: return remote;
    case DistanceClass::RemoteNode:
        return remote *
               memory_.latency_ratio(pu_node_[static_cast<size_t>(owner_cpu)], pu_node_[static_cast<size_t>(by_cpu)]);
    }
    return local;
}

double Simulation::lock_rq(int rq_cpu, int by_cpu, double extra_hold_ns)
{
    RqLock &L = rqs_[rq_cpu].lock;
    // The lock's cache line travels from whoever held it last. The common
    // case of lock_transfer_ns is spelled out here: this runs on every
    // wakeup and switch of a storm, and most transfers cross nodes.
    const int owner = L.last_owner_cpu;
    double transfer = static_cast<double>(cfg_.model.rq_lock_local_ns);
    if (owner >= 0 && owner != by_cpu) {
        const auto a = static_cast<size_t>(owner), b = static_cast<size_t>(by_cpu);
        const int node_a = pu_node_[a], node_b = pu_node_[b];
        const ObjId near = layout_.pu_lock_near[a];
        if (!layout_.lock_near_exact)
            transfer = lock_transfer_ns(owner, by_cpu);
        else if (near != kNoObj && near == layout_.pu_lock_near[b])
            transfer = 2.0 * transfer;
        else if (node_a == node_b)
            transfer = static_cast<double>(cfg_.model.rq_lock_remote_ns);
        else
            transfer = static_cast<double>(cfg_.model.rq_lock_remote_ns) * memory_.latency_ratio(node_a, node_b);
    }
    const double hold = static_cast<double>(cfg_.model.rq_lock_hold_ns) + extra_hold_ns;
    // The taker is busy until its pending kernel work is done: several
    // acquisitions it makes at one instant happen one after the other, so
    // it never waits for itself.
    advance_cpu(by_cpu);
    const double ready = static_cast<double>(now_) + rqs_[by_cpu].sys_debt_ns;
    const double start = std::max(ready, static_cast<double>(L.free_at_ns));
    const double wait = start - ready;
    L.free_at_ns = ceil_ns(start + transfer + hold);
    L.last_owner_cpu = by_cpu;
    ++L.acquisitions;
    if (by_cpu != rq_cpu)
        ++L.remote_acquisitions;
    L.wait_ns += static_cast<SimTime>(wait);
    lock_wait_ns_ += wait;
    const double cost = wait + transfer + hold;
    // charge_sys without its checks: by_cpu is a PU and is advanced to now.
    if (cost > 0)
        rqs_[by_cpu].sys_debt_ns += cost;
    return cost;
}

bool Simulation::migrate_task(TaskId tid, int to_cpu, int by_cpu, DecisionKind kind, const std::string &reason)
{
    Task &t = tasks_.at(tid);
    if (to_cpu < 0 || to_cpu >= topo_->pu_count() || !t.cpus_allowed.test(to_cpu))
        return false;
    if (t.state != TaskState::Runnable && t.state != TaskState::Running)
        return false;
    const int from = t.cpu;
    if (from == to_cpu)
        return false;
    Runqueue &src = rqs_[from];
    if (t.state == TaskState::Running) {
        put_prev(from, false); // active balancing: stop it where it runs
    } else {
        auto it = std::find(src.queue.begin(), src.queue.end(), tid);
        if (it == src.queue.end())
            return false; // on a wake list, in flight
        src.queue.erase(it);
        count_queued(from, -1);
        --nr_running_[from];
    }
    lock_rq(from, by_cpu);
    lock_rq(to_cpu, by_cpu);
    charge_sys(by_cpu, static_cast<double>(cfg_.model.task_migration_ns));
    const DistanceClass cls = topo_->distance(from, to_cpu).cls;
    ++migrations_by_class_[static_cast<int>(cls)];
    ++t.stats.migrations;
    t.prev_cpu = from;
    const MigrationRecord move{now_, tid, from, to_cpu, cls, t.last_ran_ns >= 0 ? now_ - t.last_ran_ns : 0};
    log(kind, tid, from, to_cpu, reason);
    open_migration_cost(t, from, to_cpu, record_migration(move, kind, reason));
    policy_->on_enqueue(*this, tid, from, to_cpu, EnqueueKind::Migrate);
    enqueue(tid, to_cpu);
    check_preempt(to_cpu, tid);
    if (src.current < 0)
        switch_to_next(from);
    return true;
}

std::int64_t Simulation::record_migration(const MigrationRecord &m, DecisionKind kind, const std::string &reason)
{
    recent_migrations_[static_cast<std::size_t>(migrations_total_ % kRecentMigrations)] = m;
    ++migrations_total_;
    if (sink_)
        sink_->on_migration(m, kind, reason);
    if (rec_->migrations.size() >= rec_->limits.max_migrations) {
        ++rec_->migrations_dropped;
        return -1;
    }
    make_room_for_record(rec_->migrations, rec_->limits.max_migrations); // recording.h says why
    rec_->migrations.push_back(m);
    return static_cast<std::int64_t>(rec_->migrations.size()) - 1;
}

} // namespace schedscope
