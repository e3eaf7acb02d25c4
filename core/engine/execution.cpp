// Execution: how a PU's accounting advances, how fast its running task
// progresses (the memory side is engine/memory_model.h; two busy SMT
// siblings share their core's throughput, smt_gain), and what the task's
// memory accesses touch.

#include "engine/simulation.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

namespace schedscope {

// Inline into the loops over every PU (advance_all, advance_all_on_tick):
// a call per PU per tick, with its register saves, cost about a tenth of
// the step.
[[gnu::always_inline]] inline void Simulation::advance_body(int cpu)
{
    Runqueue &rq = rqs_[cpu];
    const SimTime dt = now_ - rq.last_update_ns;
    rq.last_update_ns = now_;
    const double sys = std::min(rq.sys_debt_ns, static_cast<double>(dt));
    // Whole nanoseconds of system time; the fraction stays as debt.
    const SimTime sys_ns = floor_ns(sys);
    rq.sys_debt_ns -= static_cast<double>(sys_ns);
    rq.sys_ns += sys_ns;
    // The interrupt work among it, in whole ns (the debt's crumbs wait).
    SimTime irq_ns = 0;
    if (rq.irq_debt_ns > 0) {
        irq_ns = std::min(sys_ns, floor_ns(rq.irq_debt_ns));
        rq.irq_debt_ns -= static_cast<double>(irq_ns);
    }
    const SimTime rest = dt - sys_ns;
    if (rq.current < 0) {
        rq.idle_ns += rest;
        return;
    }
    Task &t = tasks_[rq.current];
    t.stats.sys_ns += sys_ns;
    t.stats.irq_ns += irq_ns;
    if (t.kernel || t.in_post) {
        // A kernel thread's run time is system time, and so is a task's
        // between two wakeups of its post (their costs are the debt above;
        // this is what they leave over).
        rq.sys_ns += rest;
        t.stats.sys_ns += rest;
        if (t.in_post)
            return; // no user work
    } else {
        rq.user_ns += rest;
        t.stats.user_ns += rest;
    }
    const double work = static_cast<double>(rest) * rq.rate;
    const double done = std::min(work, std::max(0.0, t.remaining_work_ns));
    t.remaining_work_ns -= work;
    if (t.program.iterations > 0)
        finite_.done_ns += done;
    if (t.mem_intensity > 0 && !t.segments.empty()) {
        const double acc = work * t.mem_intensity * rq.mem_frac;
        t.stats.accesses += acc;
        t.stats.local_accesses += acc * rq.local_share;
        window_.acc[t.proc] += acc;
        window_.local[t.proc] += acc * rq.local_share;
    }
    if (t.mig_cost.record >= 0 && (rq.refill_frac > 0 || rq.remote_frac > 0)) {
        MigrationCostState &mc = t.mig_cost;
        mc.refill_ns += static_cast<double>(rest) * rq.refill_frac;
        mc.remote_ns += static_cast<double>(rest) * rq.remote_frac;
        MigrationRecord &r = rec_->migrations[static_cast<size_t>(mc.record)];
        r.refill_stall_ns = mc.refill_ns;
        r.remote_stall_ns = mc.remote_ns;
    }
    memory_.warm(t, cpu, static_cast<double>(rest), work);
}

void Simulation::advance_cpu_to_now(int cpu) { advance_body(cpu); }

void Simulation::advance_all()
{
    for (int cpu = 0; cpu < static_cast<int>(rqs_.size()); ++cpu)
        if (now_ > rqs_[cpu].last_update_ns)
            advance_body(cpu);
}

bool Simulation::advance_all_on_tick(double tick_cost_ns)
{
    bool burst_done = false;
    for (int cpu = 0; cpu < static_cast<int>(rqs_.size()); ++cpu) {
        Runqueue &rq = rqs_[cpu];
        if (now_ > rq.last_update_ns)
            advance_body(cpu);
        if (rq.current < 0)
            continue;
        burst_done = burst_done || tasks_[rq.current].remaining_work_ns <= 0.5;
        if (tick_cost_ns > 0) {
            rq.sys_debt_ns += tick_cost_ns;
            rq.irq_debt_ns += tick_cost_ns;
        }
    }
    return burst_done;
}

void Simulation::recompute_rate(int cpu)
{
    Runqueue &rq = rqs_[cpu];
    // What the congestion update reads of the PU, as it was (bit for bit).
    const auto bits = [](double x) { return std::bit_cast<std::uint64_t>(x); };
    const std::uint64_t rate_was = bits(rq.rate), mem_frac_was = bits(rq.mem_frac);
    rq.refill_frac = rq.remote_frac = 0;
    if (rq.current < 0) {
        rq.rate = 0;
        return;
    }
    Task &t = tasks_[rq.current];
    double rate = memory_.compute_rate();
    if (t.mem_intensity > 0) {
        rate = memory_.memory_bound_rate(t, rq, cpu, pu_node_[static_cast<size_t>(cpu)]);
    } else {
        rq.mem_frac = 0;
        rq.local_share = 1;
    }
    // SMT siblings busy at the same time share the core.
    int busy = 0;
    for_core_of(cpu, [&](int s) { busy += rqs_[s].current >= 0 ? 1 : 0; });
    if (busy > 1)
        rate *= cfg_.model.smt_gain / busy;
    rq.rate = rate;
    // A running PU's rate or miss share moved: the next tick's congestion
    // update compares its inputs (an idle PU has none to compare, and
    // became idle in put_prev, which marks it).
    if (bits(rate) != rate_was || bits(rq.mem_frac) != mem_frac_was)
        memory_.demand_changed(cpu);
}

void Simulation::schedule_burst_end(int cpu)
{
    const Runqueue &rq = rqs_[cpu];
    if (rq.current < 0 || rq.rate <= 0) {
        burst_due_ns_[cpu] = -1;
        return;
    }
    // Drops the burst end scheduled, if any: the event left in the queue
    // no longer matches burst_seq_.
    auto no_burst = [&] {
        if (burst_due_ns_[cpu] >= 0)
            ++burst_seq_[cpu];
        burst_due_ns_[cpu] = -1;
    };
    const Task &t = tasks_[rq.current];
    // A task waking its post's waiters has no burst: the post's own events
    // bring it back (continue_post).
    if (t.in_post) {
        no_burst();
        return;
    }
    // The burst does not plainly outlast the tick period
    // (maybe_schedule_burst_end): the exact path.
    const double work = std::max(0.0, t.remaining_work_ns);
    // x / 1.0 is x: a task that never waits on memory skips the division.
    const double need = rq.sys_debt_ns + (rq.rate == 1.0 ? work : work / rq.rate);
    const SimTime due = now_ + std::max<SimTime>(1, ceil_ns(need));
    // Bursts that outlast this tick period are picked up by a later tick,
    // which re-derives the rate anyway: this keeps the queue free of stale events.
    if (due > next_tick_ns_) {
        no_burst();
        return;
    }
    if (burst_due_ns_[cpu] == due)
        return;
    ++burst_seq_[cpu];
    burst_due_ns_[cpu] = static_cast<double>(due);
    events_.push(due, EventType::BurstEnd, cpu, burst_seq_[cpu]);
}

void Simulation::sample_accesses(Task &t, int cpu)
{
    if (t.segments.empty() || t.mem_intensity <= 0)
        return;
    // Touches matter for first-touch placement and armed hinting faults
    // only. With no chunk armed in any process the task's own figure says
    // it, without reading its process (a cache miss per PU per tick on a
    // machine of a thousand single-task processes).
    if (t.unplaced_weight <= 0 && armed_chunks_total_ == 0 && unfaulted_chunks_total_ == 0)
        return;
    Process &p = procs_[t.proc];
    if (t.unplaced_weight <= 0 && p.armed_chunks == 0 && p.unfaulted_chunks == 0)
        return;
    double total = 0;
    for (auto &s : t.segments)
        total += s.weight;
    const int node = pu_node_[cpu];
    for (std::int64_t k = 0; k < cfg_.accesses_sampled_per_tick; ++k) {
        double r = rng_.uniform() * total;
        const AccessSegment *seg = &t.segments.back();
        for (auto &s : t.segments) {
            if (r < s.weight) {
                seg = &s;
                break;
            }
            r -= s.weight;
        }
        const int chunk = seg->chunk_begin +
                          static_cast<int>(rng_.below(static_cast<std::uint64_t>(seg->chunk_end - seg->chunk_begin)));
        if (p.chunk_node[chunk] == kNoNode) {
            int target = node;
            if (p.alloc == AllocPolicy::Interleave && !p.alloc_nodes.empty()) {
                auto nodes = p.alloc_nodes.members();
                target = nodes[static_cast<size_t>(chunk) % nodes.size()];
            } else if (p.alloc == AllocPolicy::Bind && !p.alloc_nodes.empty() && !p.alloc_nodes.test(node)) {
                target = p.alloc_nodes.first();
            }
            place_chunk(p, chunk, target);
            if (!p.faulted_in)
                charge_sys(cpu, first_touch_ns(p, chunk, node));
        } else if (p.unfaulted_chunks > 0 && p.chunk_unfaulted[static_cast<size_t>(chunk)]) {
            // Placed before the run for this first write: its faults now.
            p.chunk_unfaulted[static_cast<size_t>(chunk)] = 0;
            --p.unfaulted_chunks;
            --unfaulted_chunks_total_;
            charge_sys(cpu, first_touch_ns(p, chunk, node));
        }
        if (p.chunk_armed[chunk]) {
            p.chunk_armed[chunk] = 0;
            --p.armed_chunks;
            --armed_chunks_total_;
            ++hinting_faults_;
            charge_sys(cpu, static_cast<double>(cfg_.model.hinting_fault_ns));
            policy_->on_hinting_fault(*this, t.id, chunk, node);
        }
    }
}

// --- memory ---

double Simulation::chunk_weight(const Task &t, int chunk) const
{
    double total = 0, w = 0;
    for (auto &s : t.segments) {
        total += s.weight;
        if (chunk >= s.chunk_begin && chunk < s.chunk_end)
            w += s.weight / (s.chunk_end - s.chunk_begin);
    }
    return total > 0 ? w / total : 0.0;
}

void Simulation::move_chunk_weight(Process &p, int chunk, int from_node, int to_node)
{
    for (TaskId tid : p.tasks) {
        Task &t = tasks_[tid];
        const double w = chunk_weight(t, chunk);
        if (w <= 0)
            continue;
        ++t.placement_changes;
        // The congestion update reads a running task's placement.
        if (t.cpu >= 0)
            memory_.demand_changed(t.cpu);
        if (from_node == kNoNode) {
            const bool was_unplaced = t.unplaced_weight > 0;
            t.unplaced_weight = std::max(0.0, t.unplaced_weight - w);
            if (was_unplaced && !(t.unplaced_weight > 0))
                --unplaced_tasks_;
        } else {
            // Rounding leaves crumbs; below this a node no longer holds any of it.
            constexpr double kNoWeight = 1e-12;
            double &fw = t.node_weight[from_node];
            fw -= w;
            if (fw <= kNoWeight) {
                fw = 0;
                std::erase(t.used_nodes, from_node);
            }
        }
        if (t.node_weight[to_node] <= 0)
            t.used_nodes.push_back(to_node);
        t.node_weight[to_node] += w;
    }
}

double Simulation::first_touch_ns(const Process &p, int chunk, int here) const
{
    const ModelParams &m = cfg_.model;
    // The last chunk of a process may be only partly its memory.
    const std::int64_t begin = static_cast<std::int64_t>(chunk) * m.chunk_bytes;
    const auto bytes = static_cast<double>(std::clamp<std::int64_t>(p.memory_bytes - begin, 0, m.chunk_bytes));
    // Clearing is a stream of stores to the node the page came from, as
    // many lines in flight as any stream, so it takes as much longer as a
    // line to that node takes now against an unloaded local line: its
    // distance, and the waits of its controller and link while other
    // tasks load them (MemoryModel::access_factor; 1 for a local node
    // nobody else is using, where the measured clearing rate holds).
    const double slower = memory_.access_factor(here, p.chunk_node[static_cast<size_t>(chunk)]);
    // Counted per byte, so that a chunk smaller than a page pays its share
    // of one fault rather than a whole one per chunk.
    return bytes / static_cast<double>(m.page_bytes) * m.page_fault_ns + bytes / m.page_clear_bytes_per_ns * slower;
}

void Simulation::place_chunk(Process &p, int chunk, int node)
{
    const int from = p.chunk_node[chunk];
    if (from == node)
        return;
    if (from != kNoNode)
        --p.chunks_on_node[from];
    p.count_chunk_on(node);
    p.chunk_node[chunk] = static_cast<std::int16_t>(node);
    move_chunk_weight(p, chunk, from, node);
}

bool Simulation::migrate_chunk(ProcId proc, int chunk, int node, int by_cpu, const std::string &reason)
{
    Process &p = procs_.at(proc);
    if (chunk < 0 || chunk >= static_cast<int>(p.chunk_node.size()) || node < 0 ||
        node >= static_cast<int>(p.chunks_on_node.size()))
        return false;
    const int from = p.chunk_node[chunk];
    if (from == node || from == kNoNode)
        return false;
    // Memory bound to nodes (mbind/numactl --membind) never leaves them.
    if (p.alloc == AllocPolicy::Bind && !p.alloc_nodes.empty() && !p.alloc_nodes.test(node))
        return false;
    place_chunk(p, chunk, node);
    ++page_migrations_;
    charge_sys(by_cpu, static_cast<double>(cfg_.model.chunk_bytes) / cfg_.model.page_copy_bytes_per_ns);
    log(DecisionKind::PageMigrate, -1, from, node, reason);
    return true;
}

void Simulation::arm_chunk(ProcId proc, int chunk, int by_cpu, double scan_cost_ns)
{
    Process &p = procs_.at(proc);
    if (chunk < 0 || chunk >= static_cast<int>(p.chunk_node.size()) || p.chunk_node[chunk] == kNoNode)
        return;
    if (!p.chunk_armed[chunk]) {
        p.chunk_armed[chunk] = 1;
        ++p.armed_chunks;
        ++armed_chunks_total_;
    }
    if (scan_cost_ns < 0) {
        const double pages = static_cast<double>(cfg_.model.chunk_bytes) / static_cast<double>(cfg_.model.page_bytes);
        scan_cost_ns = pages * static_cast<double>(cfg_.model.scan_ns_per_page);
    }
    charge_sys(by_cpu, scan_cost_ns);
}

} // namespace schedscope
