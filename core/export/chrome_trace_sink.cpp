#include "export/chrome_trace_sink.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace schedscope {

std::string json_quote(std::string_view text)
{
    return nlohmann::json(std::string(text)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string ns_as_us(std::int64_t ns)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%lld.%03lld", static_cast<long long>(ns / 1000), static_cast<long long>(ns % 1000));
    return buf;
}

namespace {
constexpr double kBytesPerMiB = 1024.0 * 1024.0;

std::string number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}
} // namespace

ChromeTraceSink::ChromeTraceSink(const Simulation &sim, std::string name, int index, ChromeTraceDoc &doc,
                                 TraceWindow window, bool cpu_tracks)
    : sim_(sim), name_(std::move(name)), index_(index), doc_(doc), window_(window), cpu_tracks_(cpu_tracks)
{
    const size_t ntask = sim.tasks().size();
    if (static_cast<long long>(ntask) >= kCpuTrackTid || sim.topology().pu_count() >= kTidStride - kCpuTrackTid)
        throw std::length_error("too many tasks or CPUs for the trace's thread ids");
    runs_.resize(ntask);
    reason_.assign(ntask, "already queued when the trace started");
    pending_.resize(ntask);
    task_name_json_.reserve(ntask);
    for (auto &t : sim.tasks())
        task_name_json_.push_back(json_quote(t.name));
    nodes_seen_.resize(sim.processes().size());
}

void ChromeTraceSink::metadata(const char *what, long long tid, const std::string &arg_name, const std::string &value)
{
    line_ = "{\"ph\":\"M\",\"name\":\"";
    line_ += what;
    line_ += "\",\"pid\":" + std::to_string(pid()) + ",\"tid\":" + std::to_string(tid) + ",\"args\":{\"" + arg_name +
             "\":" + value + "}}";
    doc_.event(line_);
}

void ChromeTraceSink::begin()
{
    metadata("process_name", pid(), "name", json_quote(name_));
    metadata("process_sort_index", pid(), "sort_index", std::to_string(index_));
    metadata("process_labels", pid(), "labels", json_quote(sim_.policy().name()));
    for (auto &t : sim_.tasks()) {
        metadata("thread_name", tid(t.id), "name", task_name_json_[t.id]);
        metadata("thread_sort_index", tid(t.id), "sort_index", std::to_string(t.id));
    }
    if (cpu_tracks_) {
        const long long base = (index_ + 1) * kTidStride + kCpuTrackTid;
        for (int c = 0; c < sim_.topology().pu_count(); ++c) {
            metadata("thread_name", base + c, "name", json_quote("CPU " + std::to_string(c)));
            // Below every task, in CPU order.
            metadata("thread_sort_index", base + c, "sort_index", std::to_string(kCpuTrackTid + c));
        }
    }
    for (int c = 0; c < static_cast<int>(sim_.runqueues().size()); ++c) {
        const TaskId cur = sim_.rq(c).current;
        if (cur >= 0) {
            runs_[cur] = Run{c, sim_.now()};
            reason_[cur] = "already running when the trace started";
        }
    }
    const auto &samples = sim_.recording().samples;
    samples_written_until_ = samples.empty() ? SimTime{-1} : samples.back().time_ns;
}

std::string ChromeTraceSink::pending_reason(TaskId task, SimTime now, DecisionKind kind, int to) const
{
    const PendingDecision &p = pending_[task];
    if (p.time_ns == now && p.kind == kind && p.to == to)
        return p.reason;
    return {};
}

void ChromeTraceSink::on_decision(const Decision &d)
{
    if (d.task < 0 || d.task >= static_cast<TaskId>(pending_.size()))
        return;
    if (d.kind == DecisionKind::Place || d.kind == DecisionKind::Wakeup)
        pending_[d.task] = PendingDecision{d.time_ns, d.kind, d.to, d.reason.str()};
}

void ChromeTraceSink::on_task_new(SimTime now, TaskId task, int cpu)
{
    const std::string why = pending_reason(task, now, DecisionKind::Place, cpu);
    reason_[task] = "place: " + (why.empty() ? "started on CPU " + std::to_string(cpu) : why);
}

void ChromeTraceSink::on_wakeup(SimTime now, TaskId task, int target_cpu, int waker_cpu)
{
    const std::string why = pending_reason(task, now, DecisionKind::Wakeup, target_cpu);
    if (!why.empty()) {
        reason_[task] = "wakeup: " + why;
        return;
    }
    // The engine has not moved the task yet: its cpu is where it last ran.
    const int prev = sim_.task(task).cpu;
    reason_[task] = "wakeup: woken from CPU " + std::to_string(waker_cpu) + ", queued on CPU " +
                    std::to_string(target_cpu) + (prev == target_cpu ? " (where it last ran)" : "");
}

