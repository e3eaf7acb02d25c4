// `numa02` and `numa02_SMT`, after the autonuma-benchmark (2012).
//
// One process, NCPUS threads (numa02_SMT: NCPUS/2), 1 GiB of memory; thread
// i bzero()s its own 1 GiB / THREADS slice 800 times (the benchmark's
// TOTALSIZE / SIZE). The memory is first touched node chunk by node chunk:
// part k of NODES equal parts sits on node k, which is where hard binding
// puts the threads that own it. A policy wins by putting each thread on the
// node that holds its slice, or its slice on the node where it runs.
//
// Unlike numa01, the memory is not scaled down: a slice must stay larger
// than a thread's share of the last-level cache (1 GiB / 32 threads =
// 32 MiB against 3 MiB of L3 each on the 4-node sample), or the model would
// serve a bzero stream from cache that no LRU cache could hold. The whole run
// still simulates in well under a second.

#include "engine/simulation.h"
#include "workloads/factories.h"
#include "workloads/workload_support.h"

#include <algorithm>

namespace schedscope {

namespace {

constexpr std::int64_t kNuma02MemoryMiB = 1024; // numa02.c SIZE = 1 GiB
constexpr std::int64_t kNuma02Loops = 800;      // numa02.c TOTALSIZE / SIZE = 800

std::vector<ParamInfo> numa02_params(bool smt)
{
    return {
        {"threads", "0", smt ? "threads (0 = half the PUs, the benchmark's NCPUS/2)" : "threads (0 = one per PU)"},
        {"memory_mb", std::to_string(kNuma02MemoryMiB),
         "process memory, MiB (benchmark: 1024; raised so each slice is at least one chunk)"},
        {"loops", std::to_string(kNuma02Loops), "times each thread writes its slice (benchmark: 800)"},
        {"first_touch", "nodes",
         "nodes: part k of the memory starts on node k | thread: each thread first-touches its slice wherever it runs"},
        {"mem_accesses_per_us", std::to_string(static_cast<int>(kStreamAccessesPerUs)),
         "cache lines written per us of unstalled work (a bzero loop)"},
        {"bind", "none",
         "none | hard | inverse: the benchmark's own binding, thread i on node i/(THREADS/NODES) or "
         "(THREADS-1-i)/(THREADS/NODES), CPUs only (its memory is placed node by node)"},
    };
}

void build_numa02(Simulation &sim, const ParamMap &p, const std::string &source, bool smt)
{
    const std::string what = smt ? "numa02_SMT" : "numa02";
    const Topology &topo = sim.topology();
    const int npu = topo.pu_count();
    const int nodes = std::max(1, topo.numa_count());
    std::int64_t threads = param_int(p, "threads", 0, 0, 100'000, source);
    if (threads == 0)
        threads = smt ? std::max(1, npu / 2) : npu;
    const std::int64_t mem_mb = param_int(p, "memory_mb", kNuma02MemoryMiB, 1, 1 << 24, source);
    const std::int64_t loops = param_int(p, "loops", kNuma02Loops, 1, 1'000'000, source);
    const bool by_nodes = param_choice(p, "first_touch", "nodes", {"nodes", "thread"}, source) == "nodes";
    const double intensity_us = param_double(p, "mem_accesses_per_us", kStreamAccessesPerUs, 0.001, 1e5, source);
    const BenchBind bind = parse_bench_bind(p, source);

    const std::int64_t bytes = std::max(mem_mb * 1024 * 1024, threads * sim.model().chunk_bytes);
    const int chunks = chunks_for_bytes(sim, bytes);
    const ProcId proc = sim.add_process(what, chunks * sim.model().chunk_bytes);
    if (by_nodes)
        for (int n = 0; n < nodes; ++n) {
            const auto [b, e] = slice_chunks(chunks, n, nodes);
            sim.place_chunks(proc, b, e, n);
        }
    for (std::int64_t t = 0; t < threads; ++t) {
        const auto [b, e] = slice_chunks(chunks, static_cast<int>(t), static_cast<int>(threads));
        Simulation::TaskSpec s = bench_writer_task(sim, what + "/" + std::to_string(t), b, e, loops, intensity_us);
        if (bind != BenchBind::None)
            s.cpus_allowed = topo.pus_of_node(
                bench_bind_node(bind, static_cast<int>(t), static_cast<int>(threads), nodes));
        sim.add_task(proc, std::move(s));
    }
}

} // namespace

WorkloadInfo numa02_workload_info()
{
    WorkloadInfo w;
    w.name = "numa02";
    w.description = "autonuma-benchmark numa02: 1 process, one thread per PU, each writing its own slice of the "
                    "process memory 800 times; memory first placed node by node. Elapsed time.";
    w.params = numa02_params(false);
    w.build = [](Simulation &sim, const ParamMap &p, const std::string &src) { build_numa02(sim, p, src, false); };
    return w;
}

WorkloadInfo numa02_smt_workload_info()
{
    WorkloadInfo w;
    w.name = "numa02_SMT";
    w.description = "autonuma-benchmark numa02_SMT: as numa02 with NCPUS/2 threads (one per core on SMT-2 "
                    "machines), so placement can also choose idle cores over busy siblings. Elapsed time.";
    w.params = numa02_params(true);
    w.build = [](Simulation &sim, const ParamMap &p, const std::string &src) { build_numa02(sim, p, src, true); };
    return w;
}

} // namespace schedscope
