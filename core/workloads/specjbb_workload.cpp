// `specjbb`: a SPECjbb-like Java server: `jvms` independent JVM processes
// (one by default), each with its own heap and warehouse threads running
// back-to-back business transactions over it, optionally beside noise
// processes standing in for other VMs on the same host (the 2012 AutoNUMA
// and sched/numa comparisons; the 4-node R910 runs used four JVMs). Each
// warehouse thread mostly touches its own warehouse's objects (allocated
// where it ran when it created them) and now and then the rest of its JVM's
// heap. Since every JVM is a process of its own, the `bind` policy's manual
// pinning binds each JVM's CPUs and memory to a node of its own. Throughput:
// operations (transactions) per second over all JVMs.

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

struct SpecjbbParams {
    std::int64_t jvms = 1;
    std::int64_t warehouses = 0; // 0 = PUs / jvms
    std::int64_t heap_mb = kSpecjbbHeapMiB;
    std::int64_t noise = 0;
    std::int64_t noise_threads = 0; // 0 = PUs / nodes
    bool prefault = false;
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
        t.choice<bool>("prefault", &SpecjbbParams::prefault, {{"none", false}, {"node0", true}},
                       "none: warehouses first-touch their own objects | node0: the heap starts on node 0");
        return t;
    }();
    return t;
}

void add_warehouses(Simulation &sim, ProcId jvm, const std::string &jname, std::int64_t warehouses, int chunks)
{
    for (std::int64_t i = 0; i < warehouses; ++i) {
        Simulation::TaskSpec s;
        s.name = jname + "/warehouse" + std::to_string(i);
        s.program.ops = {Op{Op::Kind::Compute, kSpecjbbTxnMinUs * 1000, kSpecjbbTxnMaxUs * 1000, -1},
                         Op{Op::Kind::CountOp, 0, 0, -1}};
        s.program.iterations = 0;
        const auto [b, e] = slice_chunks(chunks, static_cast<int>(i), static_cast<int>(warehouses));
        s.segments = {AccessSegment{b, e, kSpecjbbOwnShare}, AccessSegment{0, chunks, 1.0 - kSpecjbbOwnShare}};
        s.mem_intensity = kSpecjbbAccessesPerUs / 1000.0;
        s.dependent_fraction = kPointerChasingDependentFraction; // object-graph walks
        s.working_set_bytes = kSpecjbbHotSetKiB * 1024;
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

    const int chunks = chunks_for_bytes(sim, std::max(heap_mb * 1024 * 1024, warehouses * sim.model().chunk_bytes));
    for (std::int64_t j = 0; j < jvms; ++j) {
        // One JVM keeps its historical name, so single-JVM runs are unchanged.
        const std::string jname = jvms == 1 ? "jvm" : "jvm" + std::to_string(j);
        const ProcId jvm = sim.add_process(jname, chunks * sim.model().chunk_bytes);
        if (prefault)
            sim.place_chunks(jvm, 0, chunks, 0);
        add_warehouses(sim, jvm, jname, warehouses, chunks);
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
            s.mem_intensity = kSpecjbbNoiseAccessesPerUs / 1000.0;
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
