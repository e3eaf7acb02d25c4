// `numa02` and `numa02_SMT`, after the autonuma-benchmark (2012).
//
// One process, NCPUS threads (numa02_SMT: NCPUS/2), 1 GiB of memory; thread
// i bzero()s its own 1 GiB / THREADS slice 800 times (the benchmark's
// TOTALSIZE / SIZE). Before creating the threads, main() writes the memory
// part by part, calling bind(k) before part k of NODES; bind() sets the CPU
// and memory binding only in the _HARD_BIND and _INVERSE_BIND builds and is
// empty in the plain ones (numa02.c, autonuma-benchmark, July 2012). So
// under hard and inverse binding part k sits on node k, where hard binding
// puts the threads that own it; in the plain numa02 and numa02_SMT every
// page is first written by main() from one CPU and all of it sits on that
// CPU's node. main()'s write is inside the timed run: its faults are the
// process's system time and the threads start after it. A policy wins by
// putting each thread on the node that holds its slice, or its slice on the
// node where it runs.
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

// Where the memory starts: as the build's main() writes it (auto), all on
// main()'s node, part k on node k, or left to each thread's first write.
enum class FirstTouch { Auto, Main, Nodes, Thread };

// The node main() runs on when it writes the memory: nothing binds main()
// and the kernel keeps a lone running thread where it started, so all of it
// lands on one node; on a machine whose nodes are alike any one is the same
// case, and node 0 stands for it.
constexpr int kMainNode = 0;

struct Numa02Params {
    bool smt = false; // numa02_SMT: not a parameter, the table's prototype sets it
    std::int64_t threads = 0;
    std::int64_t memory_mb = kNuma02MemoryMiB;
    std::int64_t loops = kNuma02Loops;
    FirstTouch first_touch = FirstTouch::Auto;
    double mem_accesses_per_us = kStreamAccessesPerUs;
    BenchBind bind = BenchBind::None;
};

ParamTable<Numa02Params> numa02_table(bool smt)
{
    Numa02Params proto;
    proto.smt = smt;
    ParamTable<Numa02Params> t(proto);
    t.integer("threads", &Numa02Params::threads, 0, 100'000, "",
              smt ? "threads (0 = half the PUs, the benchmark's NCPUS/2)" : "threads (0 = one per PU)");
    t.integer("memory_mb", &Numa02Params::memory_mb, 1, 1 << 24, "MiB",
              "process memory, MiB (benchmark: 1024; raised so each slice is at least one chunk)");
    t.integer("loops", &Numa02Params::loops, 1, 1'000'000, "", "times each thread writes its slice (benchmark: 800)");
    t.choice<FirstTouch>("first_touch", &Numa02Params::first_touch,
                         {{"auto", FirstTouch::Auto},
                          {"main", FirstTouch::Main},
                          {"nodes", FirstTouch::Nodes},
                          {"thread", FirstTouch::Thread}},
                         "auto: as the benchmark's main() writes it, main with bind=none, nodes with bind=hard|inverse "
                         "| main: all of it on node 0, written by main() before the threads start | nodes: part k of "
                         "the memory starts on node k | thread: each thread first-touches its slice wherever it runs");
    t.real("mem_accesses_per_us", &Numa02Params::mem_accesses_per_us, 0.001, 1e5, "1/us",
           "cache lines written per us of unstalled work (a bzero loop)");
    t.choice<BenchBind>(
        "bind", &Numa02Params::bind, bench_bind_choices(),
        "none | hard | inverse: the benchmark's own binding, thread i on node i/(THREADS/NODES) or "
        "(THREADS-1-i)/(THREADS/NODES), CPUs and MPOL_BIND (its memory placed node by node, never moved by NUMA "
        "balancing)");
    return t;
}

