// `spin`: N CPU-bound threads of fixed work, each with a private working
// set. The plainest load, for smoke tests and for watching balancing alone.

#include "engine/simulation.h"
#include "workloads/factories.h"

namespace schedscope {

WorkloadInfo spin_workload_info()
{
    WorkloadInfo w;
    w.name = "spin";
    w.description = "N CPU-bound threads, each computing a fixed amount of work over a private working set.";
    w.params = {
        {"threads", "0", "number of threads (0 = one per PU)"},
        {"work_ms", "1000", "work per thread at full speed, ms"},
        {"working_set_kb", "256", "private working set per thread, KiB"},
        {"mem_accesses_per_us", "20", "accesses past L1 per us of compute"},
        {"dependent_fraction", "0",
         "share of accesses that wait for the one before (0 = a stream, 1 = pointer chasing)"},
    };
    w.build = [](Simulation &sim, const ParamMap &p, const std::string &source) {
        std::int64_t threads = param_int(p, "threads", 0, 0, 1'000'000, source);
        if (threads == 0)
            threads = sim.topology().pu_count();
        const double work_ms = param_double(p, "work_ms", 1000, 0.001, 1e7, source);
        const double ws_kb = param_double(p, "working_set_kb", 256, 0, 1e9, source);
        const double intensity = param_double(p, "mem_accesses_per_us", 20, 0, 1e5, source) / 1000.0;
        const double dependent = param_double(p, "dependent_fraction", 0, 0, 1, source);
        const std::int64_t ws_bytes = static_cast<std::int64_t>(ws_kb * 1024);
        const std::int64_t chunk = sim.model().chunk_bytes;
        const int chunks_per_thread = static_cast<int>(std::max<std::int64_t>(1, (ws_bytes + chunk - 1) / chunk));
        for (std::int64_t i = 0; i < threads; ++i) {
            ProcId proc = sim.add_process("spin" + std::to_string(i), chunks_per_thread * chunk);
            Simulation::TaskSpec spec;
            spec.program.ops = {Op{Op::Kind::Compute, static_cast<std::int64_t>(work_ms * 1e6), 0, -1}};
            spec.program.iterations = 1;
            spec.segments = {AccessSegment{0, chunks_per_thread, 1.0}};
            spec.mem_intensity = intensity;
            spec.dependent_fraction = dependent;
            spec.working_set_bytes = static_cast<double>(ws_bytes);
            sim.add_task(proc, std::move(spec));
        }
    };
    return w;
}

} // namespace schedscope
