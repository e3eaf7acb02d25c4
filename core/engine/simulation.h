#pragma once
// The discrete-event engine and the machine it simulates.
//
// Events are ordered by (time, sequence number). Between events each PU's
// current task progresses at a rate that the machine model derives from its
// cache warmth, the NUMA distance of the memory it touches, memory-bandwidth
// and interconnect congestion and a busy SMT sibling. A global scheduler
// tick (HZ=1000 by default) re-derives those rates, lets the policy balance,
// preempts by timeslice and samples metrics.
//
// A Simulation is single-threaded. Several (one per policy) advance in
// lockstep by calling run_until(t) on each. checkpoint()/restore() let a view
// scrub back in time.

#include "engine/event_queue.h"
#include "engine/memory_model.h"
#include "engine/model_params.h"
#include "engine/numa_activity.h"
#include "engine/owned.h"
#include "engine/policy.h"
#include "engine/recording.h"
#include "engine/sched_event_sink.h"
#include "engine/sim_types.h"
#include "util/prng.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace schedscope {

struct SimConfig {
    ModelParams model;
    std::uint64_t seed = 1;
    SimTime sample_interval_ns = 100'000'000; // metrics every 100 ms of simulated time
    // The run ends when every task that has a finite program exited, or at
    // this time, whichever comes first. 0 = no limit (throughput workloads
    // must set one).
    SimTime duration_ns = 0;
    std::int64_t accesses_sampled_per_tick = 2; // memory touches drawn per running task per tick
    RecordingLimits limits;                     // what the recording keeps of a long run
};

// CFS-style fair slicing: a period shared by the runnable tasks of a
// runqueue, never below a minimum granularity (Linux sched_latency_ns and
// sched_min_granularity_ns defaults).
inline constexpr SimTime kSchedLatencyNs = 6'000'000;
inline constexpr SimTime kSchedMinGranularityNs = 750'000;

class Simulation {
public:
    Simulation(std::shared_ptr<const Topology> topo, std::unique_ptr<Policy> policy, SimConfig cfg);
    // A copy is an independent run (a checkpoint): memberwise, with the
    // policy cloned, a recording of its own and no event sink (owned.h).
    Simulation(const Simulation &other) = default;
    Simulation &operator=(const Simulation &other) = default;
    Simulation(Simulation &&) noexcept = default;
    Simulation &operator=(Simulation &&) noexcept = default;
    ~Simulation();