void build_numa02(Simulation &sim, const Numa02Params &p, const std::string &)
{
    const bool smt = p.smt;
    const std::string what = smt ? "numa02_SMT" : "numa02";
    const Topology &topo = sim.topology();
    const int npu = topo.pu_count();
    const int nodes = std::max(1, topo.numa_count());
    std::int64_t threads = p.threads;
    if (threads == 0)
        threads = smt ? std::max(1, npu / 2) : npu;
    const std::int64_t mem_mb = p.memory_mb;
    const std::int64_t loops = p.loops;
    FirstTouch first_touch = p.first_touch;
    if (first_touch == FirstTouch::Auto)
        first_touch = p.bind == BenchBind::None ? FirstTouch::Main : FirstTouch::Nodes;
    const double intensity_us = p.mem_accesses_per_us;
    const BenchBind bind = p.bind;

    const std::int64_t bytes = std::max(mem_mb * 1024 * 1024, threads * sim.model().chunk_bytes);
    const int chunks = chunks_for_bytes(sim, bytes);
    // The binding builds' bind() also sets MPOL_BIND (numa02.c), on main()
    // before it writes part k and on every thread it creates: the memory is
    // under a policy the program set, not the default one. Each thread's
    // mask is its own node; the process as a whole may use every node.
    CpuSet all_nodes(nodes);
    for (int n = 0; n < nodes; ++n)
        all_nodes.set(n);
    const ProcId proc = bind == BenchBind::None
                            ? sim.add_process(what, chunks * sim.model().chunk_bytes)
                            : sim.add_process(what, chunks * sim.model().chunk_bytes, AllocPolicy::Bind, all_nodes);
    // main()'s write, before it creates the threads, is part of the run
    // that `time` measures: main() takes the pages' first-touch faults, one
    // part after the other, and the threads start once it is done. Under
    // bind() main() moves to node k before part k, so each part is a task
    // of its own on that node, created by the one before (the same thread,
    // bound anew); without it main() writes everything from one CPU, which
    // stands on kMainNode. A chunk main()'s sampled touches miss (a few in
    // a hundred) owes its faults to the first thread that touches it.
    TaskId creator = -1;
    const auto add_main_part = [&](const std::string &name, int b, int e, int node) {
        sim.place_chunks(proc, b, e, node);
        Simulation::TaskSpec s = bench_writer_task(sim, name, b, e, 1, intensity_us);
        s.cpus_allowed = topo.pus_of_node(node);
        s.created_by = creator;
        creator = sim.add_task(proc, std::move(s));
    };
    if (first_touch == FirstTouch::Nodes)
        for (int n = 0; n < nodes; ++n) {
            const auto [b, e] = slice_chunks(chunks, n, nodes);
            add_main_part(what + "/main." + std::to_string(n), b, e, n);
        }
    else if (first_touch == FirstTouch::Main)
        add_main_part(what + "/main", 0, chunks, std::min(kMainNode, nodes - 1));
    sim.mark_first_write_in_run(proc);
    for (std::int64_t t = 0; t < threads; ++t) {
        const auto [b, e] = slice_chunks(chunks, static_cast<int>(t), static_cast<int>(threads));
        Simulation::TaskSpec s = bench_writer_task(sim, what + "/" + std::to_string(t), b, e, loops, intensity_us);
        if (bind != BenchBind::None)
            s.cpus_allowed = topo.pus_of_node(
                bench_bind_node(bind, static_cast<int>(t), static_cast<int>(threads), nodes));
        s.created_by = creator;
        sim.add_task(proc, std::move(s));
    }
}

} // namespace

WorkloadInfo numa02_workload_info()
{
    static const ParamTable<Numa02Params> table = numa02_table(false);
    return workload_info<Numa02Params>(
        "numa02",
        "autonuma-benchmark numa02: 1 process, one thread per PU, each writing its own slice of the process memory "
        "800 times; memory first written by main(), all on one node (node by node under bind=hard|inverse). "
        "Elapsed time.",
        table, build_numa02);
}

WorkloadInfo numa02_smt_workload_info()
{
    static const ParamTable<Numa02Params> table = numa02_table(true);
    return workload_info<Numa02Params>(
        "numa02_SMT",
        "autonuma-benchmark numa02_SMT: as numa02 with NCPUS/2 threads (one per core on SMT-2 machines), so "
        "placement can also choose idle cores over busy siblings. Elapsed time.",
        table, build_numa02);
}

} // namespace schedscope
