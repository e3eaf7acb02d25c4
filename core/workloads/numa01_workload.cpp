// `numa01` and `numa01_THREAD_ALLOC`, after the autonuma-benchmark (2012).
//
// The benchmark forks two processes with NCPUS/2 threads each. Each process
// allocates 3 GiB, and every thread first bzero()s all of it, all threads at
// once. Where that first write lands depends on the build and the revision
// of numa01.c (docs/workloads.md): with NO_BIND_FORCE_SAME_NODE it is bound
// to `nodemask_global`, node 0 or 1 (the 2012 revisions, as docs/background.md
// section 4 describes them; the default here), or to
// `memmask_global`, one half of the nodes (the libnuma rewrite of 2021,
// whose Makefile builds numa01 and THREAD_ALLOC that way): first_write=half.
// Every 2012 table ran the former: the repository's Makefile builds numa01
// with the flag from July 2012 and THREAD_ALLOC from 2012-07-15 on.
// Without it each page lands on the node of the thread that writes it
// first, spread over the machine: first_write=threads. Then every thread
// bzero()s the whole 3 GiB 50 times (numa01), or its own 3 GiB / THREADS
// slice 1000 times (THREAD_ALLOC); the first bzero() is one more pass of
// numa01's. The _HARD_BIND and _INVERSE_BIND builds set each process's CPU
// affinity and memory policy (MPOL_BIND) in main(), and its threads then
// write first from inside or outside that mask; under the repository's 2012
// revision both processes' memory is bound to the second half of the nodes
// (inverse_memory). A policy wins by putting each process's
// threads and its memory on the same nodes: possible on 2 nodes, only
// partly on more.
//
// Sizes are scaled down (memory / 8) so runs stay short; since the work per
// pass scales with the memory, the ratio of a NUMA scanner's full pass
// (MB/s) to the run length stays what it was. Repetition counts are kept.

#include "engine/simulation.h"
#include "workloads/factories.h"
#include "workloads/workload_support.h"

#include <algorithm>

