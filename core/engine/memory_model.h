#pragma once
// The memory side of the machine model: the caches above each PU and how a
// running task warms them, the latency a task's accesses past L1 wait, the
// congestion and queueing of each node's memory and of the links between
// nodes, and the pricing of a migrated task's cold caches and remote memory.
//
// A value type: a Simulation holds one and copies it with its checkpoints.
// It reads tasks and runqueues (sim_types.h) but owns neither; the
// Simulation says which PU and node a task runs on. Split out of the
// Simulation so that its rates can be tested on their own
// (tests/core/test_memory_model.cpp).
//
// A task's progress rate (work-ns per ns) is 1 / (c + stall), where c is the
// ns a work-ns of compute takes at the machine's clock and stall is the time
// its accesses past L1 wait per ns of work: each one hits the first cache
// level above L1 that holds it (hit share = warmth / working set) or goes to
// memory, whose latency is the local latency times the node pair's latency
// ratio (the machine's remote latency, or its SLIT distance mapped by
// ModelParams::latency_ratio), times that node's bandwidth congestion and,
// when remote, the congestion of the interconnect between the two nodes.
// Accesses that stream overlap mem_misses_in_flight deep (out-of-order issue
// and prefetch keep that many lines coming), so each stalls for latency /
// in-flight; dependent ones (pointer chasing) wait the whole latency. A lone
// stream is thus bounded by in-flight x line / latency, and many streams by
// the node's and the link's bandwidth through the congestion multipliers
// and queueing.

