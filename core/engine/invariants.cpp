#include "engine/invariants.h"

#include "engine/simulation.h"

#include <algorithm>
#include <cmath>

namespace schedscope {

namespace {

using Problems = std::vector<std::string>;

// Each runnable or running task is on exactly one runqueue (queue, current
// or pending wake list), and nothing else is on any; each PU's time is
// accounted. Returns how many runqueues hold each task.
std::vector<int> check_runqueues(const Simulation &sim, Problems &out)
{
    const int npu = sim.topology().pu_count();
    std::vector<int> seen(sim.tasks().size(), 0);
    for (int c = 0; c < npu; ++c) {
        const Runqueue &rq = sim.rq(c);
        auto note = [&](TaskId t, const char *where) {
            if (t < 0 || t >= static_cast<TaskId>(seen.size())) {
                out.push_back("CPU " + std::to_string(c) + " " + where + " holds unknown task " + std::to_string(t));
                return;
            }
            ++seen[t];
            if (sim.task(t).cpu != c)
                out.push_back("task " + std::to_string(t) + " is in CPU " + std::to_string(c) + "'s " + where +
                              " but says it is on CPU " + std::to_string(sim.task(t).cpu));
        };
        if (rq.current >= 0) {
            note(rq.current, "current");
            if (sim.task(rq.current).state != TaskState::Running)
                out.push_back("task " + std::to_string(rq.current) + " is current but not running");
        }
        for (TaskId t : rq.queue) {
            note(t, "queue");
            if (sim.task(t).state != TaskState::Runnable)
                out.push_back("task " + std::to_string(t) + " is queued but not runnable");
        }
        for (TaskId t : rq.wake_list)
            note(t, "wake list");
        if (sim.nr_running(c) != rq.nr_running())
            out.push_back("CPU " + std::to_string(c) + " counts " + std::to_string(sim.nr_running(c)) +
                          " runnable tasks, its runqueue holds " + std::to_string(rq.nr_running()));
        // Time accounting: every PU's nanoseconds are user, system or idle.
        const auto total = rq.user_ns + rq.sys_ns + rq.idle_ns;
        if (total != rq.last_update_ns)
            out.push_back("CPU " + std::to_string(c) + " accounted " + std::to_string(total) + " ns of " +
                          std::to_string(rq.last_update_ns));
    }
    return seen;
}

// The counts of queued tasks, over all PUs and per node, are the queues'.
void check_queued_counts(const Simulation &sim, Problems &out)
{
    std::int64_t waiting = 0;
    std::vector<int> waiting_on_node(static_cast<size_t>(std::max(1, sim.topology().numa_count())), 0);
    for (int c = 0; c < static_cast<int>(sim.runqueues().size()); ++c) {
        const auto n = sim.runqueues()[static_cast<size_t>(c)].queue.size();
        waiting += static_cast<std::int64_t>(n);
        waiting_on_node[static_cast<size_t>(sim.node_of_pu(c))] += static_cast<int>(n);
    }
    if (waiting != sim.queued_tasks())
        out.push_back("the simulation counts " + std::to_string(sim.queued_tasks()) +
                      " queued tasks, its runqueues hold " + std::to_string(waiting));
    for (int n = 0; n < static_cast<int>(waiting_on_node.size()); ++n)
        if (waiting_on_node[static_cast<size_t>(n)] != sim.queued_on_node(n))
            out.push_back("the simulation counts " + std::to_string(sim.queued_on_node(n)) + " queued tasks on node " +
                          std::to_string(n) + ", its runqueues hold " +
                          std::to_string(waiting_on_node[static_cast<size_t>(n)]));
}

// Each task is on as many runqueues as its state says (`seen`), and runs
// its own program's ops.
void check_tasks(const Simulation &sim, const std::vector<int> &seen, Problems &out)
{
    for (const Task &t : sim.tasks()) {
        const bool queued = t.state == TaskState::Runnable || t.state == TaskState::Running;
        if (queued && seen[t.id] != 1)
            out.push_back("task " + std::to_string(t.id) + " (" + task_state_name(t.state) + ") is on " +
                          std::to_string(seen[t.id]) + " runqueues");
        if (!queued && seen[t.id] != 0)
            out.push_back("task " + std::to_string(t.id) + " (" + task_state_name(t.state) + ") is on a runqueue");
        // The ops the engine runs are the task's program (a shared copy).
        bool same_ops = t.op_count == static_cast<int>(t.program.ops.size()) && (t.op_count == 0 || t.ops);
        for (int i = 0; same_ops && i < t.op_count; ++i) {
            const Op &a = t.ops[i], &b = t.program.ops[static_cast<size_t>(i)];
            same_ops = a.kind == b.kind && a.a == b.a && a.b == b.b && a.channel == b.channel;
        }
        if (!same_ops)
            out.push_back("task " + std::to_string(t.id) + " runs ops that are not its program's");
    }
}

// Memory: every chunk is counted on exactly the node it says, within the
// nodes its process counts as used, and the armed ones as armed; the tasks
// with memory not yet placed are counted as such.
void check_chunks(const Simulation &sim, Problems &out)
{
    if (sim.started()) {
        std::int64_t unplaced = 0;
        for (const Task &t : sim.tasks())
            unplaced += t.unplaced_weight > 0 ? 1 : 0;
        if (unplaced != sim.unplaced_tasks())
            out.push_back(std::to_string(sim.unplaced_tasks()) + " tasks counted with memory not yet placed, " +
                          std::to_string(unplaced) + " are");
    }
    for (const Process &p : sim.processes()) {
        std::vector<int> count(p.chunks_on_node.size(), 0);
        for (auto n : p.chunk_node)
            if (n >= 0)
                ++count[n];
        if (count != p.chunks_on_node)
            out.push_back("process " + p.name + ": chunk counts per node disagree with chunk placement");
        for (size_t n = 0; n < p.chunks_on_node.size(); ++n)
            if (p.chunks_on_node[n] > 0 && (static_cast<int>(n) < p.nodes_lo || static_cast<int>(n) >= p.nodes_hi))
                out.push_back("process " + p.name + ": chunks on node " + std::to_string(n) +
                              ", outside the nodes it counts as used");
        int armed = 0;
        for (auto a : p.chunk_armed)
            armed += a != 0;
        if (armed != p.armed_chunks)
            out.push_back("process " + p.name + ": " + std::to_string(p.armed_chunks) + " chunks counted armed, " +
                          std::to_string(armed) + " are");
        int unfaulted = 0;
        for (size_t c = 0; c < p.chunk_unfaulted.size(); ++c)
            if (p.chunk_unfaulted[c] != 0) {
                ++unfaulted;
                if (p.chunk_node[c] == kNoNode)
                    out.push_back("process " + p.name + ": chunk " + std::to_string(c) +
                                  " owes its first write's faults but was never placed");
            }
        if (unfaulted != p.unfaulted_chunks)
            out.push_back("process " + p.name + ": " + std::to_string(p.unfaulted_chunks) +
                          " chunks counted as owing their faults, " + std::to_string(unfaulted) + " are");
    }
}

// Queueing waits are finite, never negative, none without queueing, and a
// link's is the same both ways and none from a node to itself.
void check_queue_waits(const Simulation &sim, Problems &out)
{
    const bool queueing = sim.model().queueing_max_utilisation > 0;
    const int nodes = std::max(1, sim.topology().numa_count());
    for (int a = 0; a < nodes; ++a) {
        const double q = sim.memory_queue_wait(a);
        if (!(std::isfinite(q) && q >= 0 && (queueing || q == 0)))
            out.push_back("node " + std::to_string(a) + " memory queue wait " + std::to_string(q) + " is out of range");
        for (int b = 0; b < nodes; ++b) {
            const double l = sim.link_queue_wait(a, b);
            if (!(std::isfinite(l) && l >= 0 && (queueing || l == 0)) || l != sim.link_queue_wait(b, a) ||
                (a == b && l != 0))
                out.push_back("link " + std::to_string(a) + "-" + std::to_string(b) + " queue wait " +
                              std::to_string(l) + " is out of range or not symmetric");
        }
    }
}

// A rate the memory model keeps for a PU's task is the one it would derive
// now (it is given again until something it reads changes), and so is the
// congestion a skipped update would keep; caches never hold more than they
// can, and a cache's index of its shares (the presence bits and the ids
// find() scans) says what its shares say; lines waiting to settle are only
// in shared caches, each marked for the next settle.
void check_rates_and_caches(const Simulation &sim, Problems &out)
{
    std::vector<int> pu_node(static_cast<size_t>(sim.topology().pu_count()));
    for (size_t c = 0; c < pu_node.size(); ++c)
        pu_node[c] = sim.node_of_pu(static_cast<int>(c));
    if (!sim.memory().congestion_skip_holds(sim.runqueues(), sim.tasks(), pu_node))
        out.push_back(
            "the next congestion update would be skipped, but a full one moves its figures, a PU's inputs changed "
            "unmarked, or a PU's kept demand is not the one its inputs give");
    for (int c = 0; c < sim.topology().pu_count(); ++c) {
        const TaskId t = sim.rq(c).current;
        if (t >= 0 && sim.task(t).mem_intensity > 0 && !sim.memory().kept_rate_holds(sim.task(t), c, sim.node_of_pu(c)))
            out.push_back("CPU " + std::to_string(c) + " keeps a rate for task " + std::to_string(t) +
                          " that its caches, memory and congestion no longer give");
    }
    for (size_t i = 0; i < sim.caches().size(); ++i) {
        const CacheState &c = sim.caches()[i];
        if (c.used() > c.capacity_bytes * (1 + 1e-9) + 1)
            out.push_back("a cache holds " + std::to_string(c.used()) + " bytes of " +
                          std::to_string(c.capacity_bytes));
        if (!c.index_matches())
            out.push_back("a cache's share index (presence bits, ids) differs from its shares");
        const bool pending = std::any_of(c.shares.begin(), c.shares.end(),
                                         [](const CacheShare &s) { return s.pending != 0; });
        if (pending && (!c.shared || !sim.memory().settle_marked(static_cast<int>(i))))
            out.push_back("cache " + std::to_string(i) + " holds lines waiting to settle" +
                          (c.shared ? " but is not marked for the settle" : " but is above one PU only"));
    }
}

} // namespace

std::vector<std::string> check_invariants(const Simulation &sim)
{
    Problems out;
    const std::vector<int> seen = check_runqueues(sim, out);
    check_queued_counts(sim, out);
    check_tasks(sim, seen, out);
    check_chunks(sim, out);
    check_queue_waits(sim, out);
    check_rates_and_caches(sim, out);
    return out;
}

} // namespace schedscope
