#include "engine/model_params.h"

#include "engine/model_params_table.h"
#include "util/input_error.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <type_traits>

namespace schedscope {

namespace {

// The table, and beside it an exact getter for each row, filled by field()
// as it declares the row: the table's text is rounded to ten digits, while
// the profiler compares and copies the values themselves.
struct Declared {
    ParamTable<ModelParams> table;
    std::map<std::string, std::function<double(const ModelParams &)>> number;
};

// One model constant: a real, or a whole number that a value given as real
// rounds to, accepted from `lo` to `hi`; `note` says its meaning and unit.
template <class M>
void field(Declared &d, const char *name, M ModelParams::*member, double lo, double hi, const char *note)
{
    d.table.real_with(
        name,
        [member](ModelParams &m, double v) {
            if constexpr (std::is_integral_v<M>)
                m.*member = static_cast<M>(std::llround(v));
            else
                m.*member = static_cast<M>(v);
        },
        [member](const ModelParams &m) { return std::optional<double>(static_cast<double>(m.*member)); }, lo, hi, "",
        note);
    d.number[name] = [member](const ModelParams &m) { return static_cast<double>(m.*member); };
}

const Declared &declared()
{
    static const Declared d = [] {
        Declared t;
        field(t, "l1_latency_ns", &ModelParams::l1_latency_ns, 0.1, 1e3, "L1 hit latency, ns");
        field(t, "l2_latency_ns", &ModelParams::l2_latency_ns, 0.1, 1e3, "L2 hit latency, ns");
        field(t, "l3_latency_ns", &ModelParams::l3_latency_ns, 0.1, 1e4, "L3 hit latency, ns");
        field(t, "mem_latency_local_ns", &ModelParams::mem_latency_local_ns, 1, 1e5, "local DRAM latency, ns");
        field(t, "mem_latency_remote_ns", &ModelParams::mem_latency_remote_ns, 0, 1e5,
              "DRAM latency at the nearest remote SLIT distance, ns (0 = from SLIT: see slit_latency_factor)");
        field(t, "slit_latency_factor", &ModelParams::slit_latency_factor, 0, 10,
              "remote/local latency = 1 + (SLIT/10 - 1) x this, when no remote latency is given");
        field(t, "cache_line_bytes", &ModelParams::cache_line_bytes, 8, 1024, "cache line size, bytes");
        field(t, "mem_bandwidth_bytes_per_ns", &ModelParams::mem_bandwidth_bytes_per_ns, 0.01, 1e4,
              "memory bandwidth per node, bytes/ns (= GB/s)");
        field(t, "link_bandwidth_bytes_per_ns", &ModelParams::link_bandwidth_bytes_per_ns, 0.01, 1e4,
              "interconnect bandwidth between two directly linked nodes, each direction, bytes/ns (/ hops beyond SLIT "
              "20)");
        field(t, "link_packet_header_bytes", &ModelParams::link_packet_header_bytes, 0, 1024,
              "link bytes ahead of each line sent over it (packet header), bytes");
        field(t, "link_message_bytes", &ModelParams::link_message_bytes, 0, 1024,
              "link bytes sent the other way for each line transferred (read request or write completion), bytes");
        field(t, "cache_fill_bytes_per_ns", &ModelParams::cache_fill_bytes_per_ns, 0.01, 1e4,
              "max cache refill rate of one core, bytes/ns");
        field(t, "page_copy_bytes_per_ns", &ModelParams::page_copy_bytes_per_ns, 0.01, 1e4,
              "page migration copy rate, bytes/ns");
        field(t, "queueing_max_utilisation", &ModelParams::queueing_max_utilisation, 0, 0.99,
              "queueing below saturation at memory and links: M/D/1 up to this utilisation, linear past it (0 = none)");
        field(t, "mem_misses_in_flight", &ModelParams::mem_misses_in_flight, 1, 256,
              "cache lines a sequential stream keeps in flight (misses + prefetches); dependent accesses get 1");
        field(t, "core_in_order", &ModelParams::core_in_order, 0, 1,
              "1 = the core stalls at the first use of a missing load (in-order issue), 0 = out of order");
        field(t, "cpu_clock_ghz", &ModelParams::cpu_clock_ghz, 0.01, 100,
              "core clock, GHz: compute runs at clock / 2.5 GHz of the workloads' figures");
        field(t, "smt_gain", &ModelParams::smt_gain, 1.0, 2.0, "throughput of two busy SMT siblings relative to one");
        field(t, "mem_accesses_per_us", &ModelParams::mem_accesses_per_us, 0, 1e6,
              "default accesses past L1 per us of compute");
        field(t, "default_cache_size_bytes", &ModelParams::default_cache_size_bytes, 1024, 1e12,
              "cache size assumed when the topology has none, bytes");
        field(t, "tick_ns", &ModelParams::tick_ns, 10'000, 1'000'000'000, "scheduler tick, ns (HZ=1000 -> 1000000)");
        field(t, "context_switch_ns", &ModelParams::context_switch_ns, 0, 1e9, "context switch cost, ns");
        field(t, "task_migration_ns", &ModelParams::task_migration_ns, 0, 1e9, "task migration bookkeeping cost, ns");
        field(t, "rq_lock_hold_ns", &ModelParams::rq_lock_hold_ns, 0, 1e9, "runqueue lock hold time of an enqueue, ns");
        field(t, "rq_remote_enqueue_lines", &ModelParams::rq_remote_enqueue_lines, 0, 64,
              "runqueue lines a remote enqueue moves under the lock");
        field(t, "rq_lock_local_ns", &ModelParams::rq_lock_local_ns, 0, 1e9, "uncontended local runqueue lock, ns");
        field(t, "rq_lock_remote_ns", &ModelParams::rq_lock_remote_ns, 0, 1e9,
              "runqueue lock line transfer from another package, ns");
        field(t, "ipi_ns", &ModelParams::ipi_ns, 0, 1e9, "inter-processor interrupt, ns");
        field(t, "hinting_fault_ns", &ModelParams::hinting_fault_ns, 0, 1e9, "NUMA hinting fault cost, ns");
        field(t, "scan_ns_per_page", &ModelParams::scan_ns_per_page, 0, 1e6, "NUMA scanner cost per page armed, ns");
        field(t, "os_noise", &ModelParams::os_noise, 0, 1,
              "OS noise: kernel threads, interrupts, tick cost, timer slack (1 = on, 0 = off)");
        field(t, "noise_kworker_period_ms", &ModelParams::noise_kworker_period_ms, 0, 1e7,
              "per-CPU kworker period, ms (0 = none)");
        field(t, "noise_kworker_run_us", &ModelParams::noise_kworker_run_us, 0, 1e7, "per-CPU kworker run time, us");
        field(t, "noise_irq_per_s", &ModelParams::noise_irq_per_s, 0, 1e8,
              "device interrupts per second over the machine");
        field(t, "noise_irq_ns", &ModelParams::noise_irq_ns, 0, 1e9, "cost of one interrupt (handler + softirq), ns");
        field(t, "noise_softirq_deferred_share", &ModelParams::noise_softirq_deferred_share, 0, 1,
              "share of interrupts whose softirq work wakes ksoftirqd");
        field(t, "noise_softirq_run_us", &ModelParams::noise_softirq_run_us, 0, 1e7,
              "ksoftirqd run time per wakeup, us");
        field(t, "noise_irqbalance_period_ms", &ModelParams::noise_irqbalance_period_ms, 0, 1e8,
              "irqbalance daemon period, ms (0 = none)");
        field(t, "noise_irqbalance_run_us", &ModelParams::noise_irqbalance_run_us, 0, 1e7, "irqbalance run time, us");
        field(t, "noise_flusher_period_ms", &ModelParams::noise_flusher_period_ms, 0, 1e8,
              "writeback flusher period, ms (0 = none)");
        field(t, "noise_flusher_run_us", &ModelParams::noise_flusher_run_us, 0, 1e7, "writeback flusher run time, us");
        field(t, "noise_tick_ns", &ModelParams::noise_tick_ns, 0, 1e9, "system time a tick costs a busy CPU, ns");
        field(t, "noise_timer_slack_ns", &ModelParams::noise_timer_slack_ns, 0, 1e9,
              "sleeps end late by up to this, ns");
        field(t, "chunk_bytes", &ModelParams::chunk_bytes, 4096, 1LL << 34, "granularity of modelled memory, bytes");
        field(t, "page_bytes", &ModelParams::page_bytes, 512, 1LL << 30, "page size, bytes");
        field(t, "page_fault_ns", &ModelParams::page_fault_ns, 0, 1e9,
              "an anonymous page's first-touch fault besides clearing the page, ns");
        field(t, "page_clear_bytes_per_ns", &ModelParams::page_clear_bytes_per_ns, 0.01, 1e4,
              "rate at which the kernel clears a new page, bytes/ns");
        return t;
    }();
    return d;
}

} // namespace

const ParamTable<ModelParams> &model_params_table() { return declared().table; }

const std::vector<ModelParams::Field> &ModelParams::fields()
{
    static const std::vector<Field> out = [] {
        std::vector<Field> f;
        for (const auto &row : model_params_table().fields())
            f.push_back({row.info.name.c_str(), row.info.description.c_str()});
        return f;
    }();
    return out;
}

void ModelParams::set(const std::string &name, double value, const std::string &source)
{
    for (const auto &row : model_params_table().fields()) {
        if (name != row.info.name)
            continue;
        // The shortest text that reads back as the same double.
        char text[64];
        const auto r = std::to_chars(text, text + sizeof text, value);
        row.set(*this, std::string(text, r.ptr), source);
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
    const auto &number = declared().number;
    if (const auto it = number.find(name); it != number.end())
        return it->second(*this);
    throw InputError("model", 0, name, "unknown model constant");
}

} // namespace schedscope
