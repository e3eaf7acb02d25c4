#pragma once
// The constants of the machine model. Every one has a unit in its name and a
// note on where its default comes from; a scenario may override any of them
// by name ("model": {"mem_latency_local_ns": 90, ...}).
//
// The defaults describe a generic early-2010s x86 server. They are not tuned
// to any calibration target: they are order-of-magnitude figures from vendor
// optimisation manuals and the usual "latency numbers" tables.

#include "topology/topology.h"

#include <cstdint>
#include <string>
#include <vector>

namespace schedscope {

// The clock of the core the workloads' compute figures describe (a
// 2010s x86 server core, e.g. a 2.4-2.66 GHz Westmere).
inline constexpr double kWorkReferenceClockGhz = 2.5;

struct ModelParams {
    // --- memory hierarchy latencies (one dependent cache-line access) ---
    double l1_latency_ns = 1.0;         // ~4 cycles at 3-4 GHz
    double l2_latency_ns = 4.0;         // ~12 cycles
    double l3_latency_ns = 15.0;        // ~40-50 cycles on a shared LLC
    double mem_latency_local_ns = 80.0; // local DRAM, one dependent load
    // Remote DRAM at the machine's nearest remote SLIT distance; farther
    // pairs add the same extra per SLIT step. 0 = not known: the SLIT
    // rule below gives it.
    double mem_latency_remote_ns = 0.0;
    // The SLIT fallback: remote / local latency = 1 + (slit / 10 - 1) x this.
    // SLIT is not a latency ratio: a 4-socket Xeon E7-4800 measures 135 /
    // 195-201 ns (1.46) under SLIT 20 (Intel Memory Latency Checker, Intel
    // developer blog, January 2014), a 2-socket Xeon 5570 65 / 106 ns (1.63)
    // under SLIT 21 (Molka et al., PACT 2009): 0.46-0.59, so 0.5.
    double slit_latency_factor = 0.5;
    double cache_line_bytes = 64.0; // x86 line size when hwloc does not say

    // --- bandwidths ---
    double mem_bandwidth_bytes_per_ns = 10.0; // 10 GB/s per node, one DDR3 channel pair
    // One link between two nodes (SLIT 20), in each direction (as QPI and
    // HyperTransport figures are quoted); a pair at SLIT d gets
    // 1 / ((d - 10) / 10) of it. Lines read cross it from the memory's
    // node, lines written back towards it.
    double link_bandwidth_bytes_per_ns = 5.0; // QPI / HyperTransport: remote STREAM gets ~half of local
    // What a line costs the link beyond its own bytes (the link's bandwidth
    // figure counts every payload byte, headers and messages included): a
    // line travels as a data packet, its header ahead of it, and each
    // transfer sends a message the other way (the read request for a line
    // read, the completion for a line written back). Defaults: QPI, whose
    // 12.8 GB/s counts 8 bytes a flit: a line is 8 data flits behind 1
    // header flit, a request or completion 1 flit ("An Introduction to the
    // Intel QuickPath Interconnect", Intel, 2009).
    double link_packet_header_bytes = 8.0;
    double link_message_bytes = 8.0;
    double cache_fill_bytes_per_ns = 5.0; // one core refilling its caches: ~half a node's bandwidth
    double page_copy_bytes_per_ns = 2.0;  // kernel page migration, ~2 GB/s (copy + TLB work)
    // Below saturation a memory controller or link still queues: each line
    // waits an M/D/1 u / (2 (1 - u)) line transfer times at utilisation u,
    // up to this utilisation (0 = no queueing); past it the wait rises along
    // the curve's tangent, so it stays finite at saturation.
    double queueing_max_utilisation = 0.9;

