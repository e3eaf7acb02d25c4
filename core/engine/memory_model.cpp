// The memory model: cache warming, the latency of accesses past L1, node and
// link congestion with queueing, and the pricing of a migrated task's costs.

#include "engine/memory_model.h"

#include <algorithm>
#include <bit>
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
// A congestion multiplier or queueing wait that would move by less than
// this share of itself stays where it is. A numerical tolerance, not a
// figure of any machine: the damped steps below approach their target
// geometrically, and rounding and the demand's own small movements then
// keep them moving by parts per million to parts per billion on every
// tick, which re-derived every rate of the machine each tick. Held, a
// steady state stays steady and its rates are kept (memory_bound_rate);
// the results move by parts per million (golden outputs, issue 36). The
// same tolerance holds a shared cache's share whose task's hit share would
// move by less (settle_shared_caches).
constexpr double kSettledShare = 1e-6;
} // namespace

MemoryModel::MemoryModel(std::shared_ptr<const Topology> topo, const ModelParams &model)
    : topo_(std::move(topo)), model_(model)
{
    const int npu = topo_->pu_count();
    const int nnode = std::max(1, topo_->numa_count());
    cong_.node.assign(nnode, 1.0);
    cong_.node_queue.assign(nnode, 0.0);
    zero_row_.assign(nnode, 0.0);
    unit_row_.assign(nnode, 1.0);
    int nearest_remote = 0, farthest = kSlitLocalDistance;
    for (int a = 0; a < topo_->numa_count(); ++a)
        for (int b = 0; b < topo_->numa_count(); ++b) {
            max_link_hops_ = std::max(max_link_hops_, link_hops(a, b));
            const int d = topo_->node_distance(a, b);
            farthest = std::max(farthest, d);
            if (a != b && (nearest_remote == 0 || d < nearest_remote))
                nearest_remote = d;
        }
    lat_ratio_by_slit_.resize(static_cast<size_t>(farthest) + 1);
    for (int d = 0; d <= farthest; ++d)
        lat_ratio_by_slit_[static_cast<size_t>(d)] = model.latency_ratio(d, nearest_remote);
    compute_per_work_ = model.compute_ns_per_work_ns();
    compute_rate_ = compute_per_work_ == 1.0 ? 1.0 : 1.0 / compute_per_work_;
    per_in_flight_ = 1.0 / model.mem_misses_in_flight;
    link_wire_ = link_wire_bytes_per_line(model);

    auto latency_of = [&](int level) {
        return level == 1 ? model.l1_latency_ns : level == 2 ? model.l2_latency_ns : model.l3_latency_ns;
    };
    std::vector<int> cache_index(topo_->objects().size(), -1);
    for (const auto &o : topo_->objects()) {
        if (!is_cache(o.type))
            continue;
        CacheState c;
        c.obj = o.id;
        c.level = cache_level(o.type);
        c.capacity_bytes = o.cache_size_bytes > 0 ? static_cast<double>(o.cache_size_bytes)
                                                  : model.default_cache_size_bytes;
        c.latency_ns = latency_of(c.level);
        cache_index[o.id] = static_cast<int>(caches_.size());
        caches_.push_back(std::move(c));
    }
    pu_cache_first_.assign(static_cast<size_t>(npu) + 1, 0);
    for (int p = 0; p < npu; ++p) {
        pu_cache_first_[static_cast<size_t>(p)] = static_cast<int>(pu_cache_list_.size());
        for (ObjId c : topo_->caches_of_pu(p))
            pu_cache_list_.push_back(PuCache{cache_index[c], caches_[static_cast<size_t>(cache_index[c])].level});
        if (pu_cache_list_.size() == static_cast<size_t>(pu_cache_first_[static_cast<size_t>(p)])) {
            CacheState c;
            c.level = 2;
            c.capacity_bytes = model.default_cache_size_bytes;
            c.latency_ns = model.l2_latency_ns;
            pu_cache_list_.push_back(PuCache{static_cast<int>(caches_.size()), c.level});
            caches_.push_back(std::move(c));
        }
    }
    pu_cache_first_[static_cast<size_t>(npu)] = static_cast<int>(pu_cache_list_.size());
    pu_cache_changes_.assign(static_cast<size_t>(npu), 0);
    // The inverse of the PUs' cache lists, in PU order.
    cache_pu_first_.assign(caches_.size() + 1, 0);
    for (const PuCache &pc : pu_cache_list_)
        ++cache_pu_first_[static_cast<size_t>(pc.cache) + 1];
    for (size_t c = 0; c < caches_.size(); ++c)
        cache_pu_first_[c + 1] += cache_pu_first_[c];
    cache_pu_list_.assign(pu_cache_list_.size(), 0);
    std::vector<int> fill(cache_pu_first_.begin(), cache_pu_first_.end() - 1);
    for (int p = 0; p < npu; ++p)
        for (const PuCache &pc : pu_caches(p))
            cache_pu_list_[static_cast<size_t>(fill[static_cast<size_t>(pc.cache)]++)] = p;
    kept_rate_.assign(static_cast<size_t>(npu), KeptRate{});
    demand_marked_.assign(static_cast<size_t>(npu), 0);
    warm_kept_.assign(static_cast<size_t>(npu), WarmKept{});
    for (size_t c = 0; c < caches_.size(); ++c)
        caches_[c].shared = cache_pu_first_[c + 1] - cache_pu_first_[c] > 1;
    settle_marked_.assign(caches_.size(), 0);
}

