#pragma once
// The constants of the machine model. Every one has a unit in its name and a
// note on where its default comes from; a scenario may override any of them
// by name ("model": {"mem_latency_local_ns": 90, ...}).
//
// The defaults describe a generic early-2010s x86 server. They are not tuned
// to any calibration target: they are order-of-magnitude figures from vendor
// optimisation manuals and the usual "latency numbers" tables.

#include <cstdint>
#include <string>
#include <vector>

namespace schedscope {

struct ModelParams {
    // --- memory hierarchy latencies (one dependent cache-line access) ---
    double l1_latency_ns = 1.0;         // ~4 cycles at 3-4 GHz
    double l2_latency_ns = 4.0;         // ~12 cycles
    double l3_latency_ns = 15.0;        // ~40-50 cycles on a shared LLC
    double mem_latency_local_ns = 80.0; // local DRAM; remote = local x SLIT/10
    double cache_line_bytes = 64.0;     // x86 line size when hwloc does not say

    // --- bandwidths ---
    double mem_bandwidth_bytes_per_ns = 10.0; // 10 GB/s per node, one DDR3 channel pair
    // One link between two nodes (SLIT 20), both directions; a pair at SLIT d gets 1 / ((d - 10) / 10) of it.
    double link_bandwidth_bytes_per_ns = 5.0; // QPI / HyperTransport: remote STREAM gets ~half of local
    double cache_fill_bytes_per_ns = 5.0;     // one core refilling its caches: ~half a node's bandwidth
    double page_copy_bytes_per_ns = 2.0;      // kernel page migration, ~2 GB/s (copy + TLB work)
    // Below saturation a memory controller or link still queues: each line
    // waits an M/D/1 u / (2 (1 - u)) line transfer times at utilisation u,
    // up to this utilisation (0 = no queueing); past it the wait rises along
    // the curve's tangent, so it stays finite at saturation.
    double queueing_max_utilisation = 0.9;

    // --- execution ---
    double smt_gain = 1.25;            // two busy siblings deliver 1.25x one thread (Intel HT figures)
    double mem_accesses_per_us = 20.0; // a memory-bound task's cache-line touches per us of pure compute
    double default_cache_size_bytes = 2.0 * 1024 * 1024; // when a topology has no cache sizes (numactl input)

    // --- scheduler costs (charged as system time) ---
    std::int64_t tick_ns = 1'000'000;           // HZ=1000
    std::int64_t context_switch_ns = 2'000;     // switch + cache-cold kernel path, ~2 us
    std::int64_t task_migration_ns = 5'000;     // dequeue/enqueue across runqueues, ~5 us
    std::int64_t rq_lock_hold_ns = 300;         // critical section of an enqueue under the rq lock
    std::int64_t rq_lock_local_ns = 50;         // uncontended lock of a local, cache-hot rq lock
    std::int64_t rq_lock_remote_ns = 400;       // lock line bounce to another package; x SLIT/10 across nodes
    std::int64_t ipi_ns = 1'500;                // reschedule IPI send + receive
    std::int64_t hinting_fault_ns = 1'500;      // NUMA hinting fault: trap, lookup, stats (~1-2 us)
    std::int64_t scan_ns_per_page = 20;         // unmapping a PTE to arm a hinting fault
    std::int64_t chunk_bytes = 4 * 1024 * 1024; // memory modelled in 4 MiB chunks (3 GiB = 768 chunks)
    std::int64_t page_bytes = 4096;

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
};

} // namespace schedscope
