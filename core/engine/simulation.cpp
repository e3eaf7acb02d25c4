// Simulation lifecycle: building, the event loop, ticks, samples and
// checkpoints. The machine model is in execution.cpp, scheduling actions in
// scheduling.cpp.

#include "engine/simulation.h"

#include "engine/invariants.h"
#include "engine/nice.h"
#include "util/input_error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <tuple>

namespace schedscope {

Simulation::Simulation(std::shared_ptr<const Topology> topo, std::unique_ptr<Policy> policy, SimConfig cfg)
    : topo_(std::move(topo)), policy_(std::move(policy)), cfg_(cfg), rng_(cfg_.seed)
{
    rec_->limits = cfg_.limits;
    const char *check = std::getenv("SCHEDSCOPE_CHECK_INVARIANTS");
    check_each_event_ = check && std::strcmp(check, "0") != 0 && *check;
    if (cfg_.sample_interval_ns <= 0)
        throw InputError("sample_interval", "must be more than 0");
    window_.every_ns = cfg_.sample_interval_ns;
    if (!topo_ || topo_->pu_count() == 0)
        throw InputError("topology", "the machine has no PUs to schedule on");
    if (!policy_)
        throw std::logic_error("Simulation needs a policy");
    const int npu = topo_->pu_count();
    const int nnode = std::max(1, topo_->numa_count());
    rqs_.resize(npu);
    nr_running_.assign(npu, 0);
    pu_node_.resize(npu);
    layout_.pu_core.assign(npu, -1);
    burst_due_ns_.assign(npu, -1);
    burst_seq_.assign(npu, 0);
    queued_on_node_.assign(nnode, 0);
    window_.last_busy.assign(npu, 0);
    memory_ = MemoryModel(topo_, cfg_.model);

    for (int p = 0; p < npu; ++p)
        pu_node_[p] = topo_->node_of_pu(p);
    layout_.pu_lock_near.assign(npu, kNoObj);
    layout_.lock_near_exact = true;
    for (int p = 0; p < npu; ++p) {
        unsigned seen = 0;
        for (ObjId a = topo_->pu(p); a != kNoObj; a = topo_->objects()[a].parent) {
            const ObjType t = topo_->objects()[a].type;
            if (t != ObjType::Core && t != ObjType::L1 && t != ObjType::L2 && t != ObjType::L3)
                continue;
            const unsigned bit = 1u << static_cast<unsigned>(t);
            if (seen & bit)
                layout_.lock_near_exact = false;
            seen |= bit;
            layout_.pu_lock_near[p] = a;
        }
    }

    // SMT: PUs grouped by core. A PU without a Core ancestor is its own core.
    for (int p = 0; p < npu; ++p) {
        ObjId core = topo_->ancestor_of_pu(p, ObjType::Core);
        int found = -1;
        if (core != kNoObj) {
            for (size_t c = 0; c < layout_.core_pus.size(); ++c)
                if (topo_->ancestor_of_pu(layout_.core_pus[c].front(), ObjType::Core) == core)
                    found = static_cast<int>(c);
        }
        if (found < 0) {
            found = static_cast<int>(layout_.core_pus.size());
            layout_.core_pus.emplace_back();
        }
        layout_.core_pus[found].push_back(p);
        layout_.pu_core[p] = found;
        layout_.smt = layout_.smt || layout_.core_pus[found].size() > 1;
    }
}

Simulation::~Simulation() = default;

// --- building ---

ProcId Simulation::add_process(const std::string &name, std::int64_t memory_bytes, AllocPolicy alloc,
                               CpuSet alloc_nodes)
{
    if (started_)
        throw std::logic_error("add_process after start");
    if (memory_bytes < 0)
        throw InputError("workload", 0, "memory", "process '" + name + "' has negative memory");
    Process p;
    p.id = static_cast<ProcId>(procs_.size());
    p.name = name;
    p.memory_bytes = memory_bytes;
    const std::int64_t chunk = cfg_.model.chunk_bytes;
    const std::int64_t nchunks = (memory_bytes + chunk - 1) / chunk;
    // Bounded so that absurd sizes fail with a message instead of exhausting memory.
    constexpr std::int64_t kMaxChunksPerProcess = 1 << 22; // 16 TiB at 4 MiB chunks
    if (nchunks > kMaxChunksPerProcess)
        throw InputError("workload", 0, "memory",
                         "process '" + name + "' asks for more memory than the model handles (16 TiB)");
    p.chunk_node.assign(static_cast<size_t>(nchunks), kNoNode);
    p.chunk_armed.assign(static_cast<size_t>(nchunks), 0);
    p.alloc = alloc;
    p.alloc_nodes = std::move(alloc_nodes);
    const int nnode = std::max(1, topo_->numa_count());
    p.chunks_on_node.assign(nnode, 0);
    procs_.push_back(std::move(p));
    window_.acc.push_back(0);
    window_.local.push_back(0);
    return procs_.back().id;
}

TaskId Simulation::add_task(ProcId proc, TaskSpec spec)
{
    if (started_)
        throw std::logic_error("add_task after start");
    Process &p = procs_.at(proc);
    Task t;
    t.id = static_cast<TaskId>(tasks_.size());
    t.proc = proc;
    t.name = spec.name.empty() ? p.name + "/" + std::to_string(p.tasks.size()) : spec.name;
    t.program = std::move(spec.program);
    t.start_ns = spec.start_ns;
    if (spec.created_by >= 0) {
        // The creator must already be a task of the run, and one whose program ends.
        if (spec.created_by >= static_cast<TaskId>(tasks_.size()))
            throw std::logic_error("task '" + t.name + "' is created by a task not added before it");
        Task &creator = tasks_[static_cast<size_t>(spec.created_by)];
        if (creator.program.iterations <= 0)
            throw std::logic_error("task '" + t.name + "' is created by '" + creator.name +
                                   "', whose program never ends");
        creator.creates_at_exit.push_back(t.id);
        t.arrives_with_creator = true;
    }
    t.own_process = spec.own_process;
    t.untimed = spec.untimed;
    const int nchunks = static_cast<int>(p.chunk_node.size());
    for (auto &s : spec.segments) {
        if (s.chunk_begin < 0 || s.chunk_end > nchunks || s.chunk_begin >= s.chunk_end || !(s.weight > 0))
            throw std::logic_error("task '" + t.name + "' has an access segment outside its process memory");
    }
    t.segments = std::move(spec.segments);
    t.mem_intensity = spec.mem_intensity;
    t.dependent_fraction = std::clamp(spec.dependent_fraction, 0.0, 1.0);
    t.stray_share = std::clamp(spec.stray_share, 0.0, 1.0);
    t.writeback_share = std::clamp(spec.writeback_share, 0.0, 1.0);
    t.working_set_bytes = spec.working_set_bytes;
    if (spec.nice < kNiceMin || spec.nice > kNiceMax)
        throw InputError("workload", 0, "nice",
                         "task '" + t.name + "' has nice " + std::to_string(spec.nice) + ", outside [-20, 19]");
    t.nice = spec.nice;
    const int npu = topo_->pu_count();
    if (spec.cpus_allowed.empty()) {
        for (int c = 0; c < npu; ++c)
            t.cpus_allowed.set(c);
    } else {
        t.cpus_allowed = std::move(spec.cpus_allowed);
        if (t.cpus_allowed.first() < 0 || t.cpus_allowed.first() >= npu)
            throw InputError("workload", 0, "cpus_allowed", "task '" + t.name + "' may run on no PU of this machine");
    }
    // A program that loops forever must compute or block, or it would spin in zero time.
    bool advances = false;
    for (auto &op : t.program.ops)
        if ((op.kind == Op::Kind::Compute && op.a > 0) || op.kind == Op::Kind::Sleep || op.kind == Op::Kind::Wait)
            advances = true;
    if (!advances)
        throw std::logic_error("task '" + t.name + "' has a program that never computes nor blocks");
    t.ops = shared_ops(t.program.ops);
    t.op_count = static_cast<int>(t.program.ops.size());
    // Per-node access shares only for a task that touches memory: a kernel
    // thread has no segments, and on a 512-node machine the vector is 4 KiB
    // per task. Readers take an empty one as "nothing on any node".
    if (!t.segments.empty())
        t.node_weight.assign(static_cast<size_t>(std::max(1, topo_->numa_count())), 0.0);
    p.tasks.push_back(t.id);
    tasks_.push_back(std::move(t));
    return tasks_.back().id;
}

bool Simulation::OpsLess::operator()(const std::vector<Op> &x, const std::vector<Op> &y) const
{
    return std::lexicographical_compare(x.begin(), x.end(), y.begin(), y.end(), [](const Op &a, const Op &b) {
        return std::tie(a.kind, a.a, a.b, a.channel) < std::tie(b.kind, b.a, b.b, b.channel);
    });
}

const Op *Simulation::shared_ops(const std::vector<Op> &ops)
{
    auto [it, added] = op_lookup_.try_emplace(ops, op_pool_.size());
    if (added)
        op_pool_.push_back(std::make_shared<const std::vector<Op>>(ops));
    return op_pool_[it->second]->data();
}

void Simulation::mark_faulted_in(ProcId proc)
{
    if (started_)
        throw std::logic_error("mark_faulted_in after start");
    Process &p = procs_.at(proc);
    p.faulted_in = true;
    // Nor does memory placed for a first write in the run owe any.
    unfaulted_chunks_total_ -= p.unfaulted_chunks;
    p.unfaulted_chunks = 0;
    p.chunk_unfaulted.clear();
}

void Simulation::mark_first_write_in_run(ProcId proc)
{
    if (started_)
        throw std::logic_error("mark_first_write_in_run after start");
    Process &p = procs_.at(proc);
    if (p.faulted_in)
        return; // its faults were taken before the run
    p.chunk_unfaulted.assign(p.chunk_node.size(), 0);
    for (size_t c = 0; c < p.chunk_node.size(); ++c)
        if (p.chunk_node[c] != kNoNode) {
            p.chunk_unfaulted[c] = 1;
            ++p.unfaulted_chunks;
            ++unfaulted_chunks_total_;
        }
}

void Simulation::place_chunks(ProcId proc, int chunk_begin, int chunk_end, int node)
{
    Process &p = procs_.at(proc);
    if (node < 0 || node >= std::max(1, topo_->numa_count()))
        throw std::logic_error("place_chunks: no such node");
    chunk_begin = std::max(0, chunk_begin);
    chunk_end = std::min<int>(chunk_end, static_cast<int>(p.chunk_node.size()));
    for (int c = chunk_begin; c < chunk_end; ++c) {
        if (started_)
            place_chunk(p, c, node);
        else {
            if (p.chunk_node[c] != kNoNode)
                --p.chunks_on_node[p.chunk_node[c]];
            p.chunk_node[c] = static_cast<std::int16_t>(node);
            p.count_chunk_on(node);
        }
    }
}

int Simulation::add_channel(std::int64_t initial_tokens)
{
    channels_.push_back(Channel{initial_tokens, {}});
    return static_cast<int>(channels_.size()) - 1;
}

void Simulation::start()
{
    if (started_)
        return;
    if (cfg_.model.os_noise > 0)
        add_os_noise();
    started_ = true;
    op_lookup_.clear(); // no task is added after the start; checkpoints need not copy it
    // Access weights from scratch, now that all memory placement is known.
    for (auto &t : tasks_) {
        const Process &p = procs_[t.proc];
        std::fill(t.node_weight.begin(), t.node_weight.end(), 0.0);
        t.unplaced_weight = 0;
        ++t.placement_changes;
        double total = 0;
        for (auto &s : t.segments)
            total += s.weight;
        for (auto &s : t.segments) {
            const double per_chunk = s.weight / total / (s.chunk_end - s.chunk_begin);
            for (int c = s.chunk_begin; c < s.chunk_end; ++c) {
                if (p.chunk_node[c] == kNoNode)
                    t.unplaced_weight += per_chunk;
                else
                    t.node_weight[p.chunk_node[c]] += per_chunk;
            }
        }
        if (t.segments.empty())
            t.unplaced_weight = 0;
        if (t.unplaced_weight > 0)
            ++unplaced_tasks_;
        t.used_nodes.clear();
        for (size_t n = 0; n < t.node_weight.size(); ++n)
            if (t.node_weight[n] > 0)
                t.used_nodes.push_back(static_cast<int>(n));
        if (t.program.iterations > 0) {
            ++finite_.live_tasks;
            double per_iter = 0;
            for (auto &op : t.program.ops)
                if (op.kind == Op::Kind::Compute)
                    per_iter += op.b > op.a ? 0.5 * static_cast<double>(op.a + op.b) : static_cast<double>(op.a);
            finite_.total_ns += per_iter * static_cast<double>(t.program.iterations);
        }
    }
    if (finite_.live_tasks == 0 && cfg_.duration_ns <= 0)
        throw InputError("scenario", 0, "duration", "the workload runs forever (throughput workload): give a duration");
    policy_->attach(*this);
    for (auto &t : tasks_)
        if (!t.arrives_with_creator)
            events_.push(t.start_ns, EventType::Arrive, t.id);
    next_tick_ns_ = cfg_.model.tick_ns;
    events_.push(next_tick_ns_, EventType::Tick);
    events_.push(0, EventType::Sample);
}

// --- running ---

bool Simulation::step()
{
    if (!started_)
        start();
    if (finished_ || events_.empty())
        return false;
    const Event &top = events_.top();
    if (cfg_.duration_ns > 0 && top.time_ns > cfg_.duration_ns) {
        now_ = cfg_.duration_ns;
        advance_all();
        finished_ = true;
        end_ns_ = now_;
        on_sample();
        return false;
    }
    Event e = events_.pop();
    if (e.time_ns < now_)
        throw std::logic_error("event queue went back in time");
    now_ = e.time_ns;
    ++events_processed_;
    handle(e);
    if (check_each_event_) [[unlikely]] {
        // Stress runs (docs/reliability.md): stop at the first event that
        // breaks the bookkeeping, while the cause is still the last thing
        // handled.
        if (auto broken = check_invariants(*this); !broken.empty()) {
            std::fprintf(stderr, "schedscope: invariant broken at t=%lld ns after event %lld: %s\n",
                         static_cast<long long>(now_), static_cast<long long>(events_processed_),
                         broken.front().c_str());
            std::abort();
        }
    }
    if (finished_) {
        advance_all();
        end_ns_ = now_;
        on_sample();
    }
    return !finished_;
}

void Simulation::run_until(SimTime t)
{
    if (!started_)
        start();
    while (!finished_ && !events_.empty() && events_.top().time_ns <= t) {
        if (cfg_.duration_ns > 0 && events_.top().time_ns > cfg_.duration_ns)
            break;
        step();
    }
    if (!finished_ && cfg_.duration_ns > 0 && t >= cfg_.duration_ns) {
        step(); // crosses the duration limit and ends the run
        return;
    }
    // Time passes to t, but the PUs' accounting stays where the last event
    // left it: bringing it up to t here would split every running burst's
    // cache warming and accounting in two at t, and the rest of the run
    // would then depend on where it was stopped (the GUI stops where its
    // wall-time slices end). The next event, tick or sample brings it up.
    if (!finished_ && t > now_)
        now_ = t;
}

void Simulation::account_to_now()
{
    if (started_ && !finished_)
        advance_all();
}

void Simulation::run_to_end()
{
    if (!started_)
        start();
    while (step()) {
    }
}

void Simulation::handle(const Event &e)
{
    switch (e.type) {
    case EventType::Tick: on_tick(); break;
    case EventType::Sample:
        advance_all();
        on_sample();
        events_.push(now_ + window_.every_ns, EventType::Sample);
        break;
    case EventType::Arrive: arrive(e.a); break;
    case EventType::BurstEnd: {
        const int cpu = e.a;
        if (e.b != burst_seq_[cpu])
            break; // superseded
        burst_due_ns_[cpu] = -1;
        for_core_of(cpu, [this](int s) { advance_cpu(s); });
        TaskId t = rqs_[cpu].current;
        if (t >= 0 && tasks_[t].remaining_work_ns <= 0.5)
            run_program(t);
        for_core_of(cpu, [this](int s) { refresh_rate(s); });
        break;
    }
    case EventType::TimerWake: {
        Task &t = tasks_.at(e.a);
        if (t.wake_seq == e.b && t.state == TaskState::Blocked) {
            // The Sleep just done (pc has moved past it) may name the PU whose
            // interrupt completes it: the wakeup then comes from there.
            const Op &op = t.ops[std::max(0, t.pc - 1)];
            const bool irq = op.kind == Op::Kind::Sleep && op.channel >= 0 && op.channel < topo_->pu_count();
            wake(t.id, irq ? op.channel : t.cpu);
        }
        break;
    }
    case EventType::WakeIpi: deliver_wake_list(e.a); break;
    case EventType::PostWake: continue_post(e.a); break;
    }
}

void Simulation::on_tick()
{
    bool burst_done = advance_all_on_tick(noise_tick_cost_ns());
    memory_.settle_shared_caches(tasks_);
    memory_.update_congestion_marked(rqs_, tasks_, pu_node_);
    // A task woken by the noise may run now, with its burst done.
    if (cfg_.model.os_noise > 0 && os_noise_tick())
        burst_done = true;
    const int npu = topo_->pu_count();
    // Bursts that ended exactly on the tick, if advance_all_on_tick saw one
    // (or the noise woke a task): the loop finds none otherwise.
    if (burst_done)
        for (int cpu = 0; cpu < npu; ++cpu) {
            TaskId cur = rqs_[cpu].current;
            if (cur >= 0 && tasks_[cur].remaining_work_ns <= 0.5)
                run_program(cur);
        }
    for (int cpu = 0; cpu < npu; ++cpu) {
        policy_->on_tick(*this, cpu);
        Runqueue &rq = rqs_[cpu];
        if (rq.current < 0) {
            if (!rq.queue.empty())
                switch_to_next(cpu);
            continue;
        }
        // The policy's slice (by default the engine's fair slicing).
        if (rq.nr_running() > 1 && policy_->check_preempt_tick(*this, cpu)) {
            put_prev(cpu, true);
            switch_to_next(cpu);
        }
    }
    // Every task's memory placed and none armed: each sample would return
    // at once (sample_accesses), so none is taken.
    if (unplaced_tasks_ > 0 || armed_chunks_total_ > 0 || unfaulted_chunks_total_ > 0)
        for (int cpu = 0; cpu < npu; ++cpu) {
            TaskId cur = rqs_[cpu].current;
            if (cur >= 0)
                sample_accesses(tasks_[cur], cpu);
        }
    next_tick_ns_ = now_ + cfg_.model.tick_ns;
    for (int cpu = 0; cpu < npu; ++cpu) {
        refresh_rate(cpu);
    }
    events_.push(next_tick_ns_, EventType::Tick);
    if (cfg_.duration_ns > 0 && now_ >= cfg_.duration_ns)
        finished_ = true;
}

void Simulation::on_sample()
{
    MetricsSample s;
    s.time_ns = now_;
    const int npu = topo_->pu_count();
    for (auto &rq : rqs_) {
        s.user_ns += static_cast<double>(rq.user_ns);
        s.sys_ns += static_cast<double>(rq.sys_ns);
        s.idle_ns += static_cast<double>(rq.idle_ns);
    }
    s.migrations_by_class = migrations_by_class_;
    s.page_migrations = page_migrations_;
    s.hinting_faults = hinting_faults_;
    s.lock_wait_ns = lock_wait_ns_;
    s.ops = total_ops();
    s.progress = progress();
    const auto &last = rec_->samples;
    const SimTime window = last.empty() ? 0 : now_ - last.back().time_ns;
    s.pu_busy.resize(npu);
    for (int p = 0; p < npu; ++p) {
        const SimTime busy = rqs_[p].user_ns + rqs_[p].sys_ns;
        s.pu_busy[p] = window > 0 ? static_cast<float>(static_cast<double>(busy - window_.last_busy[p]) /
                                                       static_cast<double>(window))
                                  : (rqs_[p].current >= 0 ? 1.f : 0.f);
        window_.last_busy[p] = busy;
    }
    const auto &caches = memory_.caches();
    s.cache_heat.resize(caches.size());
    for (size_t c = 0; c < caches.size(); ++c)
        s.cache_heat[c] = static_cast<float>(std::min(1.0, caches[c].used() / caches[c].capacity_bytes));
    s.proc_node_bytes.resize(procs_.size());
    s.proc_local_pct.resize(procs_.size());
    for (size_t p = 0; p < procs_.size(); ++p) {
        const auto &counts = procs_[p].chunks_on_node;
        for (size_t n = static_cast<size_t>(procs_[p].nodes_lo); n < static_cast<size_t>(procs_[p].nodes_hi); ++n)
            if (counts[n] > 0)
                s.proc_node_bytes[p].push_back(NodeBytes{
                    static_cast<int>(n), static_cast<double>(counts[n]) * static_cast<double>(cfg_.model.chunk_bytes)});
        s.proc_local_pct[p] = window_.acc[p] > 0 ? static_cast<float>(100.0 * window_.local[p] / window_.acc[p]) : -1.f;
        window_.acc[p] = window_.local[p] = 0;
    }
    // One sample per instant. The run can end at the very time a Sample
    // event was handled (a duration that is a multiple of the interval):
    // the end's sample then replaces that one, taking the counters moved by
    // the events handled since, and keeping its window figures. Busy time and
    // memory accesses accrue only as time passes, so the zero-length window
    // since holds nothing and the earlier window is the whole of it.
    if (!last.empty() && last.back().time_ns == now_) {
        MetricsSample &prev = rec_->samples.back();
        s.pu_busy = std::move(prev.pu_busy);
        s.proc_local_pct = std::move(prev.proc_local_pct);
        prev = std::move(s);
        return;
    }
    rec_->samples.push_back(std::move(s));
    if (rec_->samples.size() > rec_->sample_limit(rec_->samples.back())) {
        rec_->merge_samples();
        window_.every_ns *= 2;
    }
}

// --- checkpoints ---

Simulation::Checkpoint Simulation::checkpoint() const
{
    // The copy takes a recording of its own; drop it, only the mark matters.
    auto copy = std::make_shared<Simulation>(*this);
    copy->rec_ = Deep<Recording>();
    return Checkpoint{std::move(copy), rec_->mark()};
}

void Simulation::restore(const Checkpoint &cp)
{
    Deep<Recording> rec = std::move(rec_);
    *this = *cp.state;
    rec_ = std::move(rec);
    rec_->truncate(cp.mark);
    // Moves still being paid for at the checkpoint kept growing on the
    // abandoned timeline: put their bill back to what it was then.
    for (const Task &t : tasks_) {
        const auto i = static_cast<size_t>(t.mig_cost.record);
        if (t.mig_cost.record >= 0 && i < rec_->migrations.size()) {
            rec_->migrations[i].refill_stall_ns = t.mig_cost.refill_ns;
            rec_->migrations[i].remote_stall_ns = t.mig_cost.remote_ns;
        }
    }
}

// --- reading ---

double Simulation::warmth_on(TaskId t, int cpu, int level) const
{
    if (cpu < 0 || cpu >= static_cast<int>(rqs_.size()))
        throw std::out_of_range("warmth_on: no such PU");
    return memory_.warmth_on(t, cpu, level);
}

std::vector<double> Simulation::process_node_bytes(ProcId p) const
{
    const Process &pr = procs_.at(p);
    std::vector<double> out(pr.chunks_on_node.size());
    for (size_t n = 0; n < out.size(); ++n)
        out[n] = static_cast<double>(pr.chunks_on_node[n]) * static_cast<double>(cfg_.model.chunk_bytes);
    return out;
}

std::int64_t Simulation::total_ops() const
{
    std::int64_t n = 0;
    for (auto &t : tasks_)
        n += t.stats.ops;
    return n;
}

double Simulation::progress() const
{
    if (finite_.total_ns <= 0)
        return cfg_.duration_ns > 0 ? std::min(1.0, static_cast<double>(now_) / cfg_.duration_ns) : 0.0;
    return std::min(1.0, finite_.done_ns / finite_.total_ns);
}

void Simulation::log(DecisionKind kind, TaskId t, int from, int to, std::string_view reason)
{
    DecisionList &kept = rec_->decisions;
    const bool keep = kept.size() < rec_->limits.max_decisions;
    // Past the limit the words are written only for a sink to read.
    if (!keep && !sink_) {
        ++rec_->decisions_dropped;
        return;
    }
    Decision d{now_, kind, t, from, to, rec_->text.store(reason)};
    if (sink_)
        sink_->on_decision(d);
    if (!keep) {
        ++rec_->decisions_dropped;
        return;
    }
    make_room_for_record(kept, rec_->limits.max_decisions); // recording.h says why
    kept.push_back(std::move(d));
}

} // namespace schedscope