// --- caches ---

double MemoryModel::warmth_on(TaskId t, int cpu, int level) const
{
    for (const PuCache &pc : pu_caches(cpu)) {
        const CacheState &c = caches_[static_cast<size_t>(pc.cache)];
        if (c.level != level)
            continue;
        for (auto &s : c.shares)
            if (s.task == t)
                return s.bytes;
    }
    return 0;
}

void MemoryModel::forget_task(TaskId tid)
{
    for (size_t i = 0; i < caches_.size(); ++i)
        if (caches_[i].forget_if([&](const CacheShare &s) { return s.task == tid; }) > 0) {
            caches_[i].recount();
            cache_changed(static_cast<int>(i));
        }
}

void MemoryModel::warm_caches(Task &t, int cpu, double user_ns, double work_ns)
{
    WarmKept &kept = warm_kept_[static_cast<size_t>(cpu)];
    if (t.stray_share > 0)
        cool_by_stray_lines(t, cpu, user_ns, work_ns);
    bool all_full = true;
    const double line = model_.cache_line_bytes;
    const double fill_cap = model_.cache_fill_bytes_per_ns * user_ns;
    // Past-L1 accesses miss a level in proportion to what it does not hold;
    // each miss brings a line in. L1 itself is warmed at the same pace.
    const double accesses = work_ns * std::max(t.mem_intensity, 1e-3);
    for (const PuCache &pc : pu_caches(cpu)) {
        CacheState &c = caches_[static_cast<size_t>(pc.cache)];
        int &hint = t.cache_slot[static_cast<size_t>(pc.level)];
        int slot = c.find(t.id, hint);
        if (slot < 0) {
            slot = c.add(t.id);
            cache_changed(pc.cache);
        }
        hint = slot;
        CacheShare &mine = c.shares[slot];
        const double target = std::min(t.working_set_bytes, c.capacity_bytes);
        if (mine.bytes >= target)
            continue;
        all_full = false;
        // A share just added holds nothing: its hit share is 0 without the
        // division (most L1 lookups in a storm), which then leaves the
        // chain of dependent operations that ends in the eviction test.
        const double hit = mine.bytes > 0 ? std::min(1.0, mine.bytes / t.working_set_bytes) : 0.0;
        const double in = std::min(fill_cap, accesses * (1.0 - hit) * line);
        if (c.shared) {
            // A cache above several PUs: the lines wait, and every task's
            // settle together at the tick (settle_shared_caches), whatever
            // order the PUs were brought up to date in. Misses are counted
            // against the share as last settled; a task streaming through
            // more than the cache brings in more than it can hold, and the
            // settle keeps its share within its working set and the cache.
            if (in > 0) {
                mine.pending += in;
                mark_settle(pc.cache);
            }
            continue;
        }
        // Its share grows below, and others' may shrink.
        cache_changed(pc.cache);
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
    // Nothing changed in this pass (no share added or grown, no stray lines):
    // the same pass is a no-op until one of these caches changes.
    if (all_full && t.stray_share <= 0)
        kept = WarmKept{t.id, cache_changes_above(cpu)};
    else
        kept.task = -1;
}

void MemoryModel::settle_shared_caches(std::span<const Task> tasks)
{
    const double line = model_.cache_line_bytes;
    std::size_t carried = 0;
    for (const int ci : settle_list_) {
        CacheState &c = caches_[static_cast<std::size_t>(ci)];
        double in = 0;
        for (const CacheShare &s : c.shares)
            in += s.pending;
        if (in <= 0) {
            settle_marked_[static_cast<std::size_t>(ci)] = 0;
            continue;
        }
        // The inflows first fill the room the cache has; what comes in past
        // that replaces resident lines at random, each task's as often as it
        // holds lines. Over an interval in which the tasks bring lines in at
        // steady rates r_i (R in all), a share s goes to
        //   s e^(-R T / C) + (r_i C / R) (1 - e^(-R T / C)),
        // and r_i T is the task's inflow past the room: the shares move
        // towards the tasks' shares of the inflow, C r_i / R, whatever order
        // the inflows came in.
        const double cap = c.capacity_bytes;
        const double room = std::max(0.0, cap - c.used_bytes);
        const double over = in - room;
        const double fill = over > 0 ? room / in : 1.0;
        const double keep = over > 0 ? std::exp(-over / cap) : 1.0;
        const double gain = over > 0 ? cap / in * (1.0 - keep) : 0.0;
        // A share moves when it gains or loses a line, and its task's hit
        // share (bytes over working set, what the rates read) a part in a
        // million (kSettledShare): a streaming task's inflow moves by
        // the tick's system time, and with it, by a few lines out of
        // gigabytes, the point its share goes to.
        const auto settled = [&](const CacheShare &s, double ws) {
            const double b = (s.bytes + s.pending * fill) * keep + s.pending * gain;
            return s.pending > 0 ? std::min(b, std::min(ws, cap)) : b;
        };
        bool moved = false;
        for (const CacheShare &s : c.shares) {
            const double ws = tasks[static_cast<std::size_t>(s.task)].working_set_bytes;
            const double b = settled(s, ws);
            const double d = std::abs(b - s.bytes);
            if ((d >= line && d >= kSettledShare * ws) || (b < kForgetBytes && s.pending <= 0)) {
                moved = true;
                break;
            }
        }
        if (!moved) {
            // Every share where it was, to a line or a part in a million of
            // its task's working set: a steady state (the shares at the
            // inflows' shares) or a slow drift. Nothing changes; the inflow
            // waits for the next settle unless it came to the cache's whole
            // size already, when the shares are at the point this mix of
            // inflows leads to.
            if (in < cap) {
                settle_list_[carried++] = ci;
                continue;
            }
            for (CacheShare &s : c.shares)
                s.pending = 0;
            settle_marked_[static_cast<std::size_t>(ci)] = 0;
            continue;
        }
        for (CacheShare &s : c.shares)
            s.bytes = settled(s, tasks[static_cast<std::size_t>(s.task)].working_set_bytes);
        // Forgotten: shares under kForgetBytes of tasks that brought nothing in.
        c.forget_if([](const CacheShare &s) { return s.bytes < kForgetBytes && s.pending <= 0; });
        for (CacheShare &s : c.shares)
            s.pending = 0;
        c.recount();
        cache_changed(ci);
        settle_marked_[static_cast<std::size_t>(ci)] = 0;
    }
    settle_list_.resize(carried);
}

void MemoryModel::cool_by_stray_lines(const Task &t, int cpu, double user_ns, double work_ns)
{
    // Stray accesses miss every level (their data dwarfs any cache) and each
    // brings a line in. In a full cache the line it replaces is, at random,
    // one of another task's with the chance that task's share of the cache:
    // a share of s bytes loses s x in / capacity for `in` bytes brought in,
    // exp(-in / capacity) of itself over a run of them. The running task
    // touches its own set all the while and keeps it; its stray lines are
    // not reused and yield their room to the next lines anyone brings in.
    const double in_bytes = std::min(model_.cache_fill_bytes_per_ns * user_ns,
                                     work_ns * t.mem_intensity * t.stray_share * model_.cache_line_bytes);
    if (in_bytes <= 0)
        return;
    for (const PuCache &pc : pu_caches(cpu)) {
        CacheState &c = caches_[static_cast<size_t>(pc.cache)];
        if (c.capacity_bytes <= 0 || c.used_bytes <= 0)
            continue;
        c.shrink_others(t.id, std::exp(-in_bytes / c.capacity_bytes), kForgetBytes);
        cache_changed(pc.cache);
    }
}

double MemoryModel::cache_latency_ns(const Task &t, int cpu, double *covered_out) const
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
        // Stray accesses (Task::stray_share) miss every level.
        double hit = (t.working_set_bytes > 0 ? std::min(1.0, held / t.working_set_bytes) : 1.0) *
                     (1.0 - t.stray_share);
        hit = std::max(hit, covered);
        lat += (hit - covered) * c.latency_ns;
        covered = hit;
    }
    *covered_out = covered;
    return lat;
}

