#pragma once
// The state the engine simulates: processes with chunked memory, tasks with
// programs and access patterns, per-PU runqueues with a lock, caches with
// per-task warmth. Plain data: a Simulation copies as a checkpoint.

#include "engine/program.h"
#include "topology/cpuset.h"
#include "topology/topology.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <string>
#include <vector>

namespace schedscope {

using TaskId = int;
using ProcId = int;
using SimTime = std::int64_t; // nanoseconds since the start of the run
inline constexpr int kNoCpu = -1;

// Whole nanoseconds below / above a time in ns, as std::floor / std::ceil
// then a cast would give (exact for every value an int64 holds), without a
// libm call on paths taken millions of times a run.
inline SimTime floor_ns(double x)
{
    const auto t = static_cast<SimTime>(x);
    return static_cast<double>(t) > x ? t - 1 : t;
}
inline SimTime ceil_ns(double x)
{
    const auto t = static_cast<SimTime>(x);
    return static_cast<double>(t) < x ? t + 1 : t;
}
inline constexpr int kNoNode = -1;

enum class TaskState { NotStarted, Runnable, Running, Blocked, Exited };
inline const char *task_state_name(TaskState s)
{
    switch (s) {
    case TaskState::NotStarted: return "not-started";
    case TaskState::Runnable: return "runnable";
    case TaskState::Running: return "running";
    case TaskState::Blocked: return "blocked";
    case TaskState::Exited: return "exited";
    }
    return "?";
}

enum class AllocPolicy { FirstTouch, Interleave, Bind };

// Where memory written under a `Bind` mask by threads running on
// `writer_nodes` lands, chunk c on result[c % size]: a writer inside the mask
// writes to its own node, so the pages spread over the mask's nodes that
// have writers; from outside, every page goes to the mask's first node, as
// Simulation places a touch from outside the mask (a simplification of the
// kernel's fallback order).
inline std::vector<int> bind_write_nodes(const CpuSet &mask, const CpuSet &writer_nodes)
{
    CpuSet inside = mask;
    inside &= writer_nodes;
    return inside.empty() ? std::vector<int>{mask.first()} : inside.members();
}

// A part of a process's memory that a task touches, with a relative weight.
struct AccessSegment {
    int chunk_begin = 0;
    int chunk_end = 0; // exclusive
    double weight = 1.0;
};

struct Process {
    ProcId id = 0;
    std::string name;
    std::int64_t memory_bytes = 0;         // as asked: the last chunk may be only partly used
    std::vector<std::int16_t> chunk_node;  // node of each chunk, kNoNode until first touch
    std::vector<std::uint8_t> chunk_armed; // 1 = a NUMA hinting fault is armed on it (via Simulation::arm_chunk)
    int armed_chunks = 0;                  // how many are armed: none means no fault to sample for
    // 1 = placed before the run for a first write its tasks make during it
    // (Simulation::mark_first_write_in_run): the first task to touch it
    // takes the page faults. Empty when none is.
    std::vector<std::uint8_t> chunk_unfaulted;
    int unfaulted_chunks = 0; // how many are
    AllocPolicy alloc = AllocPolicy::FirstTouch;
    CpuSet alloc_nodes; // Bind / Interleave: the allowed nodes (as a node set)
    std::vector<TaskId> tasks;
    std::vector<int> chunks_on_node; // resident chunk count per node
    bool kernel = false;             // the OS's own threads (os_noise.cpp): no policy binds or homes it
    bool faulted_in = false;         // its first touches charge no fault (Simulation::mark_faulted_in)
    // No node outside [nodes_lo, nodes_hi) ever held a chunk of it (the
    // range only widens): a sample reads chunks_on_node over that range,
    // one node for most processes of a 512-node machine.
    int nodes_lo = std::numeric_limits<int>::max(), nodes_hi = 0;
    void count_chunk_on(int node)
    {
        ++chunks_on_node[static_cast<std::size_t>(node)];
        nodes_lo = std::min(nodes_lo, node);
        nodes_hi = std::max(nodes_hi, node + 1);
    }
};

struct TaskStats {
    SimTime user_ns = 0;
    SimTime sys_ns = 0; // system time charged while this task was current
    // Of sys_ns: interrupt work (the tick, device interrupts, IPIs received)
    // done while this task was current. Linux's tick-based accounting gives
    // it to the mode the interrupt found: a user task's user time.
    SimTime irq_ns = 0;
    SimTime wait_ns = 0; // runnable but not running
    std::int64_t migrations = 0;
    std::int64_t ops = 0;      // CountOp executed
    double accesses = 0;       // modelled memory accesses
    double local_accesses = 0; // of which to the node of the PU that ran it
};

// The cost phases of a task's latest migration, open until they settle. The
// engine prices them from its own rate model: the latency per access the task
// pays now against the latency it would pay with the caches it had on the PU
// it left (refill), and with its memory seen from that PU's node (remote).
// The extra share of running time is I x delta / (1 + I x latency), the exact
// difference between the two rates. A newer migration supersedes an open one.
struct MigrationCostState {
    std::int64_t record = -1;    // index in Recording::migrations; -1 = nothing open
    bool refill_open = false;    // caches not yet as warm as before the move
    bool remote_open = false;    // memory still further away than from the PU it left
    double ref_cache_lat_ns = 0; // cache part of the latency per access before the move
    double ref_miss = 0;         // share of accesses past every cache before the move
    int from_node = kNoNode;     // node of the PU it left
    double refill_ns = 0;        // accumulated so far; the record mirrors these
    double remote_ns = 0;
};

// Field order is for the host's caches, not for reading: a wakeup storm
// touches a handful of fields of thousands of tasks, each cold, so the ones
// read or written on every wakeup, switch and burst come first and the struct
// starts on a cache line. They then span 4 lines instead of all 7.
struct alignas(64) Task {
    // --- hot: every wakeup, switch, burst end ---
    TaskId id = 0;
    ProcId proc = 0;
    TaskState state = TaskState::NotStarted;
    bool kernel = false;                           // a kernel thread: its run time is system time
    bool in_post = false;                          // in the kernel, waking the waiters of its Post op in turn
    bool untimed = false;                          // not in its benchmark's own timing (TaskSpec::untimed)
    int cpu = kNoCpu;                              // PU it is on (running or queued), or last ran on
    int pc = 0;                                    // next op of the program
    int prev_cpu = kNoCpu;                         // PU before the last migration
    int nice = 0;                                  // -20..19; weights its vruntime (prio_to_weight)
    std::array<int, 4> cache_slot{-1, -1, -1, -1}; // per cache level: last index of its share (a hint)
    std::uint64_t wake_seq = 0;                    // invalidates stale timer events
    SimTime last_ran_ns = -1;                      // when it last stopped running (or now if running)
    SimTime slice_start_ns = 0;                    // when its current stint on the CPU began
    SimTime vruntime_ns = 0;                       // fair share ordering on a runqueue
    double remaining_work_ns = 0;                  // of the current Compute op
    int message_channel = -1;                      // handed a message token while blocked: charged when it runs
    int message_from_cpu = -1;                     // the PU that posted it
    std::int64_t iteration = 0;
    double mem_intensity = 0.0;      // cache-line accesses per ns of compute that go past L1
    double working_set_bytes = 0.0;  // what it would like to keep in cache
    double dependent_fraction = 0.0; // share of those accesses that wait for the previous one (pointer chasing)
    // Share of those accesses that land outside its working set, on data far
    // larger than any cache (OLTP's reads scattered over the shared buffer):
    // each misses, and the line it brings in evicts what else the cache held.
    double stray_share = 0.0;
    double writeback_share = 0.0; // lines written back to memory per line it misses (stores: write-allocate)
    // program.ops as the engine runs them: one copy per distinct program,
    // owned by the Simulation and shared by its tasks (thousands of threads
    // of one workload run the same few ops, which then stay in the host's
    // cache instead of being one cold allocation per task). Set by add_task.
    const Op *ops = nullptr;
    int op_count = 0;
    Program program;
    CpuSet cpus_allowed;
    TaskStats stats;
    MigrationCostState mig_cost;
    // --- memory placement: every tick of a running task with memory reads
    // the first three (its kept rate, whether to sample its accesses) and
    // whether it has segments, all in the task's 6th cache line.
    double unplaced_weight = 1.0; // share on chunks not yet touched
    // Counts the changes of node_weight, used_nodes and unplaced_weight:
    // whoever changes them bumps it (the engine's placement of a chunk, the
    // start). A rate kept for the task (MemoryModel::memory_bound_rate)
    // compares it instead of reading node_weight, a 4 KiB vector per task
    // on a 512-node machine whose entry is a cache miss on every tick.
    std::uint64_t placement_changes = 0;
    std::vector<int> used_nodes; // nodes whose node_weight is non-zero: big machines have hundreds
    std::vector<AccessSegment> segments;
    std::vector<double>
        node_weight; // share of its accesses that land on each node (sums to <= 1); empty without segments