    // --- building (before start) ---
    ProcId add_process(const std::string &name, std::int64_t memory_bytes, AllocPolicy alloc = AllocPolicy::FirstTouch,
                       CpuSet alloc_nodes = {});
    struct TaskSpec {
        std::string name;
        Program program;
        SimTime start_ns = 0;
        // Created by another task of the run once that task's program ends
        // (pthread_create() after main() has done its set-up work): it
        // arrives when `created_by` exits, not at start_ns. -1: at start_ns.
        TaskId created_by = -1;
        std::vector<AccessSegment> segments; // empty = no memory traffic beyond its cache
        double mem_intensity = 0.0;          // accesses past L1 per ns of compute
        double working_set_bytes = 0.0;
        // Share of its accesses that depend on the one before (pointer
        // chasing: one line per latency); the rest stream, overlapped
        // mem_misses_in_flight deep by prefetch and out-of-order issue.
        double dependent_fraction = 0.0;
        // Share of its accesses that fall outside the working set on data
        // far larger than any cache (Task::stray_share).
        double stray_share = 0.0;
        // Lines written back to memory per line it misses: 1 for a loop of
        // ordinary stores (bzero), whose every line is read for ownership
        // and later written back, two memory transfers a line (write-allocate);
        // 0 for reads, and for non-temporal stores, which never read the line.
        double writeback_share = 0.0;
        CpuSet cpus_allowed; // empty = every PU
        int nice = 0;        // kNiceMin..kNiceMax (engine/nice.h)
        // An OS process of its own, started by fork and exec, though it
        // shares the Process's memory (OLTP's server processes on one
        // shared buffer). Otherwise only a Process's first task is a
        // program started afresh; the others are created by it (threads, or
        // forked children that do not exec). Only a policy that places new
        // tasks by how they were created reads it (sched-domains: Linux
        // 2.6.9 balances at exec, not at fork).
        bool own_process = false;
        // Started by the benchmark but outside what its own timing counts:
        // a background command that the timed one never waits for, whose
        // CPU time `time` therefore never collects (numa_test's hackbench).
        // Left out of RunResult's task_user_s and task_sys_s.
        bool untimed = false;
    };
    TaskId add_task(ProcId proc, TaskSpec spec);
    // Memory written before the measured part starts (e.g. numa01's first
    // touch while bound to one node).
    void place_chunks(ProcId proc, int chunk_begin, int chunk_end, int node);
    // The process's pages were faulted in before the measured part (a
    // server's memory, touched while it warmed up): its first touches in
    // the run still place it, but charge no fault (first_touch_ns).
    void mark_faulted_in(ProcId proc);
    // The memory place_chunks placed for this process is written first
    // during the run, by its own tasks (numa01's threads bzero() it all
    // before their loops, under a memory policy that says where it goes):
    // each placed chunk's page faults fall on the first task that touches
    // it (first_touch_ns), as an unplaced chunk's do. Call after
    // place_chunks, before start.
    void mark_first_write_in_run(ProcId proc);
    int add_channel(std::int64_t initial_tokens = 0);
    // Tokens of `channel` stand for messages that move cache lines between
    // the poster's and the taker's caches (core/engine/channel_messages.cpp).
    void set_channel_message(int channel, const ChannelMessage &message);
    void start();

    // --- running ---
    bool step(); // one event; false when the run has ended
    // Handles the events up to t and lets time pass to t. Where a run is
    // stopped does not change it: the PUs' accounting is brought up to t
    // only by the next event (account_to_now says why).
    void run_until(SimTime t);
    // Brings every PU's time, cache warmth and task accounting up to now,
    // for a report on a run that stops here. It splits the running bursts'
    // integration at now, so a run that goes on afterwards is no longer the
    // run it would have been: call it only where the run ends.
    void account_to_now();
    void run_to_end();
    SimTime now() const { return now_; }
    bool started() const { return started_; }
    bool finished() const { return finished_; }
    SimTime end_time() const { return end_ns_; } // when it finished (or now)
    std::int64_t events_processed() const { return events_processed_; }
    // Started tasks whose memory is not all placed yet (unplaced_weight > 0).
    std::int64_t unplaced_tasks() const { return unplaced_tasks_; }
    // True when SCHEDSCOPE_CHECK_INVARIANTS was set (and not "0") as this
    // simulation was built: step() then checks every event.
    bool checks_each_event() const { return check_each_event_; }

    // --- checkpoints ---
    struct Checkpoint {
        std::shared_ptr<const Simulation> state;
        Recording::Mark mark;
    };
    Checkpoint checkpoint() const;
    void restore(const Checkpoint &cp);