// --- rates ---

// Inline into derive_rate: the parts then stay in registers.
[[gnu::always_inline]] inline MemoryModel::RateParts MemoryModel::rate_parts(const Task &t, int cpu, int here) const
{
    RateParts r{};
    double covered = 0;
    r.cache_lat = cache_latency_ns(t, cpu, &covered);
    r.miss = 1.0 - covered;
    // Memory latency, weighted over the nodes holding what it touches.
    double mem = 0, weight = 0;
    for (int n : t.used_nodes) {
        mem += t.node_weight[n] * access_factor(here, n);
        weight += t.node_weight[n];
    }
    // Untouched memory will be placed locally by first touch.
    const double local_factor = access_factor(here, here);
    mem += t.unplaced_weight * local_factor;
    weight += t.unplaced_weight;
    r.mem_factor = weight > 0 ? mem / weight : local_factor;
    r.local = weight > 0 ? (t.weight_on(here) + t.unplaced_weight) / weight : 1.0;
    r.lat = r.cache_lat + r.miss * model_.mem_latency_local_ns * r.mem_factor;
    r.rate = 1.0 / (compute_per_work_ + t.mem_intensity * overlap(t) * r.lat);
    return r;
}

double MemoryModel::derive_rate(Task &t, Runqueue &rq, int cpu, int here)
{
    KeptRate &kept = kept_rate_[static_cast<size_t>(cpu)];
    // Memory spread over nodes is derived every time. Nor is a rate kept
    // where congestion moved since this PU's last derivation: while a
    // saturated node's congestion settles it moves on every tick, and every
    // rate with it, so keeping them would only cost.
    const bool keepable_here = t.used_nodes.size() <= 1 && kept.congestion == cong_.changes;
    const RateParts r = rate_parts(t, cpu, here);
    if (t.mig_cost.record >= 0)
        price_migration(t, rq, here, r.cache_lat, r.miss, r.mem_factor, r.lat);
    rq.mem_frac = r.miss;
    rq.local_share = r.local;
    // A move whose caches are still refilling is derived every time: its
    // reference warmth is compared with today's (price_migration). Once
    // that phase is over, price_migration gives the same again from the
    // same inputs and the same move (both in what is kept).
    kept.congestion = cong_.changes;
    if (!keepable_here || t.mig_cost.refill_open) {
        kept.task = -1; // matches no task
    } else {
        kept.task = t.id;
        kept.move = t.mig_cost.record;
        kept.stamp = rate_stamp(t, cpu);
        kept.rate = r.rate;
        kept.mem_frac = r.miss;
        kept.local_share = r.local;
        kept.refill_frac = rq.refill_frac;
        kept.remote_frac = rq.remote_frac;
    }
    return r.rate;
}