#include "engine/model_params.h"
#include "engine/sim_types.h"
#include "topology/topology.h"

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace schedscope {

class MemoryModel {
public:
    // The caches above each PU, L1 outwards, each with its level, so that
    // warming finds the task's slot hint without reading the cache.
    struct PuCache {
        int cache; // index into caches()
        int level; // caches()[cache].level
    };

    MemoryModel() = default;
    // One cache state per cache object of the machine. A topology whose
    // caches are unknown (numactl input) gets one private cache per PU of
    // model.default_cache_size_bytes, so execution still has a warm/cold
    // distinction.
    MemoryModel(std::shared_ptr<const Topology> topo, const ModelParams &model);

    // --- caches ---
    const std::vector<CacheState> &caches() const { return caches_; }
    std::span<const PuCache> pu_caches(int cpu) const
    {
        const auto first = static_cast<std::size_t>(pu_cache_first_[static_cast<std::size_t>(cpu)]);
        const auto last = static_cast<std::size_t>(pu_cache_first_[static_cast<std::size_t>(cpu) + 1]);
        return {pu_cache_list_.data() + first, last - first};
    }
    // Bytes of the task's working set held by the level-`level` cache above `cpu`.
    double warmth_on(TaskId t, int cpu, int level) const;
    // A task that ran `user_ns` on `cpu` and did `work_ns` of work brings
    // lines into the caches above it, evicting other tasks' shares.
    // Inline for the two cases that change nothing, out of line
    // (warm_caches) otherwise.
    void warm(Task &t, int cpu, double user_ns, double work_ns)
    {
        // No time run, nothing brought in (a CPU brought up to date twice at
        // the same instant, as a storm does all the time).
        if (t.working_set_bytes <= 0 || user_ns <= 0)
            return;
        // The pass found every share of this task above this PU at its
        // target last time, and no share of those caches changed since: it
        // would find the same again and change nothing (a CPU-bound task
        // that owns its caches, on every tick of a big machine).
        const WarmKept &kept = warm_kept_[static_cast<std::size_t>(cpu)];
        if (kept.task == t.id && t.stray_share <= 0 && kept.caches == cache_changes_above(cpu))
            return;
        warm_caches(t, cpu, user_ns, work_ns);
    }
    // Settles the caches above several PUs: the lines each task brought in
    // since the last settle go in together, evicting at random (the
    // Simulation's tick, after every PU was brought up to date). A cache
    // whose shares would each move by less than a line, or by less than a
    // millionth of their task's working set, is left as it was.
    // `tasks` by task id, for their working sets.
    void settle_shared_caches(std::span<const Task> tasks);
    // Whether cache `cache` is on the next settle's list (the invariant check).
    bool settle_marked(int cache) const { return settle_marked_[static_cast<std::size_t>(cache)] != 0; }
    // The lines a running task's stray accesses (Task::stray_share) bring
    // into the caches above `cpu`, each evicting a resident line of another
    // task at random: what cools a sleeping task's cache while others run.
    void cool_by_stray_lines(const Task &t, int cpu, double user_ns, double work_ns);
    // An exited task's shares go from every cache.
    void forget_task(TaskId t);
    // Latency past L1 served by caches; *covered = share of accesses they serve.
    double cache_latency_ns(const Task &t, int cpu, double *covered) const;

    // --- rates ---
    // The rate of a task with memory traffic running on `cpu` of node
    // `here`; sets the runqueue's memory shares (mem_frac, local_share) and,
    // while the task's last move is being paid for, its cost shares.
    //
    // Kept per PU for the task it last priced there, and given again while
    // nothing it is derived from has changed (a tick re-derives every
    // running task's rate; on a machine in a steady state most are the same):
    // the task's own figures and its placement when its memory is on one
    // node at most, the caches above the PU and the congestion and queueing
    // (counts of changes, compared as one sum: rate_stamp). A move still
    // being priced is kept too once its caches are warm again: what is left
    // of its cost (memory further than from the PU it left) is then a
    // function of the same inputs and of the move itself, which the inputs
    // name. Tasks whose caches are still refilling after a move, or whose
    // memory is spread, are derived each time, and so is every rate of a PU
    // where congestion moved since its last one. The check is inline, the
    // derivation out of line.
    double memory_bound_rate(Task &t, Runqueue &rq, int cpu, int here)
    {
        if (const KeptRate *k = kept_rate_for(t, cpu)) {
            rq.mem_frac = k->mem_frac;
            rq.local_share = k->local_share;
            rq.refill_frac = k->refill_frac;
            rq.remote_frac = k->remote_frac;
            return k->rate;
        }
        return derive_rate(t, rq, cpu, here);
    }
    // The rate last derived on a PU, with what it was derived from: the
    // task (-1: none), the move being priced (Task::mig_cost.record, -1 for
    // none: a move's remote cost is measured from the node it left) and the
    // stamp; and the congestion count at that PU's last derivation, kept or
    // not.
    struct KeptRate {
        TaskId task = -1;
        std::int64_t move = -1;
        std::uint64_t stamp = 0;
        std::uint64_t congestion = 0;
        double rate = 0, mem_frac = 0, local_share = 0;
        double refill_frac = 0, remote_frac = 0; // a priced move's shares (Runqueue)
    };
    // What memory_bound_rate would give from what it keeps for `cpu`, or
    // null when it would derive the rate afresh (the Simulation's tick takes
    // a kept rate inline).
    const KeptRate *kept_rate_for(const Task &t, int cpu) const
    {
        const KeptRate &k = kept_rate_[static_cast<std::size_t>(cpu)];
        return !t.mig_cost.refill_open && kept_matches(k, t, cpu) ? &k : nullptr;
    }
    // Whether the rate kept for `cpu`, if it stands for this task now, is
    // the one derived afresh (SCHEDSCOPE_CHECK_INVARIANTS).
    bool kept_rate_holds(const Task &t, int cpu, int here) const;
    // Opens the cost phases of a task's move from `from_cpu` (on node
    // `from_node`) to a PU on `to_node` (Task::mig_cost), priced as its rate
    // is re-derived.
    void open_migration_cost(Task &t, int from_cpu, int from_node, int to_node, std::int64_t record) const;

    // --- congestion (each tick) ---
    // Re-derives node and link congestion and queueing from the demand of
    // the tasks running now: `rqs` and `pu_node` indexed by PU.
    //
    // The update is a function of what it reads of each PU (DemandInputs)
    // and of the figures it moves. When the last update moved none of them
    // and every PU's inputs are bit for bit what that update read, this
    // one would come to the same figures again: it is skipped (a machine
    // in a steady state, on most ticks). A task's memory placement is
    // compared by its count of changes (Task::placement_changes), as a kept
    // rate compares it: whoever moves its per-node shares counts the move.
    void update_congestion(std::span<const Runqueue> rqs, std::span<const Task> tasks, std::span<const int> pu_node);
    // The same update for a caller that marks every PU whose inputs may
    // have changed since the last one (demand_changed): only the marked PUs
    // are compared with what the last full update read (the Simulation's
    // tick, where few PUs change between two ticks of a steady machine).
    void update_congestion_marked(std::span<const Runqueue> rqs, std::span<const Task> tasks,
                                  std::span<const int> pu_node);
    // What update_congestion reads of PU `cpu` may have changed: its task,
    // its rate or miss share, or its task's placement.
    void demand_changed(int cpu)
    {
        char &marked = demand_marked_[static_cast<std::size_t>(cpu)];
        if (!marked) {
            marked = 1;
            demand_dirty_.push_back(cpu);
        }
    }
    // Whether skipping the update now would leave what a full one leaves
    // (SCHEDSCOPE_CHECK_INVARIANTS): true unless a full update, run on a
    // copy, moves a figure the skip would have kept, update_congestion_marked
    // would skip while an unmarked PU's inputs changed, or a PU's kept part
    // (DemandPart) is not the one its inputs give.
    bool congestion_skip_holds(std::span<const Runqueue> rqs, std::span<const Task> tasks,
                               std::span<const int> pu_node) const;
    // Queueing waits below saturation, in local memory latencies: at node
    // `n`'s memory, and on the link between nodes a and b.
    double memory_queue_wait(int n) const { return cong_.node_queue[static_cast<size_t>(n)]; }
    double link_queue_wait(int a, int b) const { return link_queue_row(a)[b]; }
    // Bandwidth congestion at node `n`'s memory and on the link between
    // nodes a and b (>= 1): the wait an access queues for there is
    // (congestion - 1) local memory latencies (access_factor).
    double memory_congestion(int n) const { return cong_.node[static_cast<size_t>(n)]; }
    double link_congestion(int a, int b) const { return link_row(a)[b]; }
    double link_hops(int a, int b) const; // links a route crosses, from its SLIT distance
    // What one line transferred between two nodes puts on their link, in
    // line bytes: `data` in the line's direction (the line and its packet
    // header), `message` in the other (its read request or write
    // completion). ModelParams::link_packet_header_bytes, link_message_bytes.
    struct LinkWire {
        double data = 1.0, message = 0.0;
    };
    static LinkWire link_wire_bytes_per_line(const ModelParams &model);
    // Memory latency from node a to node b over the local latency.
    double latency_ratio(int a, int b) const
    {
        return lat_ratio_by_slit_[static_cast<size_t>(topo_->node_distance(a, b))];
    }
    // The latency of an access from node `here` to memory on node `n`, in
    // local memory latencies: the pair's unloaded latency, plus the waits
    // the access queues for at n's controller and on the link between the
    // two. The waits add to the latency (a miss holds its fill buffer for
    // all of it, Little's law) and are the same for every access that
    // passes that controller or link, local or remote: a saturated node's
    // remote readers wait what its local readers wait, on top of their
    // longer path, and the node's lines go to its readers in proportion to
    // lines in flight / that whole latency.
    double access_factor(int here, int n) const
    {
        const double node_wait = cong_.node[static_cast<size_t>(n)] - 1.0 + cong_.node_queue[static_cast<size_t>(n)];
        if (n == here)
            return 1.0 + node_wait;
        return latency_ratio(here, n) + node_wait + (link_row(here)[n] - 1.0) + link_queue_row(here)[n];
    }
    // Share of an access's latency the task stalls for: all of it for a
    // dependent access, 1 / mem_misses_in_flight for one of a stream.
    double overlap(const Task &t) const
    {
        const double dep = t.dependent_fraction;
        return dep + (1.0 - dep) * per_in_flight_;
    }
    // ns a work-ns of compute takes at this machine's clock (1 at the
    // clock the workloads' figures are written for).
    double compute_ns_per_work() const { return compute_per_work_; }
    // The rate of a task that never waits on memory: 1 / compute_ns_per_work(),
    // derived once (x / 1.0 is x: at the reference clock it is 1 exactly).
    double compute_rate() const { return compute_rate_; }

private:
    // warm's pass over the caches above the PU.
    void warm_caches(Task &t, int cpu, double user_ns, double work_ns);
    // update_congestion's steps: each running task's demand on the nodes
    // (and the remote traffic each node sends, and per PU line bytes per
    // unit of node weight); the nodes' congestion and queueing moved
    // towards it (whether any moved); the remote lines' demand on each
    // link direction; the links' congestion and queueing moved towards it.
    // Each step moves the figures of `c` (the model's own, or a copy the
    // invariant check updates), with the scratch it is handed.
    struct Congestion;
    struct DemandPart;
    void node_demand(std::span<const DemandPart> parts, double *demand, double *remote_out) const;
    bool settle_nodes(Congestion &c, const double *demand) const;
    void add_link_demand(Congestion &c, std::vector<double> &link_demand, std::span<const DemandPart> parts) const;
    void settle_links(Congestion &c, std::vector<double> &link_demand) const;
    // The full update, as update_congestion describes it, from every PU's
    // part (`parts`, indexed by PU): `scratch` for the per-node figures,
    // `link_demand` all zeros (or empty) before and after.
    void update_congestion_in_full(Congestion &c, std::vector<double> &scratch, std::vector<double> &link_demand,
                                   std::span<const DemandPart> parts) const;

    // One PU's part of a full update: the figures node_demand and
    // add_link_demand add for it, each the product they used to form from
    // the PU's task on every update, in the order they add them. A part is
    // a function of the PU's DemandInputs alone (and of constants), so the
    // model keeps one per PU (demand_parts_) and derives it again only when
    // it records that PU's inputs again: a full update of a steady machine
    // re-derived every running task's demand for the one or two PUs whose
    // inputs had changed. The update still adds every PU's figures into
    // the per-node and per-link sums afresh, in PU order, so each sum is
    // rounded as it was when the products were formed in the loop.
    struct DemandOnNode {
        int node = 0;
        bool link = false;    // add_link_demand adds to_reader and to_memory (a remote node, b > 0)
        double demand = 0;    // on this node's memory (node_demand)
        double to_reader = 0; // on the link towards the PU's node (add_link_demand)
        double to_memory = 0; // on the link towards this node
        bool operator==(const DemandOnNode &) const = default;
    };
    struct DemandPart {
        bool adds = false;            // node_demand adds this PU's figures (demand, and its task's weight > 0)
        bool links = false;           // add_link_demand visits it (per_weight > 0)
        int here = 0;                 // the PU's node
        double here_demand = 0;       // the untouched share's demand, on the PU's node
        double remote_out = 0;        // what the PU's node sends to others
        std::vector<DemandOnNode> on; // one per node of the task's used_nodes, in that order
        bool operator==(const DemandPart &) const = default;
    };
    // Derives a PU's part from what it runs now (`rq`, on node `here`).
    void demand_part(DemandPart &p, const Runqueue &rq, std::span<const Task> tasks, int here) const;
    // Records PU `cpu`'s inputs and derives its part again.
    void record_demand(std::span<const Runqueue> rqs, std::span<const Task> tasks, std::span<const int> pu_node,
                       size_t cpu);

    // Everything the congestion update reads of one PU, the floating-point
    // figures as their bits (so that equal means the same result, whatever
    // the values): all zero for a PU that puts no demand on memory (idle,
    // or its task misses no cache).
    struct DemandInputs {
        TaskId task = -1;
        int node = 0;                // the PU's
        std::uint64_t placement = 0; // Task::placement_changes
        std::uint64_t rate = 0, mem_frac = 0, intensity = 0, writeback = 0, unplaced = 0;
        bool operator==(const DemandInputs &) const = default;
    };
    static DemandInputs demand_inputs(const Runqueue &rq, std::span<const Task> tasks, int node);
    // Whether every PU's inputs are those recorded at the last update
    // (and the PU count the same).
    bool same_demand_inputs(std::span<const Runqueue> rqs, std::span<const Task> tasks,
                            std::span<const int> pu_node) const;
    // The same for the PUs marked since (demand_dirty_) only.
    bool same_marked_inputs(std::span<const Runqueue> rqs, std::span<const Task> tasks,
                            std::span<const int> pu_node) const;
    // Whether one PU's inputs are those recorded for it.
    static bool same_inputs_of(const Runqueue &rq, const DemandInputs &was, std::span<const Task> tasks, int node);
    // Forgets the marks; then, unless every PU's inputs are `same` as the
    // last update read and that update moved nothing, records every PU's
    // inputs, runs the full update and notes whether it moved nothing
    // (congestion_quiet_).
    void update_unless_same(bool same, std::span<const Runqueue> rqs, std::span<const Task> tasks,
                            std::span<const int> pu_node);
    void clear_marks();

    // What memory_bound_rate derives, before any migration pricing.
    struct RateParts {
        double cache_lat, miss, mem_factor, local, lat, rate;
    };
    RateParts rate_parts(const Task &t, int cpu, int here) const;
    // Everything rate_parts reads that can change, for a task whose memory
    // is on one node at most, is in three counters that only grow: the
    // task's placement (Task::placement_changes: its per-node shares, the
    // nodes holding them and its untouched share), the caches above the PU
    // (cache_changes_above) and congestion and queueing (Congestion::changes).
    // Their sum is a stamp: for the same task it is the same iff each of the
    // three is, so a kept rate compares one number, not each input. The
    // task's own figures (intensity, dependent and stray shares, working
    // set) are set when it is made and never change; the rest is fixed at
    // construction. (kept_rate_holds derives afresh and compares, so a
    // change of any of them that no counter saw is reported.)
    std::uint64_t rate_stamp(const Task &t, int cpu) const
    {
        return cache_changes_above(cpu) + cong_.changes + t.placement_changes;
    }
    // Whether `k` was derived for this task from what holds now. A task
    // whose memory spread over nodes is never kept, and its placement
    // count moved when it spread.
    bool kept_matches(const KeptRate &k, const Task &t, int cpu) const
    {
        return k.task == t.id && k.move == t.mig_cost.record && k.stamp == rate_stamp(t, cpu);
    }
    double derive_rate(Task &t, Runqueue &rq, int cpu, int here);
    // How many times a cache above `cpu` changed its shares.
    std::uint64_t cache_changes_above(int cpu) const { return pu_cache_changes_[static_cast<std::size_t>(cpu)]; }
    // Cache `cache` changed its shares: counted for each PU below it.
    void cache_changed(int cache)
    {
        const auto first = static_cast<std::size_t>(cache_pu_first_[static_cast<std::size_t>(cache)]);
        const auto last = static_cast<std::size_t>(cache_pu_first_[static_cast<std::size_t>(cache) + 1]);
        for (std::size_t i = first; i < last; ++i)
            ++pu_cache_changes_[static_cast<std::size_t>(cache_pu_list_[i])];
    }
    void price_migration(Task &t, Runqueue &rq, int here, double cache_lat, double miss, double mem_factor,
                         double lat) const;
    // Interconnect latency multipliers from `node` to every node.
    const double *link_row(int node) const
    {
        return cong_.link.empty() ? unit_row_.data() : &cong_.link[static_cast<size_t>(node) * unit_row_.size()];
    }
    // Interconnect queueing waits from `node` to every node, in local memory latencies.
    const double *link_queue_row(int node) const
    {
        return cong_.link_queue.empty() ? zero_row_.data()
                                        : &cong_.link_queue[static_cast<size_t>(node) * zero_row_.size()];
    }

    // Per-call scratch: a copy starts empty, an assignment leaves it empty
    // (between calls link_demand_ is all zeros, a 512-node machine's 2 MiB,
    // and what congestion_scratch_ holds is not read again).
    struct Scratch {
        std::vector<double> v;
        Scratch() = default;
        Scratch(const Scratch &) {}
        Scratch(Scratch &&) noexcept = default;
        Scratch &operator=(const Scratch &)
        {
            v.clear();
            return *this;
        }
        Scratch &operator=(Scratch &&) noexcept = default;
    };

    std::shared_ptr<const Topology> topo_;
    ModelParams model_;
    std::vector<CacheState> caches_;
    // Per PU: how many times the shares of a cache above it changed (only
    // ever grows, so it moves whenever one of them changes). Kept per PU
    // rather than per cache, so that reading it is one load, not a sum over
    // the PU's caches: a kept rate and a kept warming read it on every tick.
    std::vector<std::uint64_t> pu_cache_changes_;
    // Cache c's PUs are [cache_pu_first_[c], cache_pu_first_[c + 1]) of cache_pu_list_.
    std::vector<int> cache_pu_list_;
    std::vector<int> cache_pu_first_; // cache count + 1 entries
    // Per PU, what the last full congestion update read; and whether that
    // update moved no figure (then the next one with the same inputs is
    // skipped).
    std::vector<DemandInputs> demand_inputs_;
    std::vector<DemandPart> demand_parts_; // per PU: its part, derived when its inputs were recorded
    bool congestion_quiet_ = false;
    // The PUs marked by demand_changed since the last update, each once
    // (demand_marked_, per PU).
    std::vector<int> demand_dirty_;
    std::vector<char> demand_marked_;
    std::vector<KeptRate> kept_rate_; // per PU
    // Per PU: the task whose warming there last changed nothing, all its
    // shares above the PU being at their target, and cache_changes_above
    // then. Warming it there again before any of those caches changes is a
    // no-op, and is skipped without reading the caches.
    struct WarmKept {
        TaskId task = -1; // -1: none
        std::uint64_t caches = 0;
    };
    std::vector<WarmKept> warm_kept_;
    // The shared caches holding lines that wait to settle, each once
    // (settle_marked_, per cache).
    std::vector<int> settle_list_;
    std::vector<char> settle_marked_;
    void mark_settle(int cache)
    {
        char &marked = settle_marked_[static_cast<std::size_t>(cache)];
        if (!marked) {
            marked = 1;
            settle_list_.push_back(cache);
        }
    }
    // PU p's caches are [pu_cache_first_[p], pu_cache_first_[p + 1]) of pu_cache_list_.
    std::vector<PuCache> pu_cache_list_;
    std::vector<int> pu_cache_first_; // PU count + 1 entries
    // What update_congestion moves, and counts when it moves it: one value,
    // so that the invariant check copies and compares it whole.
    struct Congestion {
        // How many updates changed a node's or a link's congestion or queueing.
        std::uint64_t changes = 0;
        std::vector<double> node;       // memory latency multiplier per node (>= 1)
        std::vector<double> node_queue; // queueing wait per node below saturation, in local memory latencies
        // Interconnect: a latency multiplier per node pair (>= 1), both
        // triangles of an N x N matrix, empty while no link was ever
        // saturated; queueing waits per pair, as node_queue, empty while none
        // ever queued; the pairs update_congestion must visit (with demand or
        // congestion, once each).
        std::vector<double> link;
        std::vector<double> link_queue;
        std::vector<int> link_active;
        bool operator==(const Congestion &) const = default;
    };
    Congestion cong_;
    std::vector<double> zero_row_; // N zeros: the row of cong_.link_queue while it is empty
    Scratch link_demand_;          // update_congestion's demand per pair and direction
    Scratch congestion_scratch_;   // update_congestion's per-node and per-PU figures
    std::vector<double> unit_row_; // N ones: the row of cong_.link while it is empty
    double max_link_hops_ = 1.0;   // of the longest route
    // Memory latency over local, by SLIT distance (ModelParams::latency_ratio),
    // for every distance the machine's matrix holds.
    std::vector<double> lat_ratio_by_slit_;
    double compute_per_work_ = 1.0;
    double compute_rate_ = 1.0;  // compute_rate()
    double per_in_flight_ = 1.0; // 1 / mem_misses_in_flight
    LinkWire link_wire_;         // a line's bytes on the link, each way
};

} // namespace schedscope
