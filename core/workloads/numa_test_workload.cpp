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
// dominate: on an in-order core each update waits out its miss, below).
constexpr double kRandupdtUpdateWorkNs = 2.0;
constexpr double kRandupdtStreamedBytesPerUpdate = 8.0 + 4.0; // b[i] and ix[i]; a[j] is one line at random
constexpr std::int64_t kNumaTestMemoryMiB = (kRandupdtElements * kRandupdtBytesPerElement + (1 << 20) - 1) >>
                                            20; // 20 MiB
constexpr std::int64_t kNumaTestWorkMs = static_cast<std::int64_t>(
    static_cast<double>(kRandupdtElements * kRandupdtPasses) * kRandupdtUpdateWorkNs / 1e6); // 200 ms
constexpr std::int64_t kNumaTestDisturbGroups = 10; // the report's "hackbench 10"
constexpr std::int64_t kNumaTestDisturbLoops = 100; // hackbench's default: the report ran a plain "hackbench 10"
constexpr std::int64_t kNumaTestDisturbAtMs = 3000; // the script: hackbench "3 seconds after the tasks were started"

struct NumaTestParams {
    std::int64_t tasks = 0; // 0 = one per PU
    std::int64_t memory_mb = kNumaTestMemoryMiB;
    double work_ms = kNumaTestWorkMs;
    double mem_accesses_per_us = 0; // 0 = randupdt's, at the machine's line size
    std::int64_t disturb_groups = kNumaTestDisturbGroups;
    std::int64_t disturb_loops = kNumaTestDisturbLoops;
    std::int64_t disturb_at_ms = kNumaTestDisturbAtMs;
};

const ParamTable<NumaTestParams> &numa_test_table()
{
    static const ParamTable<NumaTestParams> t = [] {
        ParamTable<NumaTestParams> t;
        t.integer("tasks", &NumaTestParams::tasks, 0, 100'000, "", "memory-intensive tasks (0 = one per PU)");
        t.integer("memory_mb", &NumaTestParams::memory_mb, 1, 1 << 24, "MiB", "memory per task, MiB");
        t.real("work_ms", &NumaTestParams::work_ms, 0.001, 1e8, "ms", "work per task at full speed, ms");
        t.real("mem_accesses_per_us", &NumaTestParams::mem_accesses_per_us, 0, 1e5, "1/us",
               "accesses past L1 per us of compute (0 = randupdt's: a line at random and 12 bytes streamed per "
               "2 ns update, in the machine's lines)");
        t.integer("disturb_groups", &NumaTestParams::disturb_groups, 0, 100'000, "",
                  "hackbench groups of the disturbance (0 = none)");
        t.integer("disturb_loops", &NumaTestParams::disturb_loops, 1, 1'000'000, "messages",
                  "messages per sender per receiver");
        t.integer("disturb_at_ms", &NumaTestParams::disturb_at_ms, 0, 100'000'000, "ms",
                  "when the disturbance starts, ms");
        return t;
    }();
    return t;
}

void build_numa_test(Simulation &sim, const NumaTestParams &p, const std::string &)
{
    const std::int64_t tasks = p.tasks == 0 ? sim.topology().pu_count() : p.tasks;
    const std::int64_t mem_mb = p.memory_mb;
    const double work_ms = p.work_ms;
    // randupdt's lines per update: a[j]'s line, and 12 bytes of the b[] and
    // ix[] streams in lines of the machine's size (128 bytes on Itanium 2).
    const double randupdt_per_us = (1.0 + kRandupdtStreamedBytesPerUpdate / sim.model().cache_line_bytes) /
                                   kRandupdtUpdateWorkNs * kNsPerUs;
    const double intensity = accesses_per_ns(p.mem_accesses_per_us > 0 ? p.mem_accesses_per_us : randupdt_per_us);
    const int chunks = chunks_for_bytes(sim, mem_mb * 1024 * 1024);
    for (std::int64_t i = 0; i < tasks; ++i) {
        const ProcId proc = sim.add_process("numa_test." + std::to_string(i), chunks * sim.model().chunk_bytes);
        Simulation::TaskSpec s;
        s.program.ops = {Op{Op::Kind::Compute, static_cast<std::int64_t>(work_ms * 1e6), 0, -1}};
        s.segments = {AccessSegment{0, chunks, 1.0}};
        s.mem_intensity = intensity;
        // randupdt's loop (as posted in 2002, built by the script with a plain
        // gcc -O3): each update loads a[ix[i]] and adds to it at once, and the
        // next update's load of a[] cannot be moved above this store to a[]
        // (the two may be the same element), so no two misses on a[] are
        // ever outstanding together; the b[] and ix[] streams are used as
        // soon as loaded, and gcc -O3 schedules no prefetch for them
        // (-fprefetch-loop-arrays is a separate, opt-in flag since GCC 3.1).
        // An out-of-order core still overlaps the updates' misses, whose
        // addresses come from the streamed ix[]; an in-order core (the TX7's
        // Itanium 2) stalls at each miss until its line arrives.
        s.dependent_fraction = sim.model().core_in_order ? 1.0 : 0.0;
        s.working_set_bytes = static_cast<double>(chunks) * static_cast<double>(sim.model().chunk_bytes);
        sim.add_task(proc, std::move(s));
    }
    HackbenchShape shape;
    shape.groups = p.disturb_groups;
    shape.loops = p.disturb_loops;
    shape.start_ns = p.disturb_at_ms * 1'000'000;
    shape.send_ns = 2'000; // as hackbench_workload.cpp
    shape.receive_ns = 2'000;
    shape.working_set_bytes = std::int64_t{64} * 1024;
    shape.buffer_messages = hackbench_buffer_messages(kHackbenchSocketBufferBytes); // as hackbench's default
    shape.one_parent = true; // one "hackbench 10" command forks all its tasks
    // The script's dispatch forks hackbench after its 3 s sleep and waits
    // only for the randupdt jobs, so `time` around dispatch never collects
    // hackbench's CPU time: the report's user and system columns are the
    // jobs' alone.
    shape.untimed = true;
    add_hackbench_groups(sim, shape, "hackbench");
}

} // namespace

WorkloadInfo numa_test_workload_info()
{
    return workload_info<NumaTestParams>(
        "numa_test",
        "numa_test: N memory-intensive tasks on their own first-touched memory, disturbed for a short time by a "
        "hackbench of 10 groups. Elapsed time.",
        numa_test_table(), build_numa_test);
}

} // namespace schedscope