    // --- what policies and views read ---
    const Topology &topology() const { return *topo_; }
    std::shared_ptr<const Topology> topology_ptr() const { return topo_; }
    const ModelParams &model() const { return cfg_.model; }
    const SimConfig &config() const { return cfg_; }
    Policy &policy() { return *policy_; }
    const Policy &policy() const { return *policy_; }
    const std::vector<Task> &tasks() const { return tasks_; }
    const Task &task(TaskId t) const { return tasks_.at(t); }
    const std::vector<Process> &processes() const { return procs_; }
    const std::vector<Runqueue> &runqueues() const { return rqs_; }
    const Runqueue &rq(int cpu) const { return rqs_.at(cpu); }
    const std::vector<CacheState> &caches() const { return memory_.caches(); }
    const Recording &recording() const { return *rec_; }
    // Every task migration so far, kept in the recording or not (past its
    // limit), by distance class and in all; and the most recent ones, which
    // is what views animate: recent_migration(i) for
    // i in [max(0, migrations_total() - kRecentMigrations), migrations_total()).
    static constexpr std::int64_t kRecentMigrations = 64;
    const std::array<std::int64_t, kDistanceClassCount> &migrations_by_class() const { return migrations_by_class_; }
    std::int64_t migrations_total() const { return migrations_total_; }
    const MigrationRecord &recent_migration(std::int64_t i) const
    {
        return recent_migrations_[static_cast<std::size_t>(i % kRecentMigrations)];
    }
    // NUMA balancing's scanning, faults, shootdowns, copies and huge-page
    // splits so far (engine/policy_actions.h charges and counts them).
    const NumaActivity &numa_activity() const { return numa_activity_; }
    Prng &rng() { return rng_; }
    // Runnable tasks on a PU, current included: Runqueue::nr_running(),
    // kept in one dense array because the balancers sum it over whole
    // groups of PUs on every pass.
    int nr_running(int cpu) const { return nr_running_[static_cast<size_t>(cpu)]; }
    bool cpu_idle(int cpu) const { return nr_running_[static_cast<size_t>(cpu)] == 0; }
    // The same counts for every PU, indexed by PU: the array the balancers
    // sum, valid until the next event.
    const int *nr_running_all() const { return nr_running_.data(); }
    // Tasks waiting in a runqueue, not running, over all PUs (what a
    // balancer could pull without active balancing).
    std::int64_t queued_tasks() const { return queued_total_; }
    int queued_on_node(int node) const { return queued_on_node_[static_cast<size_t>(node)]; }
    int node_of_pu(int cpu) const { return pu_node_[static_cast<size_t>(cpu)]; }
    // Queueing waits below saturation, in local memory latencies: at node
    // `n`'s memory, and on the link between nodes a and b.
    double memory_queue_wait(int n) const { return memory_.memory_queue_wait(n); }
    double link_queue_wait(int a, int b) const { return memory_.link_queue_wait(a, b); }
    // The memory side of the machine model: caches, congestion, queueing.
    const MemoryModel &memory() const { return memory_; }
    // Bytes of the task's working set held by the caches above `cpu`, by
    // level (index 1..3); what a policy may read as "how hot it is there".
    double warmth_on(TaskId t, int cpu, int level) const;
    // Resident bytes of a process on each node.
    std::vector<double> process_node_bytes(ProcId p) const;
    std::int64_t total_ops() const;
    double progress() const; // fraction of finite work done

    // --- actions for policies (more in engine/policy_actions.h) ---
    // Move a runnable (queued) task to another PU's runqueue. Takes both
    // runqueue locks (contention model), charges the migration cost to
    // `by_cpu` and records the move. Returns false if not allowed.
    bool migrate_task(TaskId t, int to_cpu, int by_cpu, DecisionKind kind, const std::string &reason);
    // Move a chunk of process memory to a node, charging the copy to `by_cpu`.
    // Refused (false) for memory bound to other nodes.
    bool migrate_chunk(ProcId p, int chunk, int node, int by_cpu, const std::string &reason);
    // Arm a NUMA hinting fault on a chunk; charges the scan cost to `by_cpu`
    // (the per-page scan of the whole chunk unless `scan_cost_ns` says otherwise,
    // e.g. a coarser PMD-level scan, or 0 for a re-arm already paid for).
    void arm_chunk(ProcId p, int chunk, int by_cpu, double scan_cost_ns = -1);
    // Charge kernel work to a PU (becomes system time).
    void charge_sys(int cpu, double ns) { charge_kernel(cpu, ns); }
    // Charge interrupt work to a PU: kernel time like charge_sys, which the
    // running task's own system time does not count (TaskStats::irq_ns).
    void charge_irq(int cpu, double ns)
    {
        if (Runqueue *rq = charge_kernel(cpu, ns))
            rq->irq_debt_ns += ns;
    }
    // Acquire a runqueue lock from `by_cpu`: returns the time it cost (wait
    // + line transfer + hold) and charges it to `by_cpu`. `extra_hold_ns`
    // lengthens the critical section (remote lines written under the lock).
    double lock_rq(int rq_cpu, int by_cpu, double extra_hold_ns = 0.0);
    void log(DecisionKind kind, TaskId t, int from, int to, std::string_view reason);
    // log() with the reason written only if the decision will be kept: once
    // the recording holds max_decisions and no sink listens, a decision is
    // only counted as dropped, and writing its words would be wasted (a
    // wakeup storm skips millions of cache-hot tasks). `reason` returns the
    // text log() would take (a std::string, or a view of a scratch string
    // that lives until log() has copied it).
    template <class Reason> void log_lazy(DecisionKind kind, TaskId t, int from, int to, Reason &&reason)
    {
        if (sink_.get() == nullptr && rec_->decisions.size() >= rec_->limits.max_decisions) {
            ++rec_->decisions_dropped;
            return;
        }
        log(kind, t, from, to, reason());
    }