namespace schedscope {

namespace {

// The benchmark's 3 GiB per process, divided by the scale factor.
constexpr std::int64_t kNuma01ScaleFactor = 8;
constexpr std::int64_t kNuma01MemoryMiB = 3072 / kNuma01ScaleFactor; // numa01.c SIZE = 3 GiB
constexpr std::int64_t kNuma01Loops = 50;                            // numa01.c nr = 50
constexpr std::int64_t kNuma01ThreadAllocLoops = 1000;               // numa01.c nr = 1000 with THREAD_ALLOC
constexpr std::int64_t kNuma01Processes = 2;                         // numa01.c forks once
constexpr std::int64_t kNuma01FirstPasses = 1; // numa01.c thread(): bzero(p_global, SIZE) before its nr loops

enum class FirstWrite { Node, Half, Threads };

// Where _INVERSE_BIND puts each process's memory. The March 2012 numa01.c
// (posted to linux-mm with AutoNUMA alpha6) swaps the two nodemasks: each
// process's memory on the other half from its threads. The revision the
// benchmark's repository generates per machine from June 2012 on
// (numa01.c + preproc.awk, as of September 2012) tests NODEMASK1 in both
// branches of that swap: the first process's memory goes to the second
// half, the second process keeps the second half, where its threads run.
// So both processes' memory sits on the second half of the nodes, one
// process local to it and one remote.
enum class InverseMemory { Swap, SecondHalf };

struct Numa01Params {
    bool thread_alloc = false; // numa01_THREAD_ALLOC: not a parameter, the table's prototype sets it
    std::int64_t threads = 0;
    std::int64_t memory_mb = kNuma01MemoryMiB;
    std::int64_t loops = kNuma01Loops;
    FirstWrite first_write = FirstWrite::Node;
    std::int64_t first_node = 0;
    double mem_accesses_per_us = kStreamAccessesPerUs;
    BenchBind bind = BenchBind::None;
    InverseMemory inverse_memory = InverseMemory::SecondHalf;
};

// The largest node number a parameter may name before the machine is known;
// build checks it against the machine's nodes.
constexpr std::int64_t kMaxNodeNumber = 1 << 16;

ParamTable<Numa01Params> numa01_table(bool thread_alloc)
{
    Numa01Params proto;
    proto.thread_alloc = thread_alloc;
    proto.loops = thread_alloc ? kNuma01ThreadAllocLoops : kNuma01Loops;
    ParamTable<Numa01Params> t(proto);
    t.integer("threads", &Numa01Params::threads, 0, 100'000, "",
              "threads per process (0 = half the PUs, as the benchmark's NCPUS/2)");
    t.integer("memory_mb", &Numa01Params::memory_mb, 1, 1 << 24, "MiB",
              "memory per process, MiB (benchmark: 3072; default scaled down by " + std::to_string(kNuma01ScaleFactor) +
                  ")");
    t.integer("loops", &Numa01Params::loops, 1, 1'000'000, "",
              thread_alloc ? "times each thread writes its own slice (benchmark: 1000)"
                           : "times each thread writes the whole process memory (benchmark: 50)");
    t.choice<FirstWrite>(
        "first_write", &Numa01Params::first_write,
        {{"node", FirstWrite::Node}, {"half", FirstWrite::Half}, {"threads", FirstWrite::Threads}},
        "node | half | threads: where both processes' memory is first written (node = all of it on first_node, "
        "as numa01.c's NO_BIND_FORCE_SAME_NODE build does in its 2012 revisions; half = spread over the half of "
        "the nodes holding first_node, as the same build does in the 2021 libnuma rewrite; threads = each "
        "page on the node of the thread that writes it first, as the build without it does). All the same on "
        "2 nodes but threads");
    t.integer("first_node", &Numa01Params::first_node, 0, kMaxNodeNumber, "",
              "the node (first_write=node) or a node of the half (first_write=half) written first");
    t.real("mem_accesses_per_us", &Numa01Params::mem_accesses_per_us, 0.001, 1e5, "1/us",
           "cache lines written per us of unstalled work (a bzero loop)");
    t.choice<BenchBind>("bind", &Numa01Params::bind, bench_bind_choices(),
                        "none | hard | inverse: the benchmark's own _HARD_BIND / _INVERSE_BIND (process p's threads "
                        "and memory on its half of the nodes, or its threads on the other half)");
    t.choice<InverseMemory>("inverse_memory", &Numa01Params::inverse_memory,
                            {{"second_half", InverseMemory::SecondHalf}, {"swap", InverseMemory::Swap}},
                            "second_half | swap: where bind=inverse puts the memory. second_half: both processes' "
                            "memory on the second half of the nodes, as the benchmark repository's 2012 numa01.c "
                            "does (its nodemask swap tests NODEMASK1 twice, so the second process keeps its own "
                            "half); swap: each process's memory on the half its threads do not run on, as the "
                            "March 2012 numa01.c posted with AutoNUMA alpha6");
    return t;
}

// Chunk c on nodes[c % size]: pages written by threads spread over `nodes`.
void spread_chunks(Simulation &sim, ProcId proc, int chunks, const std::vector<int> &nodes)
{
    for (int c = 0; c < chunks; ++c)
        sim.place_chunks(proc, c, c + 1, nodes[static_cast<size_t>(c) % nodes.size()]);
}

void build_numa01(Simulation &sim, const Numa01Params &p, const std::string &source)
{
    const bool thread_alloc = p.thread_alloc;
    const std::string what = thread_alloc ? "numa01_THREAD_ALLOC" : "numa01";
    const Topology &topo = sim.topology();
    const int npu = topo.pu_count();
    const int nodes = std::max(1, topo.numa_count());
    std::int64_t threads = p.threads;
    if (threads == 0)
        threads = std::max(1, npu / 2);
    const std::int64_t mem_mb = p.memory_mb;
    const std::int64_t loops = p.loops;
    require_in_range(p.first_node, 0, nodes - 1, "first_node", source);
    const int first_node = static_cast<int>(p.first_node);
    const FirstWrite first_write = p.first_write;
    const double intensity_us = p.mem_accesses_per_us;
    const BenchBind bind = p.bind;

    // Each thread's slice must be at least a chunk of the model's memory.
    std::int64_t bytes = mem_mb * 1024 * 1024;
    if (thread_alloc)
        bytes = std::max(bytes, threads * sim.model().chunk_bytes);
    const int chunks = chunks_for_bytes(sim, bytes);

    // numa01.c splits the nodes into two halves (the first nodes/2 and the
    // rest) for its binding, and the 2021 libnuma rewrite for the first write.
    const auto half_of = [nodes](int n) { return (n * 2) / nodes; };
    // Where the first write lands: one node, one half (all threads write at
    // once, so the pages spread over it), or every node with CPUs.
    std::vector<int> first_nodes;
    for (int n = 0; n < nodes; ++n) {
        const bool in = first_write == FirstWrite::Node   ? n == first_node
                        : first_write == FirstWrite::Half ? half_of(n) == half_of(first_node)
                                                          : !topo.pus_of_node(n).empty();
        if (in)
            first_nodes.push_back(n);
    }
    if (first_nodes.empty())
        first_nodes.push_back(first_node);

    for (int proc_i = 0; proc_i < kNuma01Processes; ++proc_i) {
        // Hard bind gives process p the nodes of its half of the machine;
        // inverse bind puts its threads on the other half. The memory's
        // half: the process's own, or under inverse binding the other one
        // (swap) or the second one for both (second_half).
        const int mem_half = bind != BenchBind::Inverse                ? proc_i
                             : p.inverse_memory == InverseMemory::Swap ? 1 - proc_i
                                                                       : 1;
        CpuSet home_nodes, cpu_nodes;
        for (int n = 0; n < nodes; ++n) {
            const int half = nodes >= 2 ? half_of(n) : proc_i;
            if (half == mem_half)
                home_nodes.set(n);
            if (half == proc_i)
                cpu_nodes.set(n);
        }
        const AllocPolicy alloc = bind == BenchBind::None ? AllocPolicy::FirstTouch : AllocPolicy::Bind;
        const ProcId proc = sim.add_process(what + "." + std::to_string(proc_i), chunks * sim.model().chunk_bytes,
                                            alloc, bind == BenchBind::None ? CpuSet{} : home_nodes);
        if (bind == BenchBind::None) {
            spread_chunks(sim, proc, chunks, first_nodes);
        } else {
            // Bound runs first-write under the process's own memory policy
            // (MPOL_BIND to its half), from its threads' nodes: hard binding
            // from inside the mask (spread over the half), inverse binding
            // from outside (all on one node of it).
            spread_chunks(sim, proc, chunks, bind_write_nodes(home_nodes, cpu_nodes));
        }
        // That first write is the threads' own first bzero(), in the run
        // that `time` measures: its page faults are theirs.
        sim.mark_first_write_in_run(proc);
        CpuSet allowed;
        if (bind != BenchBind::None)
            for (int n : cpu_nodes.members())
                for (int cpu : topo.pus_of_node(n).members())
                    allowed.set(cpu);
        for (std::int64_t t = 0; t < threads; ++t) {
            const auto [b, e] = thread_alloc ? slice_chunks(chunks, static_cast<int>(t), static_cast<int>(threads))
                                             : std::pair<int, int>{0, chunks};
            // Each thread's first bzero() of the whole process memory is a
            // pass like the others; under THREAD_ALLOC it covers the other
            // threads' slices too, which a task's one access pattern cannot
            // say, and is left out (3 GiB against 1000 slices of 192 MiB on
            // 32 CPUs: 1.6 % of its writes).
            const std::int64_t passes = thread_alloc ? loops : loops + kNuma01FirstPasses;
            Simulation::TaskSpec s = bench_writer_task(
                sim, what + "." + std::to_string(proc_i) + "/" + std::to_string(t), b, e, passes, intensity_us);
            s.cpus_allowed = allowed;
            sim.add_task(proc, std::move(s));
        }
    }
}

} // namespace

WorkloadInfo numa01_workload_info()
{
    static const ParamTable<Numa01Params> table = numa01_table(false);
    return workload_info<Numa01Params>(
        "numa01",
        "autonuma-benchmark numa01: 2 processes x NCPUS/2 threads; both processes' memory first written on one node "
        "(first_write: or one half of the nodes, or where each writer runs), then every thread writes all of its "
        "process's memory 50 times. Elapsed time.",
        table, build_numa01);
}

WorkloadInfo numa01_thread_alloc_workload_info()
{
    static const ParamTable<Numa01Params> table = numa01_table(true);
    return workload_info<Numa01Params>(
        "numa01_THREAD_ALLOC",
        "autonuma-benchmark numa01_THREAD_ALLOC: as numa01, but each thread writes only its own slice of its "
        "process's memory, 1000 times. Elapsed time.",
        table, build_numa01);
}

} // namespace schedscope
