// OS noise: what a real machine runs beside the workload. Per-CPU kernel
// threads (a kworker for the periodic per-CPU work, ksoftirqd for softirq
// work deferred from interrupts), two periodic daemons that any CPU may run,
// device interrupts and the tick's own cost charged as system time, and
// timer slack on every sleep. The kernel threads are ordinary tasks to the
// balancer: they queue, preempt and count as load. Their phases and the
// interrupts' CPUs are drawn from the run's seeded PRNG, so runs with the
// same seed are identical and runs with different seeds differ, as real
// runs do. ModelParams::os_noise = 0 turns all of it off (for teaching).

#include "engine/simulation.h"

#include <algorithm>
#include <cmath>

namespace schedscope {

namespace {
constexpr std::int64_t kNsPerMs = 1'000'000;
constexpr std::int64_t kNsPerUs = 1'000;
// What the kernel threads touch: per-CPU counters, a softirq's packet and
// timer lists. Small, so they disturb the workload's caches little.
constexpr double kKernelThreadWorkingSetBytes = 16.0 * 1024;
} // namespace

void Simulation::add_os_noise()
{
    const ModelParams &m = cfg_.model;
    const int npu = topo_->pu_count();
    const ProcId kernel = add_process("kernel", 0);
    procs_[kernel].kernel = true;
    auto spec = [&](std::string name, std::vector<Op> ops, CpuSet cpus, SimTime start) {
        TaskSpec s;
        s.name = std::move(name);
        s.program.ops = std::move(ops);
        s.program.iterations = 0; // forever: never holds up the end of a run
        s.working_set_bytes = kKernelThreadWorkingSetBytes;
        s.cpus_allowed = std::move(cpus);
        s.start_ns = start;
        const TaskId id = add_task(kernel, std::move(s));
        tasks_[id].kernel = true;
    };
    const std::int64_t kworker_period = m.noise_kworker_period_ms * kNsPerMs;
    const std::int64_t kworker_run = m.noise_kworker_run_us * kNsPerUs;
    const std::int64_t softirq_run = m.noise_softirq_run_us * kNsPerUs;
    noise_.softirq_channel.assign(static_cast<size_t>(npu), -1);
    for (int cpu = 0; cpu < npu; ++cpu) {
        CpuSet only;
        only.set(cpu);
        if (kworker_period > 0 && kworker_run > 0) {
            // Periodic per-CPU work with a random phase: a fixed period, late
            // by the timer slack each time.
            const SimTime phase = static_cast<SimTime>(rng_.below(static_cast<std::uint64_t>(kworker_period)));
            spec("kworker/" + std::to_string(cpu),
                 {Op{Op::Kind::Compute, kworker_run, 0, -1}, Op{Op::Kind::Sleep, kworker_period, 0, -1}}, only, phase);
        }
        if (softirq_run > 0 && m.noise_softirq_deferred_share > 0) {
            const int ch = add_channel();
            noise_.softirq_channel[static_cast<size_t>(cpu)] = ch;
            spec("ksoftirqd/" + std::to_string(cpu),
                 {Op{Op::Kind::Wait, 0, 0, ch}, Op{Op::Kind::Compute, softirq_run, 0, -1}}, only, 0);
        }
    }
    const struct {
        const char *name;
        std::int64_t period_ms, run_us;
    } daemons[] = {
        {"irqbalance", m.noise_irqbalance_period_ms, m.noise_irqbalance_run_us},
        {"flush", m.noise_flusher_period_ms, m.noise_flusher_run_us},
    };
    for (const auto &d : daemons) {
        const std::int64_t period = d.period_ms * kNsPerMs;
        if (period <= 0 || d.run_us <= 0)
            continue;
        const SimTime phase = static_cast<SimTime>(rng_.below(static_cast<std::uint64_t>(period)));
        spec(d.name, {Op{Op::Kind::Compute, d.run_us * kNsPerUs, 0, -1}, Op{Op::Kind::Sleep, period, 0, -1}}, {},
             phase);
    }
}

bool Simulation::os_noise_tick()
{
    const ModelParams &m = cfg_.model;
    const int npu = static_cast<int>(rqs_.size());
    // The tick itself (scheduler_tick, the timer softirq, accounting) went
    // onto the debts of the running PUs as the tick brought each up to now
    // (advance_all_on_tick, noise_tick_cost_ns): straight onto the debt,
    // since charge_sys would advance it again, and before the congestion
    // update, which reads no debt.
    bool woke = false;
    // Device interrupts over the last tick, each on a CPU drawn at random
    // (irqbalance spreads the vectors); the expected count carries over.
    noise_.irq_due += m.noise_irq_per_s * static_cast<double>(m.tick_ns) / 1e9;
    while (noise_.irq_due >= 1.0) {
        noise_.irq_due -= 1.0;
        const int cpu = static_cast<int>(rng_.below(static_cast<std::uint64_t>(npu)));
        charge_irq(cpu, static_cast<double>(m.noise_irq_ns));
        // A share of the softirq work overflows to ksoftirqd on that CPU.
        const int ch = noise_.softirq_channel.empty() ? -1 : noise_.softirq_channel[static_cast<size_t>(cpu)];
        if (ch >= 0 && rng_.uniform() < m.noise_softirq_deferred_share) {
            post_tokens(ch, 1, cpu);
            woke = true;
        }
    }
    return woke;
}

} // namespace schedscope
