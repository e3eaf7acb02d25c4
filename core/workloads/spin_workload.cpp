// `spin`: N CPU-bound threads of fixed work, each with a private working
// set. The plainest load, for smoke tests and for watching balancing alone.

#include "engine/simulation.h"
#include "workloads/factories.h"
#include "workloads/workload_support.h"

namespace schedscope {

namespace {

struct SpinParams {
    std::int64_t threads = 0; // 0 = one per PU
    double work_ms = 1000;
    double working_set_kb = 256;
    double mem_accesses_per_us = 20;
    double dependent_fraction = 0;
};

const ParamTable<SpinParams> &spin_table()
{
    static const ParamTable<SpinParams> t = [] {
        ParamTable<SpinParams> t;
        t.integer("threads", &SpinParams::threads, 0, 1'000'000, "", "number of threads (0 = one per PU)");
        t.real("work_ms", &SpinParams::work_ms, 0.001, 1e7, "ms", "work per thread at full speed, ms");
        t.real("working_set_kb", &SpinParams::working_set_kb, 0, 1e9, "KiB", "private working set per thread, KiB");
        t.real("mem_accesses_per_us", &SpinParams::mem_accesses_per_us, 0, 1e5, "1/us",
               "accesses past L1 per us of compute");
        t.real("dependent_fraction", &SpinParams::dependent_fraction, 0, 1, "",
               "share of accesses that wait for the one before (0 = a stream, 1 = pointer chasing)");
        return t;
    }();
    return t;
}

void build_spin(Simulation &sim, const SpinParams &p, const std::string &)
{
    const std::int64_t threads = p.threads == 0 ? sim.topology().pu_count() : p.threads;
    const double intensity = accesses_per_ns(p.mem_accesses_per_us);
    const std::int64_t ws_bytes = static_cast<std::int64_t>(p.working_set_kb * 1024);
    const std::int64_t chunk = sim.model().chunk_bytes;
    const int chunks_per_thread = static_cast<int>(std::max<std::int64_t>(1, (ws_bytes + chunk - 1) / chunk));
    for (std::int64_t i = 0; i < threads; ++i) {
        ProcId proc = sim.add_process("spin" + std::to_string(i), chunks_per_thread * chunk);
        Simulation::TaskSpec spec;
        spec.program.ops = {Op{Op::Kind::Compute, static_cast<std::int64_t>(p.work_ms * 1e6), 0, -1}};
        spec.program.iterations = 1;
        spec.segments = {AccessSegment{0, chunks_per_thread, 1.0}};
        spec.mem_intensity = intensity;
        spec.dependent_fraction = p.dependent_fraction;
        spec.working_set_bytes = static_cast<double>(ws_bytes);
        sim.add_task(proc, std::move(spec));
    }
}

} // namespace

WorkloadInfo spin_workload_info()
{
    return workload_info<SpinParams>(
        "spin", "N CPU-bound threads, each computing a fixed amount of work over a private working set.", spin_table(),
        build_spin);
}

} // namespace schedscope