void ChromeTraceSink::on_migration(const MigrationRecord &m, DecisionKind kind, const std::string &reason)
{
    if (kind != DecisionKind::Wakeup)
        reason_[m.task] = std::string(decision_kind_name(kind)) + ": " + reason;
    if (!window_.contains(m.time_ns))
        return;
    line_ = "{\"ph\":\"i\",\"s\":\"t\",\"name\":\"migrate\",\"cat\":\"migration\",\"ts\":" + ns_as_us(m.time_ns) +
            ",\"pid\":" + std::to_string(pid()) + ",\"tid\":" + std::to_string(tid(m.task)) +
            ",\"args\":{\"from_cpu\":" + std::to_string(m.from_cpu) + ",\"to_cpu\":" + std::to_string(m.to_cpu) +
            ",\"distance\":\"" + distance_class_name(m.cls) + "\",\"kind\":\"" + decision_kind_name(kind) +
            "\",\"since_last_ran_us\":" + ns_as_us(m.since_last_ran_ns) + ",\"reason\":" + json_quote(reason) + "}}";
    doc_.event(line_);
}

void ChromeTraceSink::on_switch_in(SimTime now, int cpu, TaskId task) { runs_[task] = Run{cpu, now}; }

void ChromeTraceSink::on_switch_out(SimTime now, int /*cpu*/, TaskId task, TaskState leaving_as)
{
    close_slice(task, now);
    if (leaving_as == TaskState::Runnable)
        reason_[task] = "requeued after its timeslice (or a balancer stopped it)";
}

void ChromeTraceSink::close_slice(TaskId task, SimTime end_ns)
{
    Run &r = runs_[task];
    if (r.cpu < 0)
        return;
    const int cpu = r.cpu;
    r.cpu = -1;
    const SimTime start = std::max(r.since_ns, window_.start_ns);
    const SimTime end = window_.open_ended() ? end_ns : std::min(end_ns, window_.end_ns);
    // Zero-length stints (a task that blocks the moment it is switched in)
    // carry no time and would only clutter the view.
    if (end <= start)
        return;
    const std::string ts = ns_as_us(start), dur = ns_as_us(end - start);
    const std::string reason = json_quote(reason_[task]);
    line_ = "{\"ph\":\"X\",\"cat\":\"sched\",\"name\":\"CPU " + std::to_string(cpu) + "\",\"ts\":" + ts +
            ",\"dur\":" + dur + ",\"pid\":" + std::to_string(pid()) + ",\"tid\":" + std::to_string(tid(task)) +
            ",\"args\":{\"cpu\":" + std::to_string(cpu) +
            ",\"node\":" + std::to_string(sim_.topology().node_of_pu(cpu)) + ",\"reason\":" + reason + "}}";
    doc_.event(line_);
    if (cpu_tracks_) {
        line_ = "{\"ph\":\"X\",\"cat\":\"cpu\",\"name\":" + task_name_json_[task] + ",\"ts\":" + ts +
                ",\"dur\":" + dur + ",\"pid\":" + std::to_string(pid()) +
                ",\"tid\":" + std::to_string((index_ + 1) * kTidStride + kCpuTrackTid + cpu) +
                ",\"args\":{\"cpu\":" + std::to_string(cpu) + ",\"task\":" + std::to_string(task) +
                ",\"reason\":" + reason + "}}";
        doc_.event(line_);
    }
}

void ChromeTraceSink::emit_new_samples()
{
    const auto &samples = sim_.recording().samples;
    const auto &procs = sim_.processes();
    auto next = std::upper_bound(samples.begin(), samples.end(), samples_written_until_,
                                 [](SimTime t, const MetricsSample &s) { return t < s.time_ns; });
    for (; next != samples.end(); ++next) {
        const MetricsSample &s = *next;
        samples_written_until_ = s.time_ns;
        if (!window_.contains(s.time_ns))
            continue;
        const std::string head = "{\"ph\":\"C\",\"ts\":" + ns_as_us(s.time_ns) + ",\"pid\":" + std::to_string(pid());
        for (size_t p = 0; p < procs.size() && p < s.proc_node_bytes.size(); ++p) {
            // A node that held memory once keeps its series at 0 afterwards:
            // a counter left out of an event would keep its previous value.
            auto &seen = nodes_seen_[p];
            for (const NodeBytes &nb : s.proc_node_bytes[p])
                if (std::find(seen.begin(), seen.end(), nb.node) == seen.end())
                    seen.insert(std::upper_bound(seen.begin(), seen.end(), nb.node), nb.node);
            if (!seen.empty()) {
                line_ = head + ",\"name\":" + json_quote("memory MiB: " + procs[p].name) + ",\"args\":{";
                for (size_t i = 0; i < seen.size(); ++i) {
                    double bytes = 0;
                    for (const NodeBytes &nb : s.proc_node_bytes[p])
                        if (nb.node == seen[i])
                            bytes = nb.bytes;
                    line_ += (i ? ",\"node" : "\"node") + std::to_string(seen[i]) +
                             "\":" + number(bytes / kBytesPerMiB);
                }
                line_ += "}}";
                doc_.event(line_);
            }
            // -1 means the process touched no memory in that window: no point.
            if (p < s.proc_local_pct.size() && s.proc_local_pct[p] >= 0) {
                line_ = head + ",\"name\":" + json_quote("local access %: " + procs[p].name) +
                        ",\"args\":{\"local_pct\":" + number(s.proc_local_pct[p]) + "}}";
                doc_.event(line_);
            }
        }
    }
}

void ChromeTraceSink::finish()
{
    emit_new_samples();
    for (TaskId t = 0; t < static_cast<TaskId>(runs_.size()); ++t)
        close_slice(t, sim_.now());
}

} // namespace schedscope
