#include "export/ftrace_sink.h"

#include <algorithm>
#include <cstdio>

namespace schedscope {

namespace {
constexpr int kNice0Prio = 120; // kernel prio of a SCHED_NORMAL task at nice 0

// prev_state as the kernel prints it: "R+" is a preempted runnable task.
const char *state_letter(TaskState s)
{
    switch (s) {
    case TaskState::Blocked: return "S";
    case TaskState::Exited: return "X";
    default: return "R+";
    }
}
} // namespace

std::string FtraceSink::comm_of(const std::string &name)
{
    std::string c = name.empty() ? std::string("task") : name;
    for (char &ch : c)
        if (ch == ' ' || ch == '=' || ch == '\t' || ch == '\n' || ch == '\r' || static_cast<unsigned char>(ch) < 0x20)
            ch = '_';
    return c;
}

FtraceSink::FtraceSink(const Simulation &sim, OutputFile &out, TraceWindow window)
    : sim_(sim), out_(out), window_(window)
{
    const int npu = sim.topology().pu_count();
    for (auto &t : sim.tasks()) {
        comm_.push_back(comm_of(t.name));
        const auto &siblings = sim.processes()[t.proc].tasks;
        tgid_.push_back(siblings.empty() ? t.id + 1 : siblings.front() + 1);
    }
    for (int c = 0; c < npu; ++c)
        idle_comm_.push_back("swapper/" + std::to_string(c));
    cur_.assign(npu, -1);
    for (int c = 0; c < npu; ++c)
        cur_[c] = sim.rq(c).current;
    pending_.resize(npu);
}

void FtraceSink::begin(const std::string &title)
{
    std::string t = title;
    std::replace(t.begin(), t.end(), '\n', ' ');
    out_.write("# tracer: nop\n#\n# " + t +
               "\n#\n"
               "#           TASK-PID     TGID     CPU#  TIMESTAMP  FUNCTION\n"
               "#              | |         |        |       |         |\n");
}

void FtraceSink::prefix(SimTime now, int cpu)
{
    const TaskId t = cur_[cpu];
    char buf[64];
    if (t >= 0)
        std::snprintf(buf, sizeof buf, "-%-7d (%7d) [%03d] %5lld.%06lld: ", pid(t), tgid_[t], cpu,
                      static_cast<long long>(now / 1'000'000'000), static_cast<long long>(now % 1'000'000'000 / 1000));
    else
        std::snprintf(buf, sizeof buf, "-%-7d (-------) [%03d] %5lld.%06lld: ", 0, cpu,
                      static_cast<long long>(now / 1'000'000'000), static_cast<long long>(now % 1'000'000'000 / 1000));
    const std::string &c = t >= 0 ? comm_[t] : std::string("<idle>");
    line_.assign(c.size() < 16 ? 16 - c.size() : 0, ' ');
    line_ += c;
    line_ += buf;
}

void FtraceSink::task_args(TaskId task)
{
    line_ += "comm=" + comm_[task] + " pid=" + std::to_string(pid(task)) + " prio=" + std::to_string(kNice0Prio);
}

void FtraceSink::switch_line(SimTime now, int cpu, TaskId prev, TaskState prev_state, TaskId next)
{
    if (!window_.contains(now))
        return;
    // The line is written in the context of the task switched away from.
    const TaskId saved = cur_[cpu];
    cur_[cpu] = prev;
    prefix(now, cpu);
    cur_[cpu] = saved;
    line_ += "sched_switch: prev_comm=" + comm(prev, cpu) + " prev_pid=" + std::to_string(pid(prev)) +
             " prev_prio=" + std::to_string(kNice0Prio) +
             " prev_state=" + (prev >= 0 ? state_letter(prev_state) : "R") + " ==> next_comm=" + comm(next, cpu) +
             " next_pid=" + std::to_string(pid(next)) + " next_prio=" + std::to_string(kNice0Prio) + "\n";
    out_.write(line_);
}

void FtraceSink::flush_pending()
{
    if (pending_count_ == 0)
        return;
    // Oldest first: the lines must stay in time order.
    std::vector<int> cpus;
    for (int c = 0; c < static_cast<int>(pending_.size()); ++c)
        if (pending_[c].task >= 0)
            cpus.push_back(c);
    std::stable_sort(cpus.begin(), cpus.end(), [&](int a, int b) { return pending_[a].time_ns < pending_[b].time_ns; });
    for (int c : cpus) {
        PendingOut &p = pending_[c];
        switch_line(p.time_ns, c, p.task, p.state, -1);
        p.task = -1;
    }
    pending_count_ = 0;
}

void FtraceSink::on_switch_out(SimTime now, int cpu, TaskId task, TaskState leaving_as)
{
    if (pending_[cpu].task >= 0) // cannot happen: the CPU ran nothing since
        flush_pending();
    pending_[cpu] = PendingOut{task, now, leaving_as};
    ++pending_count_;
    cur_[cpu] = -1;
}

void FtraceSink::on_switch_in(SimTime now, int cpu, TaskId task)
{
    PendingOut &p = pending_[cpu];
    if (p.task >= 0 && p.time_ns == now) {
        const PendingOut out = p;
        p.task = -1;
        --pending_count_;
        flush_pending(); // other CPUs first: `task` may be leaving one of them
        // Put back at once: the kernel traces no switch when schedule()
        // picks the task it was running (3.x __schedule(): context_switch(),
        // which emits sched_switch, only when prev != next).
        if (out.task != task)
            switch_line(now, cpu, out.task, out.state, task);
    } else {
        flush_pending();
        switch_line(now, cpu, -1, TaskState::Runnable, task);
    }
    cur_[cpu] = task;
}

void FtraceSink::on_task_new(SimTime now, TaskId task, int cpu)
{
    flush_pending();
    if (!window_.contains(now))
        return;
    prefix(now, cpu);
    line_ += "sched_wakeup_new: ";
    task_args(task);
    char buf[32];
    std::snprintf(buf, sizeof buf, " target_cpu=%03d\n", cpu);
    line_ += buf;
    out_.write(line_);
}

void FtraceSink::on_wakeup(SimTime now, TaskId task, int target_cpu, int waker_cpu)
{
    flush_pending();
    if (!window_.contains(now))
        return;
    const int on = waker_cpu >= 0 ? waker_cpu : target_cpu;
    char buf[32];
    std::snprintf(buf, sizeof buf, " target_cpu=%03d\n", target_cpu);
    // The kernel traces both halves of a wakeup from the waker's CPU:
    // sched_waking (Perfetto draws the waker -> wakee arrow from it), then
    // sched_wakeup once the task is queued.
    for (const char *event : {"sched_waking: ", "sched_wakeup: "}) {
        prefix(now, on);
        line_ += event;
        task_args(task);
        line_ += buf;
        out_.write(line_);
    }
}

void FtraceSink::on_migration(const MigrationRecord &m, DecisionKind /*kind*/, const std::string & /*reason*/)
{
    flush_pending();
    if (!window_.contains(m.time_ns))
        return;
    prefix(m.time_ns, m.to_cpu);
    line_ += "sched_migrate_task: ";
    task_args(m.task);
    line_ += " orig_cpu=" + std::to_string(m.from_cpu) + " dest_cpu=" + std::to_string(m.to_cpu) + "\n";
    out_.write(line_);
}

void FtraceSink::finish() { flush_pending(); }

} // namespace schedscope
