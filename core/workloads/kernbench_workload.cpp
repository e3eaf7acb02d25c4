// `kernbench`: a kernel compile, i.e. a stream of short CPU-bound jobs
// (compiler runs) created by fork/exec, `make -j` style. What it exercises
// is exec-time placement: each new job should go to an idle CPU, ideally on
// the least loaded node. Fixed work: elapsed time.
//
// make starts a job when one finishes; the engine has no "start on exit",
// so jobs arrive on a fixed schedule that keeps about `parallel` of them in
// flight: one every (mean job length / parallel).

#include "engine/simulation.h"
#include "workloads/factories.h"
#include "workloads/workload_support.h"

#include <algorithm>

namespace schedscope {

namespace {

constexpr std::int64_t kKernbenchJobs = 400;           // compilation units; a trimmed-down kernel config
constexpr std::int64_t kKernbenchJobMinMs = 20;        // one gcc -O2 run of a small .c file
constexpr std::int64_t kKernbenchJobMaxMs = 200;       // ... and of a large one
constexpr std::int64_t kKernbenchWorkingSetKiB = 2048; // cc1's hot data: ~2 MB
constexpr double kKernbenchAccessesPerUs = 10.0;       // compilers are mostly cache-resident

const std::vector<ParamInfo> &kernbench_params()
{
    static const std::vector<ParamInfo> params = {
        {"jobs", std::to_string(kKernbenchJobs), "compile jobs"},
        {"parallel", "0", "jobs in flight, make -j (0 = 2 x PUs, kernbench's 'optimal' run)"},
        {"job_min_ms", std::to_string(kKernbenchJobMinMs), "shortest job, ms of CPU"},
        {"job_max_ms", std::to_string(kKernbenchJobMaxMs), "longest job, ms of CPU"},
        {"working_set_kb", std::to_string(kKernbenchWorkingSetKiB), "hot data per job, KiB"},
    };
    return params;
}

void build_kernbench(Simulation &sim, const ParamMap &p, const std::string &source)
{
    const std::int64_t jobs = param_int(p, "jobs", kKernbenchJobs, 1, 10'000'000, source);
    std::int64_t parallel = param_int(p, "parallel", 0, 0, 100'000, source);
    if (parallel == 0)
        parallel = 2 * sim.topology().pu_count();
    const std::int64_t jmin = param_int(p, "job_min_ms", kKernbenchJobMinMs, 1, 10'000'000, source);
    const std::int64_t jmax = param_int(p, "job_max_ms", kKernbenchJobMaxMs, jmin, 10'000'000, source);
    const double ws_kb = param_double(p, "working_set_kb", kKernbenchWorkingSetKiB, 0, 1e8, source);
    const SimTime mean_job_ns = (jmin + jmax) * 1'000'000 / 2;
    const SimTime interval_ns = std::max<SimTime>(1, mean_job_ns / parallel);
    const std::int64_t ws_bytes = static_cast<std::int64_t>(ws_kb * 1024);
    for (std::int64_t j = 0; j < jobs; ++j) {
        // Each job is a fresh process (exec), touching only its own memory.
        const ProcId proc = sim.add_process("cc1." + std::to_string(j), std::max<std::int64_t>(ws_bytes, 1));
        Simulation::TaskSpec s;
        s.program.ops = {Op{Op::Kind::Compute, jmin * 1'000'000, jmax * 1'000'000, -1}};
        s.program.iterations = 1;
        s.segments = {AccessSegment{0, chunks_for_bytes(sim, std::max<std::int64_t>(ws_bytes, 1)), 1.0}};
        s.mem_intensity = kKernbenchAccessesPerUs / 1000.0;
        s.dependent_fraction = kPointerChasingDependentFraction; // cc1 walks trees and lists
        s.working_set_bytes = static_cast<double>(ws_bytes);
        s.start_ns = j * interval_ns;
        sim.add_task(proc, std::move(s));
    }
}

} // namespace

WorkloadInfo kernbench_workload_info()
{
    WorkloadInfo w;
    w.name = "kernbench";
    w.description = "kernbench: a stream of short CPU-bound compile jobs created by fork/exec, about `parallel` "
                    "in flight (make -j). Elapsed time.";
    w.params = kernbench_params();
    w.build = build_kernbench;
    return w;
}

} // namespace schedscope