    // --- observers ---
    // Streams context switches, wakeups, migrations and decisions to `sink`
    // (null detaches). Not owned, not copied into checkpoints: see
    // sched_event_sink.h.
    void set_event_sink(SchedEventSink *sink) { sink_ = sink; }
    SchedEventSink *event_sink() const { return sink_.get(); }

private:
    // charge_sys and charge_irq: `ns` of kernel work on PU `cpu`, brought
    // up to now first; returns its runqueue, or null when nothing was
    // charged (no such PU, or no time).
    Runqueue *charge_kernel(int cpu, double ns)
    {
        if (cpu < 0 || cpu >= static_cast<int>(rqs_.size()) || !(ns > 0))
            return nullptr;
        advance_cpu(cpu);
        Runqueue &rq = rqs_[static_cast<size_t>(cpu)];
        rq.sys_debt_ns += ns;
        return &rq;
    }
    // Mutable tasks and processes: for the engine's own actions
    // (engine/policy_actions.h) and for tests that build a situation by
    // hand (tests/core/engine_test_access.h). Policies reach neither.
    friend class PolicyActions;
    friend struct EngineTestAccess;
    Task &task_mut(TaskId t) { return tasks_.at(t); }
    Process &process_mut(ProcId p) { return procs_.at(p); }

