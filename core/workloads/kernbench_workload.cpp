// `kernbench`: a kernel compile, i.e. a stream of short CPU-bound jobs
// (compiler runs) created by fork/exec, `make -j` style. What it exercises
// is exec-time placement: each new job should go to an idle CPU, ideally on
// the least loaded node. Fixed work: elapsed time.
//
// make -j starts `parallel` jobs at once, then a new one each time one
// ends (it reaps a child and forks the next command): job j + parallel is
// created when job j exits, so exactly `parallel` are in flight until the
// list runs out, however long the jobs take on the machine.

#include "engine/simulation.h"
#include "workloads/factories.h"
#include "workloads/workload_support.h"

#include <algorithm>
#include <vector>

namespace schedscope {

namespace {

constexpr std::int64_t kKernbenchJobs = 400;           // compilation units; a trimmed-down kernel config
constexpr std::int64_t kKernbenchJobMinMs = 20;        // one gcc -O2 run of a small .c file
constexpr std::int64_t kKernbenchJobMaxMs = 200;       // ... and of a large one
constexpr std::int64_t kKernbenchWorkingSetKiB = 2048; // cc1's hot data: ~2 MB
constexpr double kKernbenchAccessesPerUs = 10.0;       // compilers are mostly cache-resident

struct KernbenchParams {
    std::int64_t jobs = kKernbenchJobs;
    std::int64_t parallel = 0; // 0 = 2 x PUs
    std::int64_t job_min_ms = kKernbenchJobMinMs;
    std::int64_t job_max_ms = kKernbenchJobMaxMs;
    double working_set_kb = kKernbenchWorkingSetKiB;
};

const ParamTable<KernbenchParams> &kernbench_table()
{
    static const ParamTable<KernbenchParams> t = [] {
        ParamTable<KernbenchParams> t;
        t.integer("jobs", &KernbenchParams::jobs, 1, 10'000'000, "", "compile jobs");
        t.integer("parallel", &KernbenchParams::parallel, 0, 100'000, "",
                  "jobs in flight, make -j (0 = 2 x PUs, kernbench's 'optimal' run)");
        t.integer("job_min_ms", &KernbenchParams::job_min_ms, 1, 10'000'000, "ms", "shortest job, ms of CPU");
        t.integer("job_max_ms", &KernbenchParams::job_max_ms, 1, 10'000'000, "ms", "longest job, ms of CPU");
        t.real("working_set_kb", &KernbenchParams::working_set_kb, 0, 1e8, "KiB", "hot data per job, KiB");
        t.check([](KernbenchParams &k, const ParamMap &, const std::string &source) {
            require_in_range(k.job_max_ms, k.job_min_ms, 10'000'000, "job_max_ms", source);
        });
        return t;
    }();
    return t;
}

void build_kernbench(Simulation &sim, const KernbenchParams &p, const std::string &)
{
    const std::int64_t jobs = p.jobs;
    const std::int64_t parallel = p.parallel == 0 ? 2 * static_cast<std::int64_t>(sim.topology().pu_count())
                                                  : p.parallel;
    const std::int64_t jmin = p.job_min_ms;
    const std::int64_t jmax = p.job_max_ms;
    const double ws_kb = p.working_set_kb;
    const std::int64_t ws_bytes = static_cast<std::int64_t>(ws_kb * 1024);
    std::vector<TaskId> ids; // job index -> its task
    ids.reserve(static_cast<size_t>(jobs));
    for (std::int64_t j = 0; j < jobs; ++j) {
        // Each job is a fresh process (exec), touching only its own memory.
        const ProcId proc = sim.add_process("cc1." + std::to_string(j), std::max<std::int64_t>(ws_bytes, 1));
        Simulation::TaskSpec s;
        s.program.ops = {Op{Op::Kind::Compute, jmin * 1'000'000, jmax * 1'000'000, -1}};
        s.program.iterations = 1;
        s.segments = {AccessSegment{0, chunks_for_bytes(sim, std::max<std::int64_t>(ws_bytes, 1)), 1.0}};
        s.mem_intensity = accesses_per_ns(kKernbenchAccessesPerUs);
        s.dependent_fraction = kPointerChasingDependentFraction; // cc1 walks trees and lists
        s.working_set_bytes = static_cast<double>(ws_bytes);
        // The first `parallel` start together; each later one when the job
        // `parallel` places before it ends.
        if (j >= parallel)
            s.created_by = ids[static_cast<size_t>(j - parallel)];
        ids.push_back(sim.add_task(proc, std::move(s)));
    }
}

} // namespace

WorkloadInfo kernbench_workload_info()
{
    return workload_info<KernbenchParams>(
        "kernbench",
        "kernbench: a stream of short CPU-bound compile jobs created by fork/exec, about `parallel` in flight (make "
        "-j). Elapsed time.",
        kernbench_table(), build_kernbench);
}

} // namespace schedscope
