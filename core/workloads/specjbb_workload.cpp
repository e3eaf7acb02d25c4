// `specjbb`: a SPECjbb-like Java server: `jvms` independent JVM processes
// (one by default), each with its own heap and warehouse threads running
// back-to-back business transactions over it, optionally beside noise
// processes standing in for other VMs on the same host (the 2012 AutoNUMA
// and sched/numa comparisons; the 4-node R910 runs used four JVMs). Each
// warehouse thread mostly touches its own warehouse's objects and now and
// then the rest of its JVM's heap. Since every JVM is a process of its own,
// the `bind` policy's manual pinning binds each JVM's CPUs and memory to a
// node of its own. Throughput: operations (transactions) per second over
// all JVMs.
//
// Who first touches the heap. A warehouse's long-lived objects do not stay
// where its thread allocated them: HotSpot's parallel collector copies the
// survivors of each young collection into the old generation, into
// promotion buffers the GC worker threads claim one after the other from
// its top, so the old generation's pages are first written by the GC
// threads, from whatever CPU each ran on. The model gives each JVM its
// ParallelGCThreads GC threads, which at start-up promote the heap the
// warehouses will read (chunk c by GC thread c mod G: the buffers of all
// GC threads interleave over the generation), and creates the warehouse
// threads once that is done. With no binding the GC threads were spread
// over the machine at clone (SD_BALANCE_FORK), so a JVM's heap lands on
// every node whatever node its warehouses later run on; pinned, all of it
// is on the JVM's node. The young collections after start-up (their CPU
// time and their further promotions) are not modelled.

#include "engine/simulation.h"
#include "workloads/factories.h"
#include "workloads/workload_support.h"

#include <algorithm>