    // event handling
    void handle(const Event &e);
    void on_tick();
    void on_sample();
    void arrive(TaskId t);
    // execution model
    // Brings a PU's accounting up to now. Inline: most calls (every lock
    // taken, every kernel charge) find it already there.
    void advance_cpu(int cpu)
    {
        if (now_ > rqs_[cpu].last_update_ns)
            advance_cpu_to_now(cpu);
    }
    void advance_cpu_to_now(int cpu);
    void advance_body(int cpu); // advance_cpu_to_now's step, inline into the loops
    void advance_all();
    // The tick's advance_all: each PU brought up to now, then, if it runs a
    // task, charged `tick_cost_ns` onto its debts (the tick's own cost,
    // noise_tick_cost_ns; none if 0); true if a running task's burst is
    // done (what the tick hands to run_program next).
    bool advance_all_on_tick(double tick_cost_ns);
    void recompute_rate(int cpu);
    // Schedules the PU's burst end if it falls before the next tick (or
    // drops the one scheduled). Inline for a burst that plainly outlasts
    // the tick period (every CPU-bound task of a big machine, on every
    // tick), which only drops any pending event; the rest, out of line, in
    // schedule_burst_end.
    void maybe_schedule_burst_end(int cpu)
    {
        const auto c = static_cast<std::size_t>(cpu);
        const Runqueue &rq = rqs_[c];
        // Settled with a multiplication: with gap = next_tick - now and
        // work > (gap - debt + 1) x rate, the rounding of the few operations
        // of schedule_burst_end's exact path is under 1e-15 of gap + 1, so
        // there need > gap and due > next tick for any gap below 1e14 ns (a
        // tick period is 1e6). The last test keeps need far from where
        // ceil_ns stops being exact. A rate of exactly 1 (no memory
        // traffic) and a task waking its post's waiters (in_post) take the
        // exact path, as does an idle PU.
        if (rq.current >= 0 && rq.rate > 0 && rq.rate != 1.0) {
            const Task &t = tasks_[static_cast<std::size_t>(rq.current)];
            const double work = std::max(0.0, t.remaining_work_ns);
            const double gap = static_cast<double>(next_tick_ns_ - now_);
            if (!t.in_post && gap < 1e14 && work > (gap - rq.sys_debt_ns + 1.0) * rq.rate && work <= 0x1p60 * rq.rate) {
                if (burst_due_ns_[c] >= 0)
                    ++burst_seq_[c];
                burst_due_ns_[c] = -1;
                return;
            }
        }
        schedule_burst_end(cpu);
    }
    void schedule_burst_end(int cpu);
    // recompute_rate then maybe_schedule_burst_end. Inline for an idle PU
    // (half the calls in a wakeup storm: every block leaves one idle for a
    // moment), where both only clear its rate and pending burst, and for a
    // kept rate (below). Always inline: the tick calls it for every PU, and
    // as a call its register saves and restores were a quarter of it.
    [[gnu::always_inline]] void refresh_rate(int cpu)
    {
        Runqueue &rq = rqs_[static_cast<size_t>(cpu)];
        if (rq.current < 0) {
            rq.refill_frac = rq.remote_frac = 0;
            rq.rate = 0;
            burst_due_ns_[static_cast<size_t>(cpu)] = -1;
            return;
        }
        // A running task's rate the memory model keeps for this PU, and no
        // SMT sibling to share the core with (most PUs on most ticks of a
        // steady machine): recompute_rate's result, without its call.
        const Task &t = tasks_[static_cast<size_t>(rq.current)];
        const MemoryModel::KeptRate *kept = nullptr;
        if (!layout_.smt && t.mem_intensity > 0 && (kept = memory_.kept_rate_for(t, cpu)) != nullptr)
            take_kept_rate(cpu, rq, *kept);
        else
            recompute_rate(cpu);
        maybe_schedule_burst_end(cpu);
    }
    // recompute_rate for a kept rate without SMT siblings: the rate and
    // shares as kept, and the PU marked for the congestion update if its
    // rate or miss share moved bit for bit.
    void take_kept_rate(int cpu, Runqueue &rq, const MemoryModel::KeptRate &k)
    {
        const bool moved = std::bit_cast<std::uint64_t>(k.rate) != std::bit_cast<std::uint64_t>(rq.rate) ||
                           std::bit_cast<std::uint64_t>(k.mem_frac) != std::bit_cast<std::uint64_t>(rq.mem_frac);
        rq.rate = k.rate;
        rq.mem_frac = k.mem_frac;
        rq.local_share = k.local_share;
        rq.refill_frac = k.refill_frac;
        rq.remote_frac = k.remote_frac;
        if (moved)
            memory_.demand_changed(cpu);
    }
    // OS noise (os_noise.cpp): its kernel threads, added at start; its
    // interrupts and tick cost, each tick.
    void add_os_noise();
    // Messages' line transfers (channel_messages.cpp): the poster pays for
    // the object's lines when it posts, the taker for the message's when it
    // takes its token, each by where the lines were last written.
    void message_posted(int channel, int poster_cpu, std::int64_t tokens);
    void message_taken(int channel, int from_cpu, int taker_cpu);
    double message_line_chain_ns(int lines, int owner_cpu, int by_cpu) const;
    // The tick's cost of every running PU, charged by advance_all_on_tick.
    double noise_tick_cost_ns() const
    {
        return cfg_.model.os_noise > 0 && cfg_.model.noise_tick_ns > 0 ? static_cast<double>(cfg_.model.noise_tick_ns)
                                                                       : 0.0;
    }
    // The tick's device interrupts; true if it woke a task (a ksoftirqd),
    // which may have changed what a PU runs.
    bool os_noise_tick();
    // Add tokens to a channel, waking its waiters from `waker_cpu`;
    // only_waiting caps the tokens at the tasks waiting now.
    void post_tokens(int channel, std::int64_t tokens, int waker_cpu, bool only_waiting = false);
    // Migration cost hook (Task::mig_cost): open the phases at a move; the
    // memory model prices them when the rate is re-derived.
    void open_migration_cost(Task &t, int from_cpu, int to_cpu, std::int64_t record)
    {
        memory_.open_migration_cost(t, from_cpu, pu_node_[static_cast<size_t>(from_cpu)],
                                    pu_node_[static_cast<size_t>(to_cpu)], record);
    }
    // Keeps a move in the recording (up to its limit) and tells the sink;
    // returns its index there, or -1 if it was only counted.
    std::int64_t record_migration(const MigrationRecord &m, DecisionKind kind, const std::string &reason);
    void sample_accesses(Task &t, int cpu);
    // scheduling
    void enqueue(TaskId t, int cpu);
    void switch_to_next(int cpu);
    // `leaving_as` only tells an attached event sink why the task stopped.
    void put_prev(int cpu, bool requeue, TaskState leaving_as = TaskState::Runnable);
    void run_program(TaskId t); // interpret ops until it computes, blocks or exits
    void block(TaskId t);
    void wake(TaskId t, int waker_cpu);
    void deliver_wake_list(int cpu);
    void task_exit(TaskId t);
    void check_finished();
    // memory
    void place_chunk(Process &p, int chunk, int node);
    // The kernel time of the first-touch faults that map a chunk: one
    // fault and one page cleared per page of it the process asked for
    // (ModelParams::page_fault_ns, page_clear_bytes_per_ns).
    double first_touch_ns(const Process &p, int chunk, int here) const;
    void move_chunk_weight(Process &p, int chunk, int from_node, int to_node);
    double chunk_weight(const Task &t, int chunk) const;

