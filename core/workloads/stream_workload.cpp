// `stream`: N independent single-threaded STREAM instances (McCalpin's
// memory bandwidth benchmark), as used to show how a balancer spreads
// memory-bound tasks over nodes: 1, 4, 8, ... instances up to #CPUs.
//
// Each instance owns three arrays a, b, c and runs the four kernels (copy,
// scale, add, triad) `ntimes` times; per iteration the kernels move 10
// arrays' worth of data (copy and scale 2 each, add and triad 3 each). The
// arrays are first touched by the instance itself, so they live wherever it
// ran first. Fixed work: elapsed time (bandwidth = bytes moved / elapsed).

#include "engine/simulation.h"
#include "workloads/factories.h"
#include "workloads/workload_support.h"

namespace schedscope {

namespace {

constexpr std::int64_t kStreamArrayElements = 10'000'000; // stream.c default STREAM_ARRAY_SIZE
constexpr std::int64_t kStreamElementBytes = 8;           // STREAM_TYPE double
constexpr std::int64_t kStreamNtimes = 10;                // stream.c NTIMES
constexpr int kStreamArraysTouchedPerIteration = 10;      // copy 2 + scale 2 + add 3 + triad 3

struct StreamParams {
    std::int64_t instances = 0; // 0 = one per PU
    std::int64_t array_elements = kStreamArrayElements;
    std::int64_t ntimes = kStreamNtimes;
    double mem_accesses_per_us = kStreamAccessesPerUs;
};

const ParamTable<StreamParams> &stream_table()
{
    static const ParamTable<StreamParams> t = [] {
        ParamTable<StreamParams> t;
        t.integer("instances", &StreamParams::instances, 0, 100'000, "",
                  "independent single-threaded instances (0 = one per PU)");
        t.integer("array_elements", &StreamParams::array_elements, 1, 1LL << 36, "", "elements (doubles) per array");
        t.integer("ntimes", &StreamParams::ntimes, 1, 1'000'000, "", "iterations of the four kernels");
        t.real("mem_accesses_per_us", &StreamParams::mem_accesses_per_us, 0.001, 1e5, "1/us",
               "cache lines touched per us of unstalled work");
        return t;
    }();
    return t;
}

void build_stream(Simulation &sim, const StreamParams &p, const std::string &)
{
    const std::int64_t instances = p.instances == 0 ? sim.topology().pu_count() : p.instances;
    const std::int64_t elements = p.array_elements;
    const std::int64_t ntimes = p.ntimes;
    const double intensity_us = p.mem_accesses_per_us;
    const std::int64_t array_bytes = elements * kStreamElementBytes;
    const int chunks = chunks_for_bytes(sim, 3 * array_bytes);
    const double moved = static_cast<double>(kStreamArraysTouchedPerIteration) * static_cast<double>(array_bytes);
    for (std::int64_t i = 0; i < instances; ++i) {
        const ProcId proc = sim.add_process("stream" + std::to_string(i), chunks * sim.model().chunk_bytes);
        Simulation::TaskSpec s;
        s.program.ops = {Op{Op::Kind::Compute, pass_work_ns(sim, moved, intensity_us), 0, -1}};
        s.program.iterations = ntimes;
        s.segments = {AccessSegment{0, chunks, 1.0}};
        s.mem_intensity = accesses_per_ns(intensity_us);
        s.working_set_bytes = 3.0 * static_cast<double>(array_bytes);
        sim.add_task(proc, std::move(s));
    }
}

} // namespace

WorkloadInfo stream_workload_info()
{
    return workload_info<StreamParams>(
        "stream",
        "STREAM: N independent single-threaded instances, three arrays each, copy/scale/add/triad NTIMES; "
        "memory-bandwidth bound. Elapsed time.",
        stream_table(), build_stream);
}

} // namespace schedscope