namespace schedscope {

namespace {

constexpr std::int64_t kSpecjbbHeapMiB = 2048; // scaled-down heap; a 2012 run used ~ tens of GB
constexpr std::int64_t kSpecjbbTxnMinUs = 50;  // one business transaction, uniform in [min, max]
constexpr std::int64_t kSpecjbbTxnMaxUs = 150;
constexpr double kSpecjbbAccessesPerUs = 40.0;      // object-graph walks miss L1 a lot
constexpr double kSpecjbbOwnShare = 0.8;            // share of accesses to the thread's own warehouse
constexpr std::int64_t kSpecjbbHotSetKiB = 4096;    // per thread: the warehouse's hot objects
constexpr std::int64_t kSpecjbbNoiseMiB = 512;      // memory per noise VM
constexpr double kSpecjbbNoiseAccessesPerUs = 40.0; // noise VMs are busy, memory-touching guests
// The warehouse threads are created once the start-up collections are done:
// the GC threads copy the heap once (a read and a write of every byte); at
// one node's memory bandwidth that takes 2 x heap / bandwidth, and the
// warehouses start after twice that, a margin for GC threads that share
// CPUs and nodes with other JVMs' (a modelling choice, not a measurement:
// it only has to outlast the copy; SPECjbb2005 itself loads its company
// before a point's warehouse threads start, which takes seconds).
constexpr double kSpecjbbStartupMargin = 2.0;

// HotSpot's default ParallelGCThreads for `cpus` CPUs: all of them up to 8,
// then 5 of every 8 more (OpenJDK 6/7 vm_version.cpp,
// Abstract_VM_Version::nof_parallel_worker_threads(5, 8, 8) on x86). The
// JVMs of 2012 counted the online CPUs (os::active_processor_count() was
// sysconf(_SC_NPROCESSORS_ONLN) on Linux, deaf to numactl's binding until
// JDK 9), so a pinned JVM on the 32-CPU R910 still ran 23 of them.
std::int64_t hotspot_parallel_gc_threads(std::int64_t cpus)
{
    constexpr std::int64_t kSwitchPoint = 8, kNum = 5, kDen = 8;
    return cpus <= kSwitchPoint ? std::max<std::int64_t>(1, cpus) : kSwitchPoint + (cpus - kSwitchPoint) * kNum / kDen;
}

struct SpecjbbParams {
    std::int64_t jvms = 1;
    std::int64_t warehouses = 0; // 0 = PUs / jvms
    std::int64_t heap_mb = kSpecjbbHeapMiB;
    std::int64_t noise = 0;
    std::int64_t noise_threads = 0; // 0 = PUs / nodes
    bool prefault = false;
    std::int64_t gc_threads = 0; // 0 = HotSpot's ParallelGCThreads default for the machine's PUs
};

const ParamTable<SpecjbbParams> &specjbb_table()
{
    static const ParamTable<SpecjbbParams> t = [] {
        ParamTable<SpecjbbParams> t;
        t.integer("jvms", &SpecjbbParams::jvms, 1, 10'000, "",
                  "independent JVM processes, each with its own heap and warehouses");
        t.integer("warehouses", &SpecjbbParams::warehouses, 0, 100'000, "",
                  "warehouse threads per JVM (0 = PUs / jvms)");
        t.integer("heap_mb", &SpecjbbParams::heap_mb, 1, 1 << 24, "MiB", "Java heap per JVM, MiB");
        t.integer("noise", &SpecjbbParams::noise, 0, 10'000, "", "noise processes (other VMs) beside the JVM");
        t.integer("noise_threads", &SpecjbbParams::noise_threads, 0, 100'000, "",
                  "threads per noise process (0 = PUs / node count, a VM the size of a node)");
        t.choice<bool>(
            "prefault", &SpecjbbParams::prefault, {{"none", false}, {"node0", true}},
            "none: the JVM's GC threads first-touch the heap at start-up | node0: the heap starts on node 0");
        t.integer("gc_threads", &SpecjbbParams::gc_threads, 0, 100'000, "",
                  "parallel GC threads per JVM, which promote (first-touch) its heap at start-up (0 = HotSpot's "
                  "ParallelGCThreads default: PUs up to 8, then 8 + 5/8 of the rest)");
        return t;
    }();
    return t;
}

void add_warehouses(Simulation &sim, ProcId jvm, const std::string &jname, std::int64_t warehouses, int chunks,
                    SimTime start_ns)
{
    for (std::int64_t i = 0; i < warehouses; ++i) {
        Simulation::TaskSpec s;
        s.name = jname + "/warehouse" + std::to_string(i);
        s.program.ops = {Op{Op::Kind::Compute, kSpecjbbTxnMinUs * kNsPerUs, kSpecjbbTxnMaxUs * kNsPerUs, -1},
                         Op{Op::Kind::CountOp, 0, 0, -1}};
        s.program.iterations = 0;
        const auto [b, e] = slice_chunks(chunks, static_cast<int>(i), static_cast<int>(warehouses));
        s.segments = {AccessSegment{b, e, kSpecjbbOwnShare}, AccessSegment{0, chunks, 1.0 - kSpecjbbOwnShare}};
        s.mem_intensity = accesses_per_ns(kSpecjbbAccessesPerUs);
        s.dependent_fraction = kPointerChasingDependentFraction; // object-graph walks
        s.working_set_bytes = kSpecjbbHotSetKiB * 1024;
        s.start_ns = start_ns;
        sim.add_task(jvm, std::move(s));
    }
}

// The JVM's parallel GC threads at start-up: GC thread g promotes chunks
// g, g + G, g + 2G, ... of the heap, copying each once (read and written),
// then parks on the JVM's GC channel, which nothing posts: the collections
// after start-up are not modelled. (Parked, not exited: a finite program
// would end the run when the last one finished.) Unbound, each runs where
// clone placed it.
void add_gc_threads(Simulation &sim, ProcId jvm, const std::string &jname, std::int64_t gc_threads, int chunks)
{
    const std::int64_t g_count = std::min<std::int64_t>(gc_threads, chunks);
    const int next_collection = sim.add_channel();
    for (std::int64_t g = 0; g < g_count; ++g) {
        Simulation::TaskSpec s;
        s.name = jname + "/gc" + std::to_string(g);
        for (std::int64_t c = g; c < chunks; c += g_count)
            s.segments.push_back(AccessSegment{static_cast<int>(c), static_cast<int>(c) + 1, 1.0});
        const double copied = 2.0 * static_cast<double>(s.segments.size()) *
                              static_cast<double>(sim.model().chunk_bytes);
        s.program.ops = {Op{Op::Kind::Compute, pass_work_ns(sim, copied, kStreamAccessesPerUs), 0, -1},
                         Op{Op::Kind::Wait, 0, 0, next_collection}};
        s.program.iterations = 0;
        s.mem_intensity = accesses_per_ns(kStreamAccessesPerUs);
        s.working_set_bytes = copied;
        sim.add_task(jvm, std::move(s));
    }
}

void build_specjbb(Simulation &sim, const SpecjbbParams &p, const std::string &)
{
    const int npu = sim.topology().pu_count();
    const int nodes = std::max(1, sim.topology().numa_count());
    const std::int64_t jvms = p.jvms;
    std::int64_t warehouses = p.warehouses;
    if (warehouses == 0)
        warehouses = std::max<std::int64_t>(1, npu / jvms);
    const std::int64_t heap_mb = p.heap_mb;
    const std::int64_t noise = p.noise;
    std::int64_t noise_threads = p.noise_threads;
    if (noise_threads == 0)
        noise_threads = std::max(1, npu / nodes);
    const bool prefault = p.prefault;
    const std::int64_t gc_threads = p.gc_threads > 0 ? p.gc_threads : hotspot_parallel_gc_threads(npu);

    const int chunks = chunks_for_bytes(sim, std::max(heap_mb * 1024 * 1024, warehouses * sim.model().chunk_bytes));
    const double heap_bytes = static_cast<double>(chunks) * static_cast<double>(sim.model().chunk_bytes);
    // A pre-touched heap needs no start-up collection to place it.
    const SimTime startup_ns = prefault ? 0
                                        : static_cast<SimTime>(kSpecjbbStartupMargin * 2.0 * heap_bytes /
                                                               sim.model().mem_bandwidth_bytes_per_ns);
    for (std::int64_t j = 0; j < jvms; ++j) {
        // One JVM keeps its historical name, so single-JVM runs are unchanged.
        const std::string jname = jvms == 1 ? "jvm" : "jvm" + std::to_string(j);
        const ProcId jvm = sim.add_process(jname, chunks * sim.model().chunk_bytes);
        if (prefault)
            sim.place_chunks(jvm, 0, chunks, 0);
        add_warehouses(sim, jvm, jname, warehouses, chunks, startup_ns);
        if (!prefault)
            add_gc_threads(sim, jvm, jname, gc_threads, chunks);
    }
    for (std::int64_t v = 0; v < noise; ++v) {
        const int nchunks = chunks_for_bytes(sim, kSpecjbbNoiseMiB * 1024 * 1024);
        const ProcId vm = sim.add_process("noise" + std::to_string(v), nchunks * sim.model().chunk_bytes);
        for (std::int64_t t = 0; t < noise_threads; ++t) {
            Simulation::TaskSpec s;
            s.name = "noise" + std::to_string(v) + "/" + std::to_string(t);
            s.program.ops = {Op{Op::Kind::Compute, 1'000'000, 0, -1}};
            s.program.iterations = 0;
            s.segments = {AccessSegment{0, nchunks, 1.0}};
            s.mem_intensity = accesses_per_ns(kSpecjbbNoiseAccessesPerUs);
            s.dependent_fraction = kPointerChasingDependentFraction; // guests of the same kind
            s.working_set_bytes = kSpecjbbHotSetKiB * 1024;
            sim.add_task(vm, std::move(s));
        }
    }
}

} // namespace

WorkloadInfo specjbb_workload_info()
{
    return workload_info<SpecjbbParams>(
        "specjbb",
        "SPECjbb-like: `jvms` JVMs, each with warehouse threads running transactions over its own heap, optionally "
        "beside noise processes (other VMs). Operations/s.",
        specjbb_table(), build_specjbb, false);
}

} // namespace schedscope