    std::shared_ptr<const Topology> topo_;
    Cloned<Policy> policy_;
    SimConfig cfg_;
    Prng rng_;
    EventQueue events_;
    SimTime now_ = 0;
    SimTime next_tick_ns_ = 0;
    SimTime end_ns_ = 0;
    bool started_ = false;
    bool finished_ = false;
    std::int64_t events_processed_ = 0;
    // SCHEDSCOPE_CHECK_INVARIANTS=1 in the environment: check the engine's
    // bookkeeping after every event (docs/reliability.md). Read once per run;
    // it changes no result, only how soon a broken one is caught.
    bool check_each_event_ = false;

    std::vector<Process> procs_;
    std::vector<Task> tasks_;
    // The distinct programs' ops that Task::ops point into: immutable and
    // shared with copies, so a checkpoint's tasks point into them too. The
    // lookup only finds a program already there while tasks are added.
    std::vector<std::shared_ptr<const std::vector<Op>>> op_pool_;
    struct OpsLess {
        bool operator()(const std::vector<Op> &x, const std::vector<Op> &y) const;
    };
    std::map<std::vector<Op>, std::size_t, OpsLess> op_lookup_;
    const Op *shared_ops(const std::vector<Op> &ops);
    std::vector<Runqueue> rqs_;
    std::vector<int> nr_running_;     // per PU: rqs_[cpu].nr_running(), updated with it
    std::int64_t queued_total_ = 0;   // tasks waiting on a runqueue (not running), all PUs
    std::vector<int> queued_on_node_; // the same per NUMA node (one entry without NUMA)
    // A task joins (+1) or leaves (-1) the queue of `cpu`.
    void count_queued(int cpu, int delta)
    {
        queued_total_ += delta;
        queued_on_node_[static_cast<size_t>(pu_node_[static_cast<size_t>(cpu)])] += delta;
    }
    // Pricing a runqueue lock's line transfer asks how close its last owner
    // is, on every lock. Per PU, the outermost Core/L1/L2/L3 above it
    // (kNoObj if none): when no type repeats on a path to the root, two PUs
    // share one of those iff they have the same one, which spares
    // Topology::distance. lock_near_exact_ says whether that holds.
    // The machine's shape as the scheduler sees it, fixed at construction.
    struct Layout {
        std::vector<ObjId> pu_lock_near;
        bool lock_near_exact = false;
        std::vector<std::vector<int>> core_pus; // PUs of each core
        std::vector<int> pu_core;               // core of each PU
        bool smt = false;                       // some core has more than one PU
    };
    Layout layout_;
    double lock_transfer_ns(int owner_cpu, int by_cpu) const;
    MemoryModel memory_;
    std::vector<int> pu_node_;
    // Calls f on the PU and its SMT siblings, in core order: on a machine
    // without SMT, on the PU alone, without the walk through core_pus.
    template <class F> void for_core_of(int cpu, F &&f)
    {
        if (!layout_.smt) {
            f(cpu);
            return;
        }
        for (int s : layout_.core_pus[static_cast<size_t>(layout_.pu_core[static_cast<size_t>(cpu)])])
            f(s);
    }
    std::vector<Channel> channels_;
    std::vector<PendingPost> pending_posts_; // posts whose waiters are being woken in turn; free slots are reused
    // Wakes the next waiter of pending post `slot` and schedules the one after.
    void continue_post(int slot);
    // The task whose Post op is waking others right now (-1 outside one):
    // a wakeup that preempts it waits until it returns from the kernel.
    TaskId waking_from_ = -1;
    // Stops the running task of `cpu` and runs the next one.
    void resched(int cpu);
    // A task joined `cpu`'s runqueue: the policy's wakeup preemption.
    void check_preempt(int cpu, TaskId woken);
    // OS noise's state (os_noise.cpp).
    struct Noise {
        std::vector<int> softirq_channel; // per PU: its ksoftirqd's channel, or -1
        double irq_due = 0;               // interrupts owed, carried from tick to tick
    };
    Noise noise_;
    std::vector<double> burst_due_ns_; // per PU: the pending burst-end event time, or -1
    std::vector<std::uint64_t> burst_seq_;
    // Work of the tasks whose programs end (what progress() measures).
    struct FiniteWork {
        std::int64_t live_tasks = 0;
        double total_ns = 0;
        double done_ns = 0;
    };
    FiniteWork finite_;
    std::int64_t armed_chunks_total_ = 0;     // Process::armed_chunks summed over the processes
    std::int64_t unfaulted_chunks_total_ = 0; // Process::unfaulted_chunks summed over the processes
    // Tasks whose unplaced_weight is above 0 (it only falls once started):
    // with none, and no chunk armed, no access sample can touch or fault,
    // and the tick skips them all.
    std::int64_t unplaced_tasks_ = 0;
    std::int64_t page_migrations_ = 0;
    std::int64_t hinting_faults_ = 0;
    NumaActivity numa_activity_;
    double lock_wait_ns_ = 0;
    std::array<std::int64_t, kDistanceClassCount> migrations_by_class_{};
    std::int64_t migrations_total_ = 0;
    std::array<MigrationRecord, kRecentMigrations> recent_migrations_{}; // ring, by migrations_total_
    // What the next metrics sample needs: accumulators since the last one.
    struct SampleWindow {
        std::vector<double> acc, local; // per process: memory accesses, of which local
        std::vector<SimTime> last_busy; // per PU: user + sys time at the last sample
        SimTime every_ns = 0;           // doubles each time the recording merges its samples
    };
    SampleWindow window_;

    Deep<Recording> rec_;
    // Not copied: copies (checkpoints) start without one, and a restore
    // keeps the one attached.
    Unshared<SchedEventSink> sink_;
};

} // namespace schedscope

// PolicyView and PolicyContext forward to the Simulation defined above.
#include "engine/policy_context_inline.h" // IWYU pragma: export