    // --- memory-level parallelism ---
    // Lines a sequential stream keeps in flight (demand misses and hardware
    // or software prefetches together): a streaming access stalls for
    // latency / this, a dependent (pointer-chasing) one for the whole
    // latency. Default: the 10 L1D fill buffers of Nehalem/Westmere cores
    // (Intel 64 and IA-32 Optimization Reference Manual, 2009, section 2.2).
    double mem_misses_in_flight = 10.0;
    // Whether the core issues in order and stalls at the first use of a
    // missing load (Itanium 2: McNairy and Soltis, IEEE Micro 2003). Out of
    // order cores run on past a miss, so independent misses overlap even in
    // code with no prefetch; an in-order core running such code (a load used
    // by the next instruction, no software prefetch) waits out each miss on
    // its own. A workload whose code is like that says so
    // (numa_test_workload.cpp); streams with prefetch, and the other
    // workloads, keep mem_misses_in_flight.
    bool core_in_order = false;

    // --- execution ---
    // The core clock the workloads' compute figures are written for (a
    // 2010s x86 server core); a machine with another clock runs compute
    // proportionally slower or faster (IPC differences are not modelled).
    double cpu_clock_ghz = 2.5;
    double smt_gain = 1.25;            // two busy siblings deliver 1.25x one thread (Intel HT figures)
    double mem_accesses_per_us = 20.0; // a memory-bound task's cache-line touches per us of pure compute
    double default_cache_size_bytes = 2.0 * 1024 * 1024; // when a topology has no cache sizes (numactl input)

    // --- scheduler costs (charged as system time) ---
    std::int64_t tick_ns = 1'000'000;       // HZ=1000
    std::int64_t context_switch_ns = 2'000; // switch + cache-cold kernel path, ~2 us
    std::int64_t task_migration_ns = 5'000; // dequeue/enqueue across runqueues, ~5 us
    std::int64_t rq_lock_hold_ns = 300;     // critical section of an enqueue under the rq lock
    std::int64_t rq_lock_local_ns = 50;     // uncontended lock of a local, cache-hot rq lock
    std::int64_t rq_lock_remote_ns = 400;   // lock line bounce to another package; x latency_ratio across nodes
    // Runqueue lines a remote (locked) enqueue waits for one after the
    // other while it holds the target's lock, besides the lock's own: the
    // lines the target's scheduler wrote last, on the enqueue's dependent
    // chain. 2.6.9 activate_task() -> enqueue_task(): list_add_tail() reads
    // the queue head in the prio array for the tail, then writes the tail
    // task's run_list: two. The bitmap, nr_active and rq->nr_running stores
    // do not depend on them and overlap with them, as independent misses do
    // (mem_misses_in_flight). 2.6.39 ttwu_activate() -> enqueue_task_fair()
    // walks cfs_rq -> curr's sched_entity (update_curr()) and cfs_rq -> the
    // rb-tree's few entries the same way: two or three.
    std::int64_t rq_remote_enqueue_lines = 2;
    std::int64_t ipi_ns = 1'500;                      // reschedule IPI send + receive
    std::int64_t hinting_fault_ns = 1'500;            // NUMA hinting fault: trap, lookup, stats (~1-2 us)
    std::int64_t scan_ns_per_page = 20;               // unmapping a PTE to arm a hinting fault
    std::int64_t chunk_bytes = std::int64_t{4} << 20; // memory modelled in 4 MiB chunks (3 GiB = 768 chunks)
    std::int64_t page_bytes = 4096;

    // --- first touch of anonymous memory (Simulation::first_touch_ns) ---
    // The first write to an anonymous page traps; the kernel allocates a
    // page, clears it and maps it (do_anonymous_page(), mm/memory.c, 2.5.59
    // to 3.x). Charged as system time to the task that touched it, a fault
    // per page_bytes. What a fault costs besides the clearing: the trap and
    // its return, the vma lookup, the allocation, the pte and the page's
    // accounting, and freeing the page at exit. Default, x86-64 of 2009:
    // Andrea Arcangeli's transparent hugepage RFC (linux-mm, 26 October
    // 2009) timed one thread's first and second memset of 3 GiB; the
    // difference is 2.2 us per 4 KiB fault, of which clearing the page at
    // the rate below is 1.4 us.
    double page_fault_ns = 800.0;
    // clear_page()'s rate: a page of stores from one core, as measured
    // (whether the stores read each line first is not known for the x86
    // parts; docs/CALIBRATION.md, seventh round). Default: the same RFC's
    // 2 MiB huge-page faults, 0.72 ms each, nearly all of it clearing:
    // 2.9 GB/s.
    double page_clear_bytes_per_ns = 2.9;

