#include "frame_builder.h"

#include <algorithm>

namespace schedscope::gui {

void clamp_cursor(RecordingCursor &cursor, const Simulation &sim)
{
    const Recording &rec = sim.recording();
    // Restored to an earlier state: nothing to animate until it moves on.
    cursor.migrations = std::min(cursor.migrations, sim.migrations_total());
    // Samples merged since the last read: the receiver takes them all again.
    if (cursor.sample_merges != rec.sample_merges)
        cursor.samples = 0;
    cursor.samples = std::min(cursor.samples, rec.samples.size());
    cursor.decisions = std::min(cursor.decisions, rec.decisions.size());
}

namespace {

PaneFigures figures_of(const Simulation &sim, bool fixed_work)
{
    PaneFigures f;
    f.fixed_work = fixed_work;
    f.progress = sim.progress();
    f.finished = sim.finished();
    f.end_ns = sim.end_time();
    const double secs = static_cast<double>(sim.now()) / 1e9;
    f.throughput = secs > 0 ? static_cast<double>(sim.total_ops()) / secs : 0.0;
    double busy = 0, idle = 0, sys = 0;
    for (const Runqueue &rq : sim.runqueues()) {
        busy += static_cast<double>(rq.user_ns + rq.sys_ns);
        idle += static_cast<double>(rq.idle_ns);
        sys += static_cast<double>(rq.sys_ns);
    }
    f.idle_pct = busy + idle > 0 ? 100.0 * idle / (busy + idle) : 0.0;
    f.sys_s = sys / 1e9;
    double acc = 0, local = 0;
    for (const Task &t : sim.tasks()) {
        acc += t.stats.accesses;
        local += t.stats.local_accesses;
    }
    f.local_pct = acc > 0 ? 100.0 * local / acc : 100.0;
    return f;
}

} // namespace

PaneFrame build_pane_frame(const Simulation &sim, bool fixed_work, RecordingCursor &cursor, bool colour_by_task)
{
    PaneFrame f;
    f.policy = sim.policy().name();
    const auto &rqs = sim.runqueues();
    f.pus.resize(rqs.size());
    for (size_t c = 0; c < rqs.size(); ++c) {
        f.pus[c].current = rqs[c].current;
        f.pus[c].queued = rqs[c].queue;
    }
    f.tasks.reserve(sim.tasks().size());
    for (const Task &t : sim.tasks()) {
        f.tasks.push_back({t.proc, colour_by_task ? static_cast<int>(t.id) : static_cast<int>(t.proc), t.cpu, t.state});
        f.workload_memory = f.workload_memory ||
                            (!t.segments.empty() && !sim.processes()[static_cast<std::size_t>(t.proc)].kernel);
    }
    if (colour_by_task)
        for (const Task &t : sim.tasks())
            f.colour_names.push_back(t.name);

    std::vector<double> by_proc(colour_by_task ? sim.tasks().size() : sim.processes().size());
    f.caches.reserve(sim.caches().size());
    for (const CacheState &c : sim.caches()) {
        std::fill(by_proc.begin(), by_proc.end(), 0.0);
        double used = 0;
        for (const CacheShare &s : c.shares) {
            used += s.bytes;
            const int p = colour_by_task ? static_cast<int>(s.task) : static_cast<int>(sim.task(s.task).proc);
            if (p >= 0 && p < static_cast<int>(by_proc.size()))
                by_proc[p] += s.bytes;
        }
        CacheFrame cf;
        cf.obj = c.obj;
        cf.heat = c.capacity_bytes > 0 ? static_cast<float>(std::clamp(used / c.capacity_bytes, 0.0, 1.0)) : 0.f;
        const auto top = std::max_element(by_proc.begin(), by_proc.end());
        cf.dominant = top != by_proc.end() && *top > 0 ? static_cast<int>(top - by_proc.begin()) : -1;
        f.caches.push_back(cf);
    }

    for (const Process &p : sim.processes()) {
        f.process_names.push_back(p.name);
        // The model's own kworker and softirq threads share one colour; the
        // legend says what they are rather than a bare "kernel".
        if (!colour_by_task)
            f.colour_names.push_back(p.kernel ? std::string(kKernelColourName) : p.name);
        f.proc_node_bytes.push_back(sim.process_node_bytes(p.id));
        for (double b : f.proc_node_bytes.back())
            f.total_memory_bytes += b;
    }

    const Recording &rec = sim.recording();
    clamp_cursor(cursor, sim);
    const std::int64_t total = sim.migrations_total();
    f.moves_total = total - cursor.migrations;
    const std::int64_t first = std::max({cursor.migrations, total - static_cast<std::int64_t>(kMaxMovesPerFrame),
                                         total - Simulation::kRecentMigrations});
    for (std::int64_t i = first; i < total; ++i) {
        const MigrationRecord &m = sim.recent_migration(i);
        f.moves.push_back({m.task, m.from_cpu, m.to_cpu, m.cls});
    }
    cursor.migrations = total;

    f.samples_before = cursor.samples;
    f.new_samples.assign(rec.samples.begin() + static_cast<std::ptrdiff_t>(cursor.samples), rec.samples.end());
    cursor.samples = rec.samples.size();
    cursor.sample_merges = rec.sample_merges;
    f.decisions_before = cursor.decisions;
    f.new_decisions.assign(rec.decisions.begin() + static_cast<std::ptrdiff_t>(cursor.decisions), rec.decisions.end());
    cursor.decisions = rec.decisions.size();

    f.figures = figures_of(sim, fixed_work);
    f.figures.migrations_by_class = sim.migrations_by_class();
    f.figures.migrations = total;
    return f;
}

bool apply_to_mirror(Recording &m, const PaneFrame &p)
{
    const bool changed = !p.new_samples.empty() || !p.new_decisions.empty() || m.samples.size() != p.samples_before ||
                         m.decisions.size() != p.decisions_before;
    m.samples.resize(std::min(m.samples.size(), p.samples_before));
    m.samples.insert(m.samples.end(), p.new_samples.begin(), p.new_samples.end());
    m.decisions.resize(std::min(m.decisions.size(), p.decisions_before));
    m.decisions.insert(m.decisions.end(), p.new_decisions.begin(), p.new_decisions.end());
    return changed;
}

} // namespace schedscope::gui