bool MemoryModel::kept_rate_holds(const Task &t, int cpu, int here) const
{
    const KeptRate &kept = kept_rate_[static_cast<size_t>(cpu)];
    if (t.mig_cost.refill_open || !kept_matches(kept, t, cpu))
        return true; // not what memory_bound_rate would give
    const RateParts r = rate_parts(t, cpu, here);
    if (r.rate != kept.rate || r.miss != kept.mem_frac || r.local != kept.local_share)
        return false;
    if (t.mig_cost.record < 0)
        return kept.refill_frac == 0 && kept.remote_frac == 0;
    // The move's shares priced afresh, on copies (pricing updates its phases).
    Task copy = t;
    Runqueue rq;
    price_migration(copy, rq, here, r.cache_lat, r.miss, r.mem_factor, r.lat);
    return copy.mig_cost.record == t.mig_cost.record && rq.refill_frac == kept.refill_frac &&
           rq.remote_frac == kept.remote_frac;
}

void MemoryModel::open_migration_cost(Task &t, int from_cpu, int from_node, int to_node, std::int64_t record) const
{
    MigrationCostState &mc = t.mig_cost;
    mc = MigrationCostState{};
    if (t.mem_intensity <= 0 || record < 0)
        return; // it never waits on memory, so no move can slow it; or no record to bill
    double covered = 0;
    mc.ref_cache_lat_ns = cache_latency_ns(t, from_cpu, &covered);
    mc.ref_miss = 1.0 - covered;
    mc.from_node = from_node;
    mc.record = record;
    mc.refill_open = true;
    mc.remote_open = to_node != from_node;
}

