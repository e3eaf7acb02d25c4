#include "engine/model_params.h"

#include "util/input_error.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace schedscope {

namespace {

struct Accessor {
    ModelParams::Field field;
    std::function<double(const ModelParams &)> get;
    std::function<void(ModelParams &, double)> set;
    double min, max; // accepted range, inclusive
};

#define SS_DOUBLE(name, lo, hi, note)                                                                                  \
    Accessor                                                                                                           \
    {                                                                                                                  \
        {#name, note}, [](const ModelParams &m) { return m.name; }, [](ModelParams &m, double v) { m.name = v; }, lo,  \
            hi                                                                                                         \
    }
#define SS_INT(name, lo, hi, note)                                                                                     \
    Accessor                                                                                                           \
    {                                                                                                                  \
        {#name, note}, [](const ModelParams &m) { return static_cast<double>(m.name); },                               \
            [](ModelParams &m, double v) { m.name = static_cast<std::int64_t>(std::llround(v)); }, lo, hi              \
    }

const std::vector<Accessor> &accessors()
{
    static const std::vector<Accessor> table = {
        SS_DOUBLE(l1_latency_ns, 0.1, 1e3, "L1 hit latency, ns"),
        SS_DOUBLE(l2_latency_ns, 0.1, 1e3, "L2 hit latency, ns"),
        SS_DOUBLE(l3_latency_ns, 0.1, 1e4, "L3 hit latency, ns"),
        SS_DOUBLE(mem_latency_local_ns, 1, 1e5, "local DRAM latency, ns"),
        SS_DOUBLE(mem_latency_remote_ns, 0, 1e5,
                  "DRAM latency at the nearest remote SLIT distance, ns (0 = from SLIT: see slit_latency_factor)"),
        SS_DOUBLE(slit_latency_factor, 0, 10,
                  "remote/local latency = 1 + (SLIT/10 - 1) x this, when no remote latency is given"),
        SS_DOUBLE(cache_line_bytes, 8, 1024, "cache line size, bytes"),
        SS_DOUBLE(mem_bandwidth_bytes_per_ns, 0.01, 1e4, "memory bandwidth per node, bytes/ns (= GB/s)"),
        SS_DOUBLE(link_bandwidth_bytes_per_ns, 0.01, 1e4,
                  "interconnect bandwidth between two directly linked nodes, each direction, bytes/ns (/ hops beyond "
                  "SLIT 20)"),
        SS_DOUBLE(link_packet_header_bytes, 0, 1024,
                  "link bytes ahead of each line sent over it (packet header), bytes"),
        SS_DOUBLE(link_message_bytes, 0, 1024,
                  "link bytes sent the other way for each line transferred (read request or write completion), "
                  "bytes"),
        SS_DOUBLE(cache_fill_bytes_per_ns, 0.01, 1e4, "max cache refill rate of one core, bytes/ns"),
        SS_DOUBLE(page_copy_bytes_per_ns, 0.01, 1e4, "page migration copy rate, bytes/ns"),
        SS_DOUBLE(
            queueing_max_utilisation, 0, 0.99,
            "queueing below saturation at memory and links: M/D/1 up to this utilisation, linear past it (0 = none)"),
        SS_DOUBLE(mem_misses_in_flight, 1, 256,
                  "cache lines a sequential stream keeps in flight (misses + prefetches); dependent accesses get 1"),
        SS_DOUBLE(cpu_clock_ghz, 0.01, 100,
                  "core clock, GHz: compute runs at clock / 2.5 GHz of the workloads' figures"),
        SS_DOUBLE(smt_gain, 1.0, 2.0, "throughput of two busy SMT siblings relative to one"),
        SS_DOUBLE(mem_accesses_per_us, 0, 1e6, "default accesses past L1 per us of compute"),
        SS_DOUBLE(default_cache_size_bytes, 1024, 1e12, "cache size assumed when the topology has none, bytes"),
        SS_INT(tick_ns, 10'000, 1'000'000'000, "scheduler tick, ns (HZ=1000 -> 1000000)"),
        SS_INT(context_switch_ns, 0, 1e9, "context switch cost, ns"),
        SS_INT(task_migration_ns, 0, 1e9, "task migration bookkeeping cost, ns"),
        SS_INT(rq_lock_hold_ns, 0, 1e9, "runqueue lock hold time of an enqueue, ns"),
        SS_INT(rq_remote_enqueue_lines, 0, 64, "runqueue lines a remote enqueue moves under the lock"),
        SS_INT(rq_lock_local_ns, 0, 1e9, "uncontended local runqueue lock, ns"),
        SS_INT(rq_lock_remote_ns, 0, 1e9, "runqueue lock line transfer from another package, ns"),
        SS_INT(ipi_ns, 0, 1e9, "inter-processor interrupt, ns"),
        SS_INT(hinting_fault_ns, 0, 1e9, "NUMA hinting fault cost, ns"),
        SS_INT(scan_ns_per_page, 0, 1e6, "NUMA scanner cost per page armed, ns"),
        SS_DOUBLE(os_noise, 0, 1, "OS noise: kernel threads, interrupts, tick cost, timer slack (1 = on, 0 = off)"),
        SS_INT(noise_kworker_period_ms, 0, 1e7, "per-CPU kworker period, ms (0 = none)"),
        SS_INT(noise_kworker_run_us, 0, 1e7, "per-CPU kworker run time, us"),
        SS_DOUBLE(noise_irq_per_s, 0, 1e8, "device interrupts per second over the machine"),
        SS_INT(noise_irq_ns, 0, 1e9, "cost of one interrupt (handler + softirq), ns"),
        SS_DOUBLE(noise_softirq_deferred_share, 0, 1, "share of interrupts whose softirq work wakes ksoftirqd"),
        SS_INT(noise_softirq_run_us, 0, 1e7, "ksoftirqd run time per wakeup, us"),
        SS_INT(noise_irqbalance_period_ms, 0, 1e8, "irqbalance daemon period, ms (0 = none)"),
        SS_INT(noise_irqbalance_run_us, 0, 1e7, "irqbalance run time, us"),
        SS_INT(noise_flusher_period_ms, 0, 1e8, "writeback flusher period, ms (0 = none)"),
        SS_INT(noise_flusher_run_us, 0, 1e7, "writeback flusher run time, us"),
        SS_INT(noise_tick_ns, 0, 1e9, "system time a tick costs a busy CPU, ns"),
        SS_INT(noise_timer_slack_ns, 0, 1e9, "sleeps end late by up to this, ns"),
        SS_INT(chunk_bytes, 4096, 1LL << 34, "granularity of modelled memory, bytes"),
        SS_INT(page_bytes, 512, 1LL << 30, "page size, bytes"),
    };
    return table;
}

#undef SS_DOUBLE
#undef SS_INT

} // namespace

const std::vector<ModelParams::Field> &ModelParams::fields()
{
    static const std::vector<Field> out = [] {
        std::vector<Field> f;
        for (auto &a : accessors())
            f.push_back(a.field);
        return f;
    }();
    return out;
}

void ModelParams::set(const std::string &name, double value, const std::string &source)
{
    for (auto &a : accessors()) {
        if (name != a.field.name)
            continue;
        if (!std::isfinite(value) || value < a.min || value > a.max)
            throw InputError(source, 0, name,
                             "value " + std::to_string(value) + " is out of range [" + std::to_string(a.min) + ", " +
                                 std::to_string(a.max) + "]");
        a.set(*this, value);
        return;
    }
    throw InputError(source, 0, name, "unknown model constant");
}

void ModelParams::apply_machine_figures(const Topology &topo)
{
    for (const MachineFigure &f : topo.figures()) {
        try {
            set(f.name, f.value, topo.source());
        } catch (const InputError &e) {
            throw InputError(topo.source(), f.line, {}, "model constant '" + f.name + "': " + e.message());
        }
    }
}

double ModelParams::latency_ratio(int slit, int nearest_remote) const
{
    constexpr int kLocal = 10; // SLIT's local distance
    if (slit <= kLocal)
        return 1.0;
    if (mem_latency_remote_ns > 0 && nearest_remote > kLocal) {
        const double extra = (mem_latency_remote_ns - mem_latency_local_ns) / mem_latency_local_ns;
        return std::max(1.0, 1.0 + extra * (slit - kLocal) / (nearest_remote - kLocal));
    }
    return 1.0 + (slit / static_cast<double>(kLocal) - 1.0) * slit_latency_factor;
}

double ModelParams::get(const std::string &name) const
{
    for (auto &a : accessors())
        if (name == a.field.name)
            return a.get(*this);
    throw InputError("model", 0, name, "unknown model constant");
}

} // namespace schedscope