    // --- cold: set up once, or read by policies on their own schedule ---
    std::string name;
    SimTime start_ns = 0;     // arrival (fork/exec) time
    bool own_process = false; // an exec'd process of its own (TaskSpec::own_process)
    // Tasks this one creates when its program ends (TaskSpec::created_by).
    std::vector<TaskId> creates_at_exit;
    bool arrives_with_creator = false; // created by another task: no arrival at start_ns
    // Its share on node n; a task with no memory segments has none anywhere.
    double weight_on(int n) const
    {
        return static_cast<size_t>(n) < node_weight.size() ? node_weight[static_cast<size_t>(n)] : 0.0;
    }
};

// A lock's state for the contention model: when it is next free.
struct RqLock {
    SimTime free_at_ns = 0;
    int last_owner_cpu = kNoCpu; // the PU whose cache holds the lock's line
    std::int64_t acquisitions = 0;
    std::int64_t remote_acquisitions = 0;
    SimTime wait_ns = 0;
};

// Aligned, with what every tick reads or writes of each PU (the running
// task, the queue's length, the accounting and the rate's figures) in its
// first two cache lines: a tick visits every PU several times, and a
// 1024-PU machine's runqueues then stream 2 lines each, not 3 or 4.
struct alignas(64) Runqueue {
    TaskId current = -1;
    std::vector<TaskId> queue;  // runnable, not running, in arrival order
    SimTime last_update_ns = 0; // time up to which this PU's accounting is done
    double rate = 0.0;          // work-ns per ns of the current task, since last update
    double sys_debt_ns = 0.0;   // kernel work charged but not yet spent
    double irq_debt_ns = 0.0;   // of sys_debt_ns: interrupt work (Simulation::charge_irq)
    double mem_frac = 0.0;      // share of the current task's accesses that miss every cache
    double local_share = 1.0;   // share of those that go to this PU's node
    double refill_frac = 0.0;   // share of the current task's user time owed to its last move's cold caches
    double remote_frac = 0.0;   // ... and to its memory being further than before the move
    // Accounting
    SimTime user_ns = 0;
    SimTime sys_ns = 0;
    SimTime idle_ns = 0;
    bool need_resched = false;     // a wakeup preempts the running task when it returns from the kernel
    std::vector<TaskId> wake_list; // queued remote wakeups awaiting the IPI
    // When the TLB-shootdown IPIs already sent to this PU will all have been
    // handled: a PU runs one interrupt handler at a time, so a shootdown
    // sent while others are pending is acknowledged after them
    // (PolicyActions::shootdown).
    double shootdowns_done_ns = 0.0;
    RqLock lock;
    int nr_running() const { return (current >= 0 ? 1 : 0) + static_cast<int>(queue.size()); }
};

struct CacheShare {
    TaskId task;
    double bytes;
    // In a cache shared by several PUs: the lines the task brought in since
    // the cache's shares were last settled (MemoryModel::settle_shared_caches),
    // not yet in `bytes`.
    double pending = 0;
};

// Aligned, with what warming a cache reads (shares, presence bits, used and
// capacity) in its first cache line: each event warms three or so of the
// hundreds of caches of a big machine, and at 80 bytes unaligned most of
// them straddled two lines.
struct alignas(64) CacheState {
    std::vector<CacheShare> shares; // tasks that ran under it recently

private:
    std::vector<std::uint64_t> present; // bit per task id: it has a share in `shares`

public:
    double used_bytes = 0; // sum of shares, kept in step with them
    double capacity_bytes = 0;
    ObjId obj = kNoObj;
    int level = 0;
    // Above more than one PU: its tasks' inflows settle together, once a tick.
    bool shared = false;
    double latency_ns = 0;
    double used() const { return used_bytes; }
    // Index of the task's share, or -1. `hint` is where it was last time:
    // right almost always, so the lookup rarely scans. A task with no share
    // here (most lookups in a small cache that the tasks running under it
    // keep emptying) is answered from the presence bits without a scan.
    // The scan reads the task ids kept apart from the bytes (`ids_`, 4 bytes
    // a share where `shares` strides 16), eight at a time: a task that
    // changes PUs every few microseconds, as in a wakeup storm, misses its
    // hint at every level and scans each cache's list.
    int find(TaskId t, int hint) const
    {
        if (hint >= 0 && hint < static_cast<int>(shares.size()) && shares[hint].task == t)
            return hint;
        if (!holds(t))
            return -1;
        const TaskId *ids = ids_.data();
        const std::size_t n = ids_.size();
        std::size_t i = 0;
        // Blocks of eight without a branch per id; the block holding t is
        // then searched one by one (ids are unique, so at most one match).
        for (; i + 8 <= n; i += 8) {
            int any = 0;
            for (std::size_t k = 0; k < 8; ++k)
                any |= static_cast<int>(ids[i + k] == t);
            if (any != 0)
                break;
        }
        for (; i < n; ++i)
            if (ids[i] == t)
                return static_cast<int>(i);
        return -1;
    }
    // Appends an empty share for a task that has none here; its index.
    int add(TaskId t)
    {
        const auto word = static_cast<std::size_t>(t) / 64;
        if (word >= present.size())
            present.resize(word + 1, 0);
        present[word] |= std::uint64_t{1} << (static_cast<unsigned>(t) % 64);
        shares.push_back(CacheShare{t, 0.0});
        ids_.push_back(t);
        return static_cast<int>(shares.size()) - 1;
    }
    // Erases the shares `pred` picks, keeping the others in order; how many.
    template <class Pred> std::size_t forget_if(Pred pred)
    {
        const std::size_t n = std::erase_if(shares, [&](const CacheShare &s) {
            if (!pred(s))
                return false;
            forget_bit(s.task);
            return true;
        });
        if (n > 0) {
            ids_.clear();
            for (const CacheShare &s : shares)
                ids_.push_back(s.task);
        }
        return n;
    }
    // Scales every other task's share by `keep`, forgets those that fall
    // below `forget_bytes` (unless lines they brought in wait to settle) and
    // recounts used_bytes, in one pass: the same
    // shares, order and sum as scaling, forget_if and recount one after the
    // other.
    void shrink_others(TaskId mine, double keep, double forget_bytes)
    {
        CacheShare *s = shares.data(), *const last = s + shares.size();
        double used = 0;
        // In place up to the first share to forget (often there is none)...
        for (; s != last; ++s) {
            if (s->task != mine) {
                s->bytes *= keep;
                if (s->bytes < forget_bytes && s->pending <= 0)
                    break;
            }
            used += s->bytes;
        }
        // ... then, from that one on, the kept shares move down over the
        // forgotten ones (*s is scaled already).
        CacheShare *out = s;
        for (bool scaled = true; s != last; ++s, scaled = false) {
            CacheShare c = *s;
            if (c.task != mine) {
                if (!scaled)
                    c.bytes *= keep;
                if (c.bytes < forget_bytes && c.pending <= 0) {
                    forget_bit(c.task);
                    continue;
                }
            }
            used += c.bytes;
            ids_[static_cast<std::size_t>(out - shares.data())] = c.task;
            *out++ = c;
        }
        shares.resize(static_cast<std::size_t>(out - shares.data()));
        ids_.resize(shares.size());
        used_bytes = used;
    }
    // The presence bits and the ids say exactly what `shares` says (the
    // invariant check's test).
    bool index_matches() const
    {
        if (ids_.size() != shares.size())
            return false;
        std::size_t bits = 0;
        for (std::uint64_t w : present)
            bits += static_cast<std::size_t>(std::popcount(w));
        if (bits != shares.size())
            return false;
        for (std::size_t i = 0; i < shares.size(); ++i)
            if (ids_[i] != shares[i].task || !holds(shares[i].task))
                return false;
        return true;
    }
    void recount()
    {
        used_bytes = 0;
        for (auto &s : shares)
            used_bytes += s.bytes;
    }

private:
    std::vector<TaskId> ids_; // shares[i].task, in the same order (find's scan)
    void forget_bit(TaskId t)
    {
        present[static_cast<std::size_t>(t) / 64] &= ~(std::uint64_t{1} << (static_cast<unsigned>(t) % 64));
    }
    bool holds(TaskId t) const
    {
        const auto word = static_cast<std::size_t>(t) / 64;
        return word < present.size() && ((present[word] >> (static_cast<unsigned>(t) % 64)) & 1u) != 0;
    }
};

// What a channel's tokens carry when they stand for messages through a
// kernel object (a socket, a pipe): cache lines the poster writes and the
// taker then reads from the poster's cache, and lines of the object itself
// that both ends write in turn. Counted on each end's dependent chain (a
// lock, then the list head it guards, then the buffer it points to), as
// ModelParams::rq_remote_enqueue_lines counts a runqueue's. All zero: the
// tokens carry nothing (a semaphore's count, a socket's free space).
struct ChannelMessage {
    std::int64_t bytes = 0;      // the message's data, copied in by the poster and out by the taker
    int poster_shared_lines = 0; // the object's lines the poster writes (locks, queue head, wait-queue head)
    int taker_shared_lines = 0;  // the object's lines the taker writes (the queue head it unlinks from)
    int taker_poster_lines = 0;  // the poster's lines the taker reads or writes besides the data
    bool any() const
    {
        return bytes > 0 || poster_shared_lines > 0 || taker_shared_lines > 0 || taker_poster_lines > 0;
    }
};

struct Channel {
    std::int64_t tokens = 0;
    std::deque<TaskId> waiters; // FIFO
    ChannelMessage message = {};
    std::deque<int> token_cpus = {}; // with a message: the PU each queued token was posted from, FIFO
    int last_cpu = -1;               // with a message: the PU that last wrote the object's shared lines
};

// A post whose waiters are woken in turn: the waiters it took off the
// channel, the next to wake, the PU doing it and the task that posted.
struct PendingPost {
    bool busy = false; // a free slot is reused by the next post
    std::vector<TaskId> waiters;
    std::size_t next = 0;
    int waker_cpu = -1;
    TaskId poster = -1;
};

} // namespace schedscope
