// The machine model: how fast a running task progresses, how it warms the
// caches above its PU, and what its memory accesses touch.
//
// A task's progress rate (work-ns per ns) is 1 / (1 + stall), where stall is
// the time its accesses past L1 wait per ns of work: each one hits the first
// cache level above L1 that holds it (hit share = warmth / working set) or
// goes to memory, whose latency is the local latency times the SLIT distance
// / 10 of the node holding it, times that node's bandwidth congestion and,
// when remote, the congestion of the interconnect between the two nodes. Two
// busy SMT siblings share their core's throughput (smt_gain).

#include "engine/simulation.h"

#include <algorithm>
#include <cmath>

namespace schedscope {

namespace {
// Below this a share is forgotten, so the per-cache lists stay short.
constexpr double kForgetBytes = 1024.0;
// Eviction brings a full cache this far below capacity (a share of it).
constexpr double kEvictSlack = 1.0 / 32.0;
// Up to this utilisation a controller or link queues about 1 % of a line
// transfer or less: no wait.
constexpr double kQueueFreeUtilisation = 0.02;
// A queueing wait below this (in local memory latencies, ~0.1 ps) is none.
constexpr double kNoQueue = 1e-6;
} // namespace

void Simulation::advance_cpu_to_now(int cpu)
{
    Runqueue &rq = rqs_[cpu];
    const SimTime dt = now_ - rq.last_update_ns;
    rq.last_update_ns = now_;
    const double sys = std::min(rq.sys_debt_ns, static_cast<double>(dt));
    // Whole nanoseconds of system time; the fraction stays as debt.
    const SimTime sys_ns = floor_ns(sys);
    rq.sys_debt_ns -= static_cast<double>(sys_ns);
    rq.sys_ns += sys_ns;
    const SimTime rest = dt - sys_ns;
    if (rq.current < 0) {
        rq.idle_ns += rest;
        return;
    }
    Task &t = tasks_[rq.current];
    t.stats.sys_ns += sys_ns;
    rq.user_ns += rest;
    t.stats.user_ns += rest;
    const double work = static_cast<double>(rest) * rq.rate;
    const double done = std::min(work, std::max(0.0, t.remaining_work_ns));
    t.remaining_work_ns -= work;
    if (t.program.iterations > 0)
        done_finite_work_ns_ += done;
    if (t.mem_intensity > 0 && !t.segments.empty()) {
        const double acc = work * t.mem_intensity * rq.mem_frac;
        t.stats.accesses += acc;
        t.stats.local_accesses += acc * rq.local_share;
        window_acc_[t.proc] += acc;
        window_local_[t.proc] += acc * rq.local_share;
    }
    if (t.mig_cost.record >= 0 && (rq.refill_frac > 0 || rq.remote_frac > 0)) {
        MigrationCostState &mc = t.mig_cost;
        mc.refill_ns += static_cast<double>(rest) * rq.refill_frac;
        mc.remote_ns += static_cast<double>(rest) * rq.remote_frac;
        MigrationRecord &r = rec_->migrations[static_cast<size_t>(mc.record)];
        r.refill_stall_ns = mc.refill_ns;
        r.remote_stall_ns = mc.remote_ns;
    }
    warm_caches(t, cpu, static_cast<double>(rest), work);
}

void Simulation::advance_all()
{
    for (int cpu = 0; cpu < static_cast<int>(rqs_.size()); ++cpu)
        advance_cpu(cpu);
}

void Simulation::warm_caches(Task &t, int cpu, double user_ns, double work_ns)
{
    // No time run, nothing brought in (a CPU brought up to date twice at
    // the same instant, as a storm does all the time).
    if (t.working_set_bytes <= 0 || user_ns <= 0)
        return;
    const double line = cfg_.model.cache_line_bytes;
    const double fill_cap = cfg_.model.cache_fill_bytes_per_ns * user_ns;
    // Past-L1 accesses miss a level in proportion to what it does not hold;
    // each miss brings a line in. L1 itself is warmed at the same pace.
    const double accesses = work_ns * std::max(t.mem_intensity, 1e-3);
    for (const PuCache &pc : pu_caches(cpu)) {
        CacheState &c = caches_[static_cast<size_t>(pc.cache)];
        int &hint = t.cache_slot[static_cast<size_t>(pc.level)];
        int slot = c.find(t.id, hint);
        if (slot < 0)
            slot = c.add(t.id);
        hint = slot;
        CacheShare &mine = c.shares[slot];
        const double target = std::min(t.working_set_bytes, c.capacity_bytes);
        if (mine.bytes >= target)
            continue;
        // A share just added holds nothing: its hit share is 0 without the
        // division (most L1 lookups in a storm), which then leaves the
        // chain of dependent operations that ends in the eviction test.
        const double hit = mine.bytes > 0 ? std::min(1.0, mine.bytes / t.working_set_bytes) : 0.0;
        const double in = std::min(fill_cap, accesses * (1.0 - hit) * line);
        const double added = std::min(in, target - mine.bytes);
        mine.bytes += added;
        c.used_bytes += added;
        if (c.used_bytes <= c.capacity_bytes)
            continue;
        // What does not fit is evicted from the other tasks' shares, in
        // proportion. Evicting a little below capacity makes this pass
        // (linear in the shares) happen once per few percent of refill
        // instead of on every update.
        const double mine_bytes = mine.bytes;
        const double others = c.used_bytes - mine_bytes;
        if (others <= 0)
            continue;
        const double goal = std::max(mine_bytes, c.capacity_bytes * (1.0 - kEvictSlack));
        const double keep = std::max(0.0, 1.0 - (c.used_bytes - goal) / others);
        c.shrink_others(t.id, keep, kForgetBytes);
    }
}

double Simulation::cache_latency_ns(const Task &t, int cpu, double *covered_out) const
{
    // Hit shares are cumulative outwards; L1 is skipped when the PU has one,
    // since mem_intensity counts the accesses that already missed it.
    double covered = 0, lat = 0;
    const auto pcs = pu_caches(cpu);
    const bool has_l1 = !pcs.empty() && pcs.front().level == 1;
    for (size_t i = has_l1 ? 1 : 0; i < pcs.size(); ++i) {
        const CacheState &c = caches_[static_cast<size_t>(pcs[i].cache)];
        const int slot = c.find(t.id, t.cache_slot[static_cast<size_t>(pcs[i].level)]);
        const double held = slot >= 0 ? c.shares[slot].bytes : 0.0;
        double hit = t.working_set_bytes > 0 ? std::min(1.0, held / t.working_set_bytes) : 1.0;
        hit = std::max(hit, covered);
        lat += (hit - covered) * c.latency_ns;
        covered = hit;
    }
    *covered_out = covered;
    return lat;
}

void Simulation::recompute_rate(int cpu)
{
    Runqueue &rq = rqs_[cpu];
    rq.refill_frac = rq.remote_frac = 0;
    if (rq.current < 0) {
        rq.rate = 0;
        return;
    }
    Task &t = tasks_[rq.current];
    double rate = 1.0;
    if (t.mem_intensity > 0) {
        rate = memory_bound_rate(t, rq, cpu);
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
}

double Simulation::memory_bound_rate(Task &t, Runqueue &rq, int cpu)
{
    double covered = 0;
    const double cache_lat = cache_latency_ns(t, cpu, &covered);
    const double miss = 1.0 - covered;
    // Memory latency, weighted over the nodes holding what it touches.
    const int here = pu_node_[cpu];
    const double *link = link_row(here);
    const double *lq = link_queue_row(here);
    double mem = 0, weight = 0;
    for (int n : t.used_nodes) {
        const double d = topo_->node_distance(here, n) / 10.0;
        mem += t.node_weight[n] * d * node_congestion_[n] * link[n] + t.node_weight[n] * (node_queue_[n] + lq[n]);
        weight += t.node_weight[n];
    }
    // Untouched memory will be placed locally by first touch.
    const double local_factor = node_congestion_[here] + node_queue_[here];
    mem += t.unplaced_weight * node_congestion_[here] + t.unplaced_weight * node_queue_[here];
    weight += t.unplaced_weight;
    const double mem_factor = weight > 0 ? mem / weight : local_factor;
    const double local = weight > 0 ? (t.node_weight[here] + t.unplaced_weight) / weight : 1.0;
    const double lat = cache_lat + miss * cfg_.model.mem_latency_local_ns * mem_factor;
    const double rate = 1.0 / (1.0 + t.mem_intensity * lat);
    if (t.mig_cost.record >= 0)
        price_migration(t, rq, cpu, cache_lat, miss, mem_factor, lat);
    rq.mem_frac = miss;
    rq.local_share = local;
    return rate;
}

void Simulation::open_migration_cost(Task &t, int from_cpu, int to_cpu, std::int64_t record)
{
    MigrationCostState &mc = t.mig_cost;
    mc = MigrationCostState{};
    if (t.mem_intensity <= 0 || record < 0)
        return; // it never waits on memory, so no move can slow it; or no record to bill
    double covered = 0;
    mc.ref_cache_lat_ns = cache_latency_ns(t, from_cpu, &covered);
    mc.ref_miss = 1.0 - covered;
    mc.from_node = pu_node_[from_cpu];
    mc.record = record;
    mc.refill_open = true;
    mc.remote_open = pu_node_[to_cpu] != mc.from_node;
}

void Simulation::price_migration(Task &t, Runqueue &rq, int cpu, double cache_lat, double miss, double mem_factor,
                                 double lat)
{
    // Latency differences this small are rounding, not a cost still being paid.
    constexpr double kSettledLatencyNs = 1e-9;
    MigrationCostState &mc = t.mig_cost;
    const double mem_lat = cfg_.model.mem_latency_local_ns;
    // The memory factor seen from the node it left, over today's placement;
    // untouched memory would be placed locally wherever it runs.
    double from_factor = mem_factor;
    if (mc.remote_open) {
        const int here = pu_node_[cpu];
        const double *link = link_row(mc.from_node);
        const double *lq = link_queue_row(mc.from_node);
        double mem = t.unplaced_weight * node_congestion_[here] + t.unplaced_weight * node_queue_[here];
        double weight = t.unplaced_weight;
        for (int n : t.used_nodes) {
            mem += t.node_weight[n] * topo_->node_distance(mc.from_node, n) / 10.0 * node_congestion_[n] * link[n] +
                   t.node_weight[n] * (node_queue_[n] + lq[n]);
            weight += t.node_weight[n];
        }
        if (weight > 0)
            from_factor = mem / weight;
        // Memory followed it (or it is back on that node): the penalty is over.
        if (mem_factor <= from_factor + kSettledLatencyNs)
            mc.remote_open = false;
    }
    // Split so that the parts add up to now minus before: first remove the
    // remote part at today's cache warmth, then the cold-cache part.
    const double remote = mc.remote_open ? miss * mem_lat * (mem_factor - from_factor) : 0.0;
    double refill = 0;
    if (mc.refill_open) {
        refill = cache_lat - mc.ref_cache_lat_ns + (miss - mc.ref_miss) * mem_lat * from_factor;
        if (refill <= kSettledLatencyNs) {
            mc.refill_open = false;
            refill = 0;
        }
    }
    if (!mc.refill_open && !mc.remote_open) {
        mc.record = -1;
        return;
    }
    const double per_lat = t.mem_intensity / (1.0 + t.mem_intensity * lat);
    rq.refill_frac = refill * per_lat;
    rq.remote_frac = std::max(0.0, remote) * per_lat;
}

void Simulation::update_congestion()
{
    // Bytes per ns each node is asked for at the current rates. Each node's
    // latency multiplier moves towards demand/bandwidth by a damped step, so
    // demand settles at the bandwidth where a node is saturated. Remote
    // traffic is also demand on the link between the two nodes, priced the
    // same way against its bandwidth.
    const size_t nn = node_congestion_.size();
    const int npu = static_cast<int>(rqs_.size());
    // One allocation: per node demand and remote traffic sent, per PU bytes
    // per unit of node weight.
    std::vector<double> scratch(2 * nn + static_cast<size_t>(npu), 0.0);
    double *demand = scratch.data(), *remote_out = demand + nn, *per_weight = remote_out + nn;
    const double line = cfg_.model.cache_line_bytes;
    for (int cpu = 0; cpu < npu; ++cpu) {
        const Runqueue &rq = rqs_[cpu];
        if (rq.current < 0 || rq.mem_frac <= 0)
            continue;
        const Task &t = tasks_[rq.current];
        const double bytes_per_ns = rq.rate * t.mem_intensity * rq.mem_frac * line;
        double total = t.unplaced_weight;
        for (int n : t.used_nodes)
            total += t.node_weight[n];
        if (total <= 0)
            continue;
        const int here = pu_node_[cpu];
        const double scale = per_weight[cpu] = bytes_per_ns / total;
        for (int n : t.used_nodes)
            demand[n] += scale * t.node_weight[n];
        demand[here] += scale * t.unplaced_weight;
        remote_out[here] += scale * (total - t.unplaced_weight - t.node_weight[here]);
    }
    // Below saturation each line also waits in the queue of the controller
    // or link: M/D/1, u / (2 (1 - u)) transfer times at utilisation u, in
    // local memory latencies. Past queueing_max_utilisation the wait goes
    // on rising along the curve's tangent there, finite at and beyond
    // saturation (where the multipliers above bound the demand as well).
    // Under kQueueFreeUtilisation the wait is about 1 % of a transfer or
    // less and counts as none; the wait moves halfway to its target each
    // update, since it slows the demand it is computed from.
    const double qmax = cfg_.model.queueing_max_utilisation;
    const double lat0 = cfg_.model.mem_latency_local_ns;
    const auto queue_wait = [qmax, lat0](double u, double transfer_ns) {
        if (qmax <= 0 || u <= kQueueFreeUtilisation)
            return 0.0;
        const double transfers = u <= qmax ? u / (2 * (1 - u))
                                           : qmax / (2 * (1 - qmax)) + (u - qmax) / (2 * (1 - qmax) * (1 - qmax));
        return transfer_ns * transfers / lat0;
    };
    const auto settle = [](double before, double target) {
        const double q = 0.5 * (before + target);
        return q < kNoQueue ? 0.0 : q;
    };
    const double bw = cfg_.model.mem_bandwidth_bytes_per_ns;
    for (size_t n = 0; n < nn; ++n) {
        const double ratio = std::max(demand[n], 1e-9) / bw;
        node_congestion_[n] = std::max(1.0, node_congestion_[n] * std::sqrt(ratio));
        node_queue_[n] = settle(node_queue_[n], queue_wait(ratio, line / bw));
    }
    // A pair carries at most what both its ends send out: while that is
    // below the narrowest route (or, with queueing, a route's queue-free
    // load) and no link is congested or queued, the per-pair account (as
    // long as the loop above) can be skipped.
    const double max_out = *std::max_element(remote_out, remote_out + nn);
    const double room = qmax > 0 ? kQueueFreeUtilisation : 1.0;
    if (link_active_.empty() && 2 * max_out * max_link_hops_ <= room * cfg_.model.link_bandwidth_bytes_per_ns)
        return;
    if (link_demand_.size() != nn * nn)
        link_demand_.assign(nn * nn, 0.0); // scratch, left out of copies
    for (int cpu = 0; cpu < npu; ++cpu) {
        if (per_weight[cpu] <= 0)
            continue;
        const Task &t = tasks_[rqs_[cpu].current];
        const int here = pu_node_[cpu];
        for (int n : t.used_nodes) {
            const double b = per_weight[cpu] * t.node_weight[n];
            if (n == here || !(b > 0))
                continue;
            const size_t pair = static_cast<size_t>(std::min(here, n)) * nn + static_cast<size_t>(std::max(here, n));
            if (link_demand_[pair] == 0 && (link_congestion_.empty() || link_congestion_[pair] == 1.0) &&
                (link_queue_.empty() || link_queue_[pair] == 0.0))
                link_active_.push_back(static_cast<int>(pair));
            link_demand_[pair] += b;
        }
    }
    // A route of SLIT distance d crosses about (d - 10) / 10 links and gets
    // that share of one link's bandwidth (a crude stand-in for routing).
    const double per_link_bw = 1.0 / cfg_.model.link_bandwidth_bytes_per_ns;
    std::erase_if(link_active_, [&](int pair) {
        const int a = pair / static_cast<int>(nn), b = pair % static_cast<int>(nn);
        const double hops = link_hops(a, b);
        const double ratio = std::max(link_demand_[pair], 1e-9) * hops * per_link_bw;
        link_demand_[pair] = 0;
        const size_t mirror = static_cast<size_t>(b) * nn + static_cast<size_t>(a);
        const double qbefore = link_queue_.empty() ? 0.0 : link_queue_[pair];
        const double q = settle(qbefore, queue_wait(ratio, line * hops * per_link_bw));
        if (q != qbefore) {
            // Allocated when a first link queues, as the multipliers below.
            if (link_queue_.empty())
                link_queue_.assign(nn * nn, 0.0);
            link_queue_[pair] = link_queue_[mirror] = q;
        }
        const double before = link_congestion_.empty() ? 1.0 : link_congestion_[pair];
        if (before == 1.0 && ratio <= 1.0)
            return q == 0.0; // the common case: a link with room to spare
        const double c = std::max(1.0, before * std::sqrt(ratio));
        if (c == before)
            return c == 1.0 && q == 0.0;
        // Allocated when a first link saturates: a 512-node machine's matrix
        // is 2 MiB, which every checkpoint would otherwise copy.
        if (link_congestion_.empty())
            link_congestion_.assign(nn * nn, 1.0);
        link_congestion_[pair] = link_congestion_[mirror] = c;
        return c == 1.0 && q == 0.0;
    });
}

double Simulation::link_hops(int a, int b) const { return std::max(1.0, (topo_->node_distance(a, b) - 10) / 10.0); }

void Simulation::maybe_schedule_burst_end(int cpu)
{
    const Runqueue &rq = rqs_[cpu];
    if (rq.current < 0 || rq.rate <= 0) {
        burst_due_ns_[cpu] = -1;
        return;
    }
    const Task &t = tasks_[rq.current];
    // x / 1.0 is x: a task that never waits on memory skips the division.
    const double work = std::max(0.0, t.remaining_work_ns);
    const double need = rq.sys_debt_ns + (rq.rate == 1.0 ? work : work / rq.rate);
    const SimTime due = now_ + std::max<SimTime>(1, ceil_ns(need));
    // Bursts that outlast this tick period are picked up by a later tick,
    // which re-derives the rate anyway: this keeps the queue free of stale events.
    if (due > next_tick_ns_) {
        if (burst_due_ns_[cpu] >= 0)
            ++burst_seq_[cpu];
        burst_due_ns_[cpu] = -1;
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
    Process &p = procs_[t.proc];
    // Touches matter for first-touch placement and armed hinting faults only.
    if (t.unplaced_weight <= 0 && p.armed_chunks == 0)
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
        }
        if (p.chunk_armed[chunk]) {
            p.chunk_armed[chunk] = 0;
            --p.armed_chunks;
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
        if (from_node == kNoNode) {
            t.unplaced_weight = std::max(0.0, t.unplaced_weight - w);
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

void Simulation::place_chunk(Process &p, int chunk, int node)
{
    const int from = p.chunk_node[chunk];
    if (from == node)
        return;
    if (from != kNoNode)
        --p.chunks_on_node[from];
    ++p.chunks_on_node[node];
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
    }
    if (scan_cost_ns < 0) {
        const double pages = static_cast<double>(cfg_.model.chunk_bytes) / static_cast<double>(cfg_.model.page_bytes);
        scan_cost_ns = pages * static_cast<double>(cfg_.model.scan_ns_per_page);
    }
    charge_sys(by_cpu, scan_cost_ns);
}

} // namespace schedscope