    // --- OS noise (core/engine/os_noise.cpp): what a real machine runs
    // beside the workload. On by default; os_noise = 0 turns all of it off.
    double os_noise = 1.0;
    // A kworker per CPU for the periodic per-CPU work: vmstat_update runs on
    // every CPU each sysctl_stat_interval = HZ, 1 s (mm/vmstat.c, 2.6.x-3.x),
    // folding per-CPU counters into the zones: tens of us.
    std::int64_t noise_kworker_period_ms = 1000;
    std::int64_t noise_kworker_run_us = 20;
    // Device interrupts over the machine, each on a CPU chosen at random
    // (irqbalance spreads the vectors), each a handler plus its softirq.
    // Assumed: a server at moderate network and disk load; a NIC's
    // interrupt moderation alone allows 4,000-20,000 a second (e1000
    // InterruptThrottleRate, dynamic mode).
    double noise_irq_per_s = 2000;
    std::int64_t noise_irq_ns = 5'000;
    // Softirq work that overflows to the CPU's ksoftirqd (__do_softirq
    // gives up after MAX_SOFTIRQ_RESTART = 10 passes, kernel/softirq.c):
    // assumed for one interrupt in ten at that load.
    double noise_softirq_deferred_share = 0.1;
    std::int64_t noise_softirq_run_us = 30;
    // Two periodic daemons any CPU may run: irqbalance rescans every 10 s
    // (its SLEEP_INTERVAL) reading /proc/interrupts and /proc/stat, about a
    // millisecond; the writeback flusher wakes every dirty_writeback_centisecs
    // = 5 s (mm/page-writeback.c), a few hundred us with little dirty data.
    std::int64_t noise_irqbalance_period_ms = 10'000;
    std::int64_t noise_irqbalance_run_us = 1'000;
    std::int64_t noise_flusher_period_ms = 5'000;
    std::int64_t noise_flusher_run_us = 300;
    // The tick's own cost on a busy CPU (scheduler_tick, the timer softirq,
    // time accounting): about a microsecond on a 2010s core.
    std::int64_t noise_tick_ns = 1'000;
    // Sleeps end late by up to the timer slack: 50 us, the default
    // timer_slack_ns of every task (include/linux/init_task.h, 2.6.28+).
    std::int64_t noise_timer_slack_ns = 50'000;

    // Names, for scenario files, the CLI and validation.
    struct Field {
        const char *name;
        const char *unit_note;
    };
    static const std::vector<Field> &fields();
    // Set by name; throws InputError naming the field for unknown names or
    // out-of-range values.
    void set(const std::string &name, double value, const std::string &source);
    double get(const std::string &name) const;

    // Memory latency between nodes at SLIT distance `slit`, over the local
    // latency (1 when local). `nearest_remote` is the machine's smallest
    // remote distance: a known remote latency applies there, and each
    // further SLIT step adds the same extra (a crude stand-in for hops).
    double latency_ratio(int slit, int nearest_remote) const;
    // Sets the machine's own figures (a sample's "model:" lines), checking
    // each name and range; a bad one names the topology file and its line.
    void apply_machine_figures(const Topology &topo);
    // ns a work-ns of compute takes on this machine's clock.
    double compute_ns_per_work_ns() const { return kWorkReferenceClockGhz / cpu_clock_ghz; }
};

} // namespace schedscope
