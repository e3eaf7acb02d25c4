// `numa_test`: N memory-intensive tasks, disturbed for a short time by a
// hackbench of 10 groups (Erich Focht's test for the 2003 NUMA scheduler).
//
// As the benchmark's script ran it: N copies of `randupdt 1000000` start
// together; each mallocs two double arrays and an int index array of
// 1,000,000 elements (20,000,000 bytes), first touches them itself, then
// runs 100 passes of the indirect update a[ix[i]] += b[i] with a random
// index vector: one random line per update plus 12 bytes of sequential
// stream. 3 seconds after the start "hackbench 10" runs once (the 2003
// TX7 report's disturbance; its 2002 posting says "3 seconds after the
// tasks were started"). The hackbench burst briefly floods the runqueues; a balancer
// that then moves the memory-bound tasks across nodes leaves them running
// away from their memory for the rest of the run, which shows in their
// elapsed time. A node-aware balancer keeps them home or brings them back.

#include "engine/simulation.h"
#include "workloads/factories.h"
#include "workloads/workload_support.h"

namespace schedscope {

namespace {

constexpr std::int64_t kRandupdtElements = 1'000'000;        // numa_test's PROBLEMSIZE
constexpr std::int64_t kRandupdtPasses = 100;                // randupdt's outer loop
constexpr std::int64_t kRandupdtBytesPerElement = 8 + 8 + 4; // a[], b[] doubles, ix[] int
// Instruction work of one update when no access stalls: a load of ix[i] and
// b[i], a load and store of a[j], an add - a handful of instructions, taken
// as 2 ns on a ~1 GHz Itanium 2 (an assumption; the stalls the model adds
// dominate: the report's ~21 s per task are ~200 ns per update).
constexpr double kRandupdtUpdateWorkNs = 2.0;
constexpr double kRandupdtLinesPerUpdate = 1.0 + 12.0 / 64.0; // a[j] at random, ix[i] and b[i] streamed
constexpr std::int64_t kNumaTestMemoryMiB = (kRandupdtElements * kRandupdtBytesPerElement + (1 << 20) - 1) >>
                                            20; // 20 MiB
constexpr std::int64_t kNumaTestWorkMs = static_cast<std::int64_t>(
    static_cast<double>(kRandupdtElements * kRandupdtPasses) * kRandupdtUpdateWorkNs / 1e6);        // 200 ms
constexpr double kNumaTestAccessesPerUs = kRandupdtLinesPerUpdate / kRandupdtUpdateWorkNs * 1000.0; // 593.75
constexpr std::int64_t kNumaTestDisturbGroups = 10; // the report's "hackbench 10"
constexpr std::int64_t kNumaTestDisturbLoops = 100; // hackbench's default: the report ran a plain "hackbench 10"
constexpr std::int64_t kNumaTestDisturbAtMs = 3000; // the script: hackbench "3 seconds after the tasks were started"

const std::vector<ParamInfo> &numa_test_params()
{
    static const std::vector<ParamInfo> params = {
        {"tasks", "0", "memory-intensive tasks (0 = one per PU)"},
        {"memory_mb", std::to_string(kNumaTestMemoryMiB), "memory per task, MiB"},
        {"work_ms", std::to_string(kNumaTestWorkMs), "work per task at full speed, ms"},
        {"mem_accesses_per_us", "593.75", "accesses past L1 per us of compute"},
        {"disturb_groups", std::to_string(kNumaTestDisturbGroups), "hackbench groups of the disturbance (0 = none)"},
        {"disturb_loops", std::to_string(kNumaTestDisturbLoops), "messages per sender per receiver"},
        {"disturb_at_ms", std::to_string(kNumaTestDisturbAtMs), "when the disturbance starts, ms"},
    };
    return params;
}

void build_numa_test(Simulation &sim, const ParamMap &p, const std::string &source)
{
    std::int64_t tasks = param_int(p, "tasks", 0, 0, 100'000, source);
    if (tasks == 0)
        tasks = sim.topology().pu_count();
    const std::int64_t mem_mb = param_int(p, "memory_mb", kNumaTestMemoryMiB, 1, 1 << 24, source);
    const double work_ms = param_double(p, "work_ms", kNumaTestWorkMs, 0.001, 1e8, source);
    const double intensity = param_double(p, "mem_accesses_per_us", kNumaTestAccessesPerUs, 0, 1e5, source) / 1000.0;
    const int chunks = chunks_for_bytes(sim, mem_mb * 1024 * 1024);
    for (std::int64_t i = 0; i < tasks; ++i) {
        const ProcId proc = sim.add_process("numa_test." + std::to_string(i), chunks * sim.model().chunk_bytes);
        Simulation::TaskSpec s;
        s.program.ops = {Op{Op::Kind::Compute, static_cast<std::int64_t>(work_ms * 1e6), 0, -1}};
        s.segments = {AccessSegment{0, chunks, 1.0}};
        s.mem_intensity = intensity;
        s.working_set_bytes = static_cast<double>(chunks) * static_cast<double>(sim.model().chunk_bytes);
        sim.add_task(proc, std::move(s));
    }
    HackbenchShape shape;
    shape.groups = param_int(p, "disturb_groups", kNumaTestDisturbGroups, 0, 100'000, source);
    shape.loops = param_int(p, "disturb_loops", kNumaTestDisturbLoops, 1, 1'000'000, source);
    shape.start_ns = param_int(p, "disturb_at_ms", kNumaTestDisturbAtMs, 0, 100'000'000, source) * 1'000'000;
    shape.send_ns = 2'000; // as hackbench_workload.cpp
    shape.receive_ns = 2'000;
    shape.working_set_bytes = 64 * 1024;
    shape.buffer_messages = hackbench_buffer_messages(kHackbenchSocketBufferBytes); // as hackbench's default
    add_hackbench_groups(sim, shape, "hackbench");
}

} // namespace

WorkloadInfo numa_test_workload_info()
{
    WorkloadInfo w;
    w.name = "numa_test";
    w.description = "numa_test: N memory-intensive tasks on their own first-touched memory, disturbed for a short "
                    "time by a hackbench of 10 groups. Elapsed time.";
    w.params = numa_test_params();
    w.build = build_numa_test;
    return w;
}

} // namespace schedscope