void MemoryModel::price_migration(Task &t, Runqueue &rq, int here, double cache_lat, double miss, double mem_factor,
                                  double lat) const
{
    // Latency differences this small are rounding, not a cost still being paid.
    constexpr double kSettledLatencyNs = 1e-9;
    MigrationCostState &mc = t.mig_cost;
    const double mem_lat = model_.mem_latency_local_ns;
    // The memory factor seen from the node it left, over today's placement;
    // untouched memory would be placed locally wherever it runs.
    double from_factor = mem_factor;
    if (mc.remote_open) {
        double mem = t.unplaced_weight * access_factor(here, here);
        double weight = t.unplaced_weight;
        for (int n : t.used_nodes) {
            mem += t.node_weight[n] * access_factor(mc.from_node, n);
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
    const double stall = t.mem_intensity * overlap(t);
    const double per_lat = stall / (compute_per_work_ + stall * lat);
    rq.refill_frac = refill * per_lat;
    rq.remote_frac = std::max(0.0, remote) * per_lat;
}

// --- congestion ---

namespace {

// Below saturation each line also waits in the queue of the controller or
// link: M/D/1, u / (2 (1 - u)) transfer times at utilisation u, in local
// memory latencies (lat0). Past qmax (queueing_max_utilisation) the wait
// goes on rising along the curve's tangent there, finite at and beyond
// saturation (where the congestion multipliers bound the demand as well).
// Under kQueueFreeUtilisation the wait is about 1 % of a transfer or less
// and counts as none.
double queue_wait(double u, double transfer_ns, double qmax, double lat0)
{
    if (qmax <= 0 || u <= kQueueFreeUtilisation)
        return 0.0;
    const double transfers = u <= qmax ? u / (2 * (1 - u))
                                       : qmax / (2 * (1 - qmax)) + (u - qmax) / (2 * (1 - qmax) * (1 - qmax));
    return transfer_ns * transfers / lat0;
}

// The wait moves halfway to its target each update, since it slows the
// demand it is computed from.
// A step's result, or where it started if it moves less than
// kSettledShare of that.
double held(double before, double after) { return std::abs(after - before) <= kSettledShare * before ? before : after; }

double settle(double before, double target)
{
    const double q = 0.5 * (before + target);
    return q < kNoQueue ? 0.0 : held(before, q);
}

// The congestion multiplier's damped step towards demand / bandwidth;
// uncongested is exactly 1, however close it was.
double settle_congestion(double before, double ratio)
{
    const double c = std::max(1.0, before * std::sqrt(ratio));
    return c == 1.0 ? c : held(before, c);
}

} // namespace

// Inline into its two callers: a call per PU per tick cost more than the
// comparison.
[[gnu::always_inline]] inline MemoryModel::DemandInputs
MemoryModel::demand_inputs(const Runqueue &rq, std::span<const Task> tasks, int node)
{
    // node_demand and add_link_demand pass over such a PU.
    if (rq.current < 0 || rq.mem_frac <= 0)
        return DemandInputs{};
    const Task &t = tasks[static_cast<size_t>(rq.current)];
    const auto bits = [](double x) { return std::bit_cast<std::uint64_t>(x); };
    return DemandInputs{rq.current,
                        node,
                        t.placement_changes,
                        bits(rq.rate),
                        bits(rq.mem_frac),
                        bits(t.mem_intensity),
                        bits(t.writeback_share),
                        bits(t.unplaced_weight)};
}

// Inline into its two callers, as demand_inputs.
[[gnu::always_inline]] inline bool MemoryModel::same_inputs_of(const Runqueue &rq, const DemandInputs &was,
                                                               std::span<const Task> tasks, int node)
{
    // No demand now: the same iff none then (an entry with a task is one
    // with demand).
    if (rq.current < 0 || rq.mem_frac <= 0)
        return was.task < 0;
    return demand_inputs(rq, tasks, node) == was;
}

bool MemoryModel::same_demand_inputs(std::span<const Runqueue> rqs, std::span<const Task> tasks,
                                     std::span<const int> pu_node) const
{
    if (demand_inputs_.size() != rqs.size())
        return false;
    for (size_t cpu = 0; cpu < rqs.size(); ++cpu)
        if (!same_inputs_of(rqs[cpu], demand_inputs_[cpu], tasks, pu_node[cpu]))
            return false;
    return true;
}

bool MemoryModel::same_marked_inputs(std::span<const Runqueue> rqs, std::span<const Task> tasks,
                                     std::span<const int> pu_node) const
{
    if (demand_inputs_.size() != rqs.size())
        return false;
    for (const int c : demand_dirty_) {
        const auto cpu = static_cast<size_t>(c);
        if (!same_inputs_of(rqs[cpu], demand_inputs_[cpu], tasks, pu_node[cpu]))
            return false;
    }
    return true;
}

void MemoryModel::clear_marks()
{
    for (const int c : demand_dirty_)
        demand_marked_[static_cast<size_t>(c)] = 0;
    demand_dirty_.clear();
}

void MemoryModel::update_congestion(std::span<const Runqueue> rqs, std::span<const Task> tasks,
                                    std::span<const int> pu_node)
{
    update_unless_same(congestion_quiet_ && same_demand_inputs(rqs, tasks, pu_node), rqs, tasks, pu_node);
}

void MemoryModel::update_congestion_marked(std::span<const Runqueue> rqs, std::span<const Task> tasks,
                                           std::span<const int> pu_node)
{
    // The PUs not marked have the inputs the last update read.
    const bool same = congestion_quiet_ && same_marked_inputs(rqs, tasks, pu_node);
    if (same || demand_inputs_.size() != rqs.size()) {
        update_unless_same(same, rqs, tasks, pu_node);
        return;
    }
    // A full update: update_unless_same's, recording the inputs of the
    // marked PUs only, since every other PU's are those recorded already (a
    // full update of a steady machine re-recorded every PU for the one or
    // two a kernel thread had taken).
    for (const int c : demand_dirty_)
        record_demand(rqs, tasks, pu_node, static_cast<size_t>(c));
    clear_marks();
    const std::uint64_t changes = cong_.changes;
    update_congestion_in_full(cong_, congestion_scratch_.v, link_demand_.v, demand_parts_);
    congestion_quiet_ = cong_.changes == changes;
}

void MemoryModel::update_unless_same(bool same, std::span<const Runqueue> rqs, std::span<const Task> tasks,
                                     std::span<const int> pu_node)
{
    clear_marks();
    // The same inputs as the last update, which moved nothing: the same
    // figures, which it would leave where they are.
    if (same)
        return;
    demand_inputs_.resize(rqs.size());
    demand_parts_.resize(rqs.size());
    for (size_t cpu = 0; cpu < rqs.size(); ++cpu)
        record_demand(rqs, tasks, pu_node, cpu);
    const std::uint64_t changes = cong_.changes;
    update_congestion_in_full(cong_, congestion_scratch_.v, link_demand_.v, demand_parts_);
    // Every step that moves a figure counts it in cong_.changes
    // (settle_nodes' result, settle_links): none counted, none moved. Nor
    // did the links' list then (a link joins it with no congestion or
    // queue, and stays only with one, so each that joined left again and
    // each that was there stayed).
    congestion_quiet_ = cong_.changes == changes;
}

bool MemoryModel::congestion_skip_holds(std::span<const Runqueue> rqs, std::span<const Task> tasks,
                                        std::span<const int> pu_node) const
{
    if (!congestion_quiet_ || !same_marked_inputs(rqs, tasks, pu_node))
        return true; // the next update is a full one
    // The marked update would skip: so would one comparing every PU,
    // unless a PU's inputs changed unmarked.
    if (!same_demand_inputs(rqs, tasks, pu_node))
        return false;
    // Every PU's part derived afresh: each is the one kept, since the
    // inputs it is a function of are those recorded with it.
    std::vector<DemandPart> parts(rqs.size());
    for (size_t cpu = 0; cpu < rqs.size(); ++cpu)
        demand_part(parts[cpu], rqs[cpu], tasks, pu_node[cpu]);
    if (parts != demand_parts_)
        return false;
    // The full update, on a copy of what it moves (and on scratch of its
    // own, so that the check leaves the model as it was).
    Congestion copy = cong_;
    std::vector<double> scratch, link_demand;
    update_congestion_in_full(copy, scratch, link_demand, parts);
    return copy == cong_;
}

void MemoryModel::record_demand(std::span<const Runqueue> rqs, std::span<const Task> tasks,
                                std::span<const int> pu_node, size_t cpu)
{
    demand_inputs_[cpu] = demand_inputs(rqs[cpu], tasks, pu_node[cpu]);
    demand_part(demand_parts_[cpu], rqs[cpu], tasks, pu_node[cpu]);
}

void MemoryModel::demand_part(DemandPart &p, const Runqueue &rq, std::span<const Task> tasks, int here) const
{
    // The products node_demand and add_link_demand formed for this PU in
    // their loops, each formed as they formed it (the same operands in the
    // same order), so that each is the same double.
    p.adds = p.links = false;
    p.here = here;
    p.here_demand = p.remote_out = 0;
    p.on.clear();
    // No demand on memory: node_demand and add_link_demand pass over it.
    if (rq.current < 0 || rq.mem_frac <= 0)
        return;
    const Task &t = tasks[static_cast<size_t>(rq.current)];
    const double bytes_per_ns = rq.rate * t.mem_intensity * rq.mem_frac * model_.cache_line_bytes;
    double total = t.unplaced_weight;
    for (int n : t.used_nodes)
        total += t.node_weight[n];
    if (total <= 0)
        return;
    // Line bytes per ns per unit of node weight (add_link_demand's
    // per_weight, which visits the PU unless it is <= 0).
    const double scale = bytes_per_ns / total;
    const double transfers = 1.0 + t.writeback_share;
    p.adds = true;
    p.links = !(scale <= 0);
    p.on.reserve(t.used_nodes.size());
    for (int n : t.used_nodes) {
        DemandOnNode d;
        d.node = n;
        d.demand = scale * transfers * t.node_weight[n];
        // Lines read: data towards the reader, requests towards the
        // memory; lines written back: data towards the memory, completions
        // towards the writer (link_wire_bytes_per_line).
        const double b = scale * t.node_weight[n];
        if (p.links && n != here && b > 0) {
            d.link = true;
            d.to_reader = b * (link_wire_.data + link_wire_.message * t.writeback_share);
            d.to_memory = b * (link_wire_.message + link_wire_.data * t.writeback_share);
        }
        p.on.push_back(d);
    }
    p.here_demand = scale * transfers * t.unplaced_weight;
    p.remote_out = scale * transfers * (total - t.unplaced_weight - t.weight_on(here));
}

void MemoryModel::update_congestion_in_full(Congestion &c, std::vector<double> &scratch,
                                            std::vector<double> &link_demand, std::span<const DemandPart> parts) const
{
    // Bytes per ns each node is asked for at the current rates: the lines
    // its readers miss, and the lines they write back (a store loop's
    // write-allocate: read for ownership, then written back, two transfers
    // a line). Each node's congestion moves towards demand/bandwidth by a
    // damped step, so demand settles at the bandwidth where a node is
    // saturated. Remote traffic is also demand on the link between the two
    // nodes, priced the same way against its bandwidth in each direction:
    // the lines read flow from the memory's node to the reader's, the lines
    // written back the other way.
    const size_t nn = c.node.size();
    // Per node demand and remote traffic sent: zeros, in a buffer kept
    // between ticks.
    scratch.assign(2 * nn, 0.0);
    double *demand = scratch.data(), *remote_out = demand + nn;
    node_demand(parts, demand, remote_out);
    // Rates derived before are stale once a figure they read moved.
    if (settle_nodes(c, demand))
        ++c.changes;
    // A direction of a pair carries at most what its two ends exchange:
    // while that is below the narrowest route (or, with queueing, a
    // route's queue-free load) and no link is congested or queued, the
    // per-pair account (as long as the rest) can be skipped.
    const double max_out = *std::max_element(remote_out, remote_out + nn);
    const double room = model_.queueing_max_utilisation > 0 ? kQueueFreeUtilisation : 1.0;
    if (c.link_active.empty() && 2 * max_out * (link_wire_.data + link_wire_.message) * max_link_hops_ <=
                                     room * model_.link_bandwidth_bytes_per_ns)
        return;
    add_link_demand(c, link_demand, parts);
    settle_links(c, link_demand);
}

void MemoryModel::node_demand(std::span<const DemandPart> parts, double *demand, double *remote_out) const
{
    // Each PU's demand on the nodes holding its task's memory, its
    // untouched share's on its own node, and the remote traffic its node
    // sends, in PU order (demand_part).
    for (const DemandPart &p : parts) {
        if (!p.adds)
            continue;
        for (const DemandOnNode &d : p.on)
            demand[d.node] += d.demand;
        demand[p.here] += p.here_demand;
        remote_out[p.here] += p.remote_out;
    }
}

bool MemoryModel::settle_nodes(Congestion &c, const double *demand) const
{
    const double qmax = model_.queueing_max_utilisation;
    const double lat0 = model_.mem_latency_local_ns;
    const double line = model_.cache_line_bytes;
    const double bw = model_.mem_bandwidth_bytes_per_ns;
    bool changed = false;
    for (size_t n = 0; n < c.node.size(); ++n) {
        const double ratio = std::max(demand[n], 1e-9) / bw;
        const double m = settle_congestion(c.node[n], ratio);
        const double q = settle(c.node_queue[n], queue_wait(ratio, line / bw, qmax, lat0));
        changed = changed || m != c.node[n] || q != c.node_queue[n];
        c.node[n] = m;
        c.node_queue[n] = q;
    }
    return changed;
}

void MemoryModel::add_link_demand(Congestion &c, std::vector<double> &link_demand,
                                  std::span<const DemandPart> parts) const
{
    const size_t nn = c.node.size();
    // Per direction: entry from * nn + to.
    if (link_demand.size() != nn * nn)
        link_demand.assign(nn * nn, 0.0);
    for (const DemandPart &p : parts) {
        if (!p.links)
            continue;
        const auto here = static_cast<size_t>(p.here);
        for (const DemandOnNode &d : p.on) {
            if (!d.link)
                continue; // its own node, or no weight there
            const auto n = static_cast<size_t>(d.node);
            const size_t lo = std::min(here, n), hi = std::max(here, n);
            const size_t pair = lo * nn + hi;
            // A pair joins the list with its first demand, unless it is
            // there already (congested or queued).
            if (link_demand[pair] == 0 && link_demand[hi * nn + lo] == 0 && (c.link.empty() || c.link[pair] == 1.0) &&
                (c.link_queue.empty() || c.link_queue[pair] == 0.0))
                c.link_active.push_back(static_cast<int>(pair));
            link_demand[n * nn + here] += d.to_reader;
            link_demand[here * nn + n] += d.to_memory;
        }
    }
}

void MemoryModel::settle_links(Congestion &c, std::vector<double> &link_demand) const
{
    // A route of SLIT distance d crosses about (d - 10) / 10 links and gets
    // that share of one link's bandwidth (a crude stand-in for routing).
    // The link's figure is per direction, and its busier direction sets
    // the wait of both (a request goes one way, its data the other).
    const size_t nn = c.node.size();
    const double qmax = model_.queueing_max_utilisation;
    const double lat0 = model_.mem_latency_local_ns;
    const double line = model_.cache_line_bytes;
    const double per_link_bw = 1.0 / model_.link_bandwidth_bytes_per_ns;
    std::erase_if(c.link_active, [&](int pair) {
        const int a = pair / static_cast<int>(nn), b = pair % static_cast<int>(nn);
        const double hops = link_hops(a, b);
        const size_t mirror = static_cast<size_t>(b) * nn + static_cast<size_t>(a);
        const double busier = std::max(link_demand[pair], link_demand[mirror]);
        const double ratio = std::max(busier, 1e-9) * hops * per_link_bw;
        link_demand[pair] = link_demand[mirror] = 0;
        const double qbefore = c.link_queue.empty() ? 0.0 : c.link_queue[pair];
        const double q = settle(qbefore, queue_wait(ratio, line * link_wire_.data * hops * per_link_bw, qmax, lat0));
        if (q != qbefore) {
            // Allocated when a first link queues, as the multipliers below.
            if (c.link_queue.empty())
                c.link_queue.assign(nn * nn, 0.0);
            c.link_queue[pair] = c.link_queue[mirror] = q;
            ++c.changes;
        }
        const double before = c.link.empty() ? 1.0 : c.link[pair];
        if (before == 1.0 && ratio <= 1.0)
            return q == 0.0; // the common case: a link with room to spare
        const double m = settle_congestion(before, ratio);
        if (m == before)
            return m == 1.0 && q == 0.0;
        // Allocated when a first link saturates: a 512-node machine's matrix
        // is 2 MiB, which every checkpoint would otherwise copy.
        if (c.link.empty())
            c.link.assign(nn * nn, 1.0);
        c.link[pair] = c.link[mirror] = m;
        ++c.changes;
        return m == 1.0 && q == 0.0;
    });
}

MemoryModel::LinkWire MemoryModel::link_wire_bytes_per_line(const ModelParams &model)
{
    // A line crosses as a data packet, its header ahead of it; the message
    // that asks for it (or acknowledges it) crosses the other way. Both in
    // line bytes, so that the link's demand stays in the units of the
    // lines it carries. (Snoops and probes to third nodes are not counted.)
    const double line = model.cache_line_bytes;
    return LinkWire{(line + model.link_packet_header_bytes) / line, model.link_message_bytes / line};
}

double MemoryModel::link_hops(int a, int b) const { return std::max(1.0, (topo_->node_distance(a, b) - 10) / 10.0); }

} // namespace schedscope
