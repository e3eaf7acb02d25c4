// `oltp`: an OLTP database as the 2004 cache_hot_time experiments ran it.
//
// Many server processes share one large buffer (the database's shared
// memory); each runs transactions made of short CPU bursts separated by
// blocking I/Os. Every process has a hot working set (its session state,
// the index pages it is walking) that is a sizeable share of a CPU's cache,
// so a process that is moved while its cache is still warm pays to refill
// it elsewhere; one left queued behind others while a CPU idles pays in
// idle time. That trade is what cache_hot_time tunes.
//
// The processes share an address space in the model (the engine's Process
// is the shared buffer), which on a single-node machine changes nothing.
//
// As in a real database, an I/O completes with an interrupt on the CPU that
// handles the disk controller's interrupts (`irq_cpu`), and the wakeup of
// the waiting process comes from there: wake-affine and the cache-hot test
// decide whether it runs where it ran before or near the interrupt. I/O
// times are heavy-tailed (lognormal) rather than exponential.

#include "engine/simulation.h"
#include "util/prng.h"
#include "workloads/factories.h"
#include "workloads/workload_support.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace schedscope {

namespace {

// Defaults chosen for the 4-CPU, 9 MB-L3 machine of the experiment; none is
// from the report, which gave no workload internals. They describe a
// typical OLTP server process: ~1 ms of CPU between I/Os, a few I/Os per
// transaction, a hot set such that the processes sharing one CPU fit its
// cache together (otherwise they evict each other and affinity buys little).
constexpr std::int64_t kOltpProcessesPerPu = 5; // each is busy ~1/6 of the time: CPUs just saturated
constexpr std::int64_t kOltpBufferMiB = 1024;   // shared buffer (SGA); only its size matters to the model
constexpr std::int64_t kOltpHotSetKiB = 1536;   // per process, ~1/6 of a 9 MB L3
constexpr std::int64_t kOltpBurstMinUs = 300;   // CPU burst between I/Os, uniform in [min, max]
constexpr std::int64_t kOltpBurstMaxUs = 1700;
constexpr std::int64_t kOltpIoMeanUs = 5000; // disk I/O wait, exponential, ~5 ms (10k rpm disk)
constexpr std::int64_t kOltpStepsPerTxn = 4; // burst + I/O pairs per transaction
constexpr double kOltpAccessesPerUs = 30.0;  // database code misses L1 often (pointer chasing)
constexpr double kOltpHotShare = 0.9;        // share of accesses that land in the hot set
// Disk service times: lognormal with the mean above and this sigma of the
// log, so that a few I/Os take several times the median (an assumption
// describing the long tail of seek + queueing times; not from the report).
constexpr double kOltpIoSigma = 1.0;
// I/O waits drawn per process when it is built and then repeated: enough
// draws (16 transactions' worth) that the tail shows in every process.
constexpr int kOltpTxnsPerProgram = 16;
// The CPU taking the disk controller's interrupts: one CPU, as an
// interrupt vector was routed to a single CPU unless irqbalance moved it
// (an assumption for the 2004 4-way box; -1 = the process's own CPU).
constexpr std::int64_t kOltpIrqCpu = 0;
// irq_cpu value for I/Os completed on a CPU drawn afresh for each I/O, as
// on a box with many controllers whose vectors the kernel spread over the
// CPUs (Linux 2.6.9 arch/ia64/kernel/iosapic.c: get_target_cpu() hands the
// vectors out round-robin over the online CPUs) and I/Os to random disks.
constexpr std::int64_t kOltpIrqSpread = -2;

// The largest CPU number a parameter may name before the machine is known;
// build checks it against the machine's PUs.
constexpr std::int64_t kMaxCpuNumber = 1 << 20;

struct OltpParams {
    std::int64_t processes = 0; // 0 = kOltpProcessesPerPu per PU
    std::int64_t buffer_mb = kOltpBufferMiB;
    double hot_set_kb = kOltpHotSetKiB;
    std::int64_t burst_min_us = kOltpBurstMinUs;
    std::int64_t burst_max_us = kOltpBurstMaxUs;
    std::int64_t io_us = kOltpIoMeanUs;
    std::int64_t steps_per_txn = kOltpStepsPerTxn;
    double mem_accesses_per_us = kOltpAccessesPerUs;
    double io_sigma = kOltpIoSigma;
    std::int64_t irq_cpu = kOltpIrqCpu;
    // The scattered reads (the 1 - kOltpHotShare of accesses over the whole
    // buffer) as misses whose lines cool the other processes' caches
    // (Task::stray_share); off: counted at the hot set's warmth, as before.
    bool stray_lines = false;
};

const ParamTable<OltpParams> &oltp_table()
{
    static const ParamTable<OltpParams> t = [] {
        ParamTable<OltpParams> t;
        t.integer("processes", &OltpParams::processes, 0, 1'000'000, "",
                  "server processes (0 = " + std::to_string(kOltpProcessesPerPu) + " per PU)");
        t.integer("buffer_mb", &OltpParams::buffer_mb, 1, 1 << 24, "MiB", "shared buffer, MiB");
        t.real("hot_set_kb", &OltpParams::hot_set_kb, 1, 1e8, "KiB", "hot working set per process, KiB");
        t.integer("burst_min_us", &OltpParams::burst_min_us, 1, 10'000'000, "us",
                  "shortest CPU burst between I/Os, us");
        t.integer("burst_max_us", &OltpParams::burst_max_us, 1, 10'000'000, "us", "longest CPU burst between I/Os, us");
        t.integer("io_us", &OltpParams::io_us, 1, 100'000'000, "us", "mean blocking I/O time (exponential), us");
        t.integer("steps_per_txn", &OltpParams::steps_per_txn, 1, 1000, "", "burst + I/O pairs per transaction");
        t.real("mem_accesses_per_us", &OltpParams::mem_accesses_per_us, 0, 1e5, "1/us",
               "accesses past L1 per us of compute");
        t.real("io_sigma", &OltpParams::io_sigma, 0, 5, "",
               "sigma of log(I/O time) (lognormal; 0 = exponential, the earlier model)");
        t.integer("irq_cpu", &OltpParams::irq_cpu, kOltpIrqSpread, kMaxCpuNumber, "",
                  "PU whose interrupt completes every I/O and wakes the process (-1 = its own PU, -2 = a PU drawn "
                  "for each I/O)");
        t.on_off("stray_lines", &OltpParams::stray_lines,
                 "the reads scattered over the buffer miss every cache and their lines evict the other processes' "
                 "(off: they hit as the hot set does, the earlier model)");
        t.check([](OltpParams &o, const ParamMap &, const std::string &source) {
            require_in_range(o.burst_max_us, o.burst_min_us, 10'000'000, "burst_max_us", source);
        });
        return t;
    }();
    return t;
}

void build_oltp(Simulation &sim, const OltpParams &p, const std::string &source)
{
    const std::int64_t procs = p.processes == 0 ? kOltpProcessesPerPu * sim.topology().pu_count() : p.processes;
    const std::int64_t buffer_mb = p.buffer_mb;
    const double hot_kb = p.hot_set_kb;
    const std::int64_t bmin = p.burst_min_us;
    const std::int64_t bmax = p.burst_max_us;
    const std::int64_t io = p.io_us;
    const std::int64_t steps = p.steps_per_txn;
    const double intensity = accesses_per_ns(p.mem_accesses_per_us);

    const double sigma = p.io_sigma;
    require_in_range(p.irq_cpu, kOltpIrqSpread, sim.topology().pu_count() - 1, "irq_cpu", source);
    const std::int64_t irq_cpu = p.irq_cpu;
    // Completion CPUs, drawn from a stream of their own so that the I/O
    // times are the same whichever CPUs complete them.
    Prng irq_draws(sim.config().seed ^ 0x69727163ULL);
    const auto channel = [&]() -> int {
        if (irq_cpu != kOltpIrqSpread)
            return static_cast<int>(irq_cpu); // Sleep's channel: the waking PU (-1 = own)
        return static_cast<int>(irq_draws.below(static_cast<std::uint64_t>(sim.topology().pu_count())));
    };

    const int buffer_chunks = chunks_for_bytes(sim, buffer_mb * 1024 * 1024);
    const ProcId shm = sim.add_process("oltp", buffer_chunks * sim.model().chunk_bytes);
    // A database measured in its steady state: the buffer was faulted in
    // while the server started and warmed up, before the measured run.
    sim.mark_faulted_in(shm);
    // Sleep with b > a draws an exponential of mean (a + b) / 2: a = 0, b = 2 x mean.
    const Op exp_io_op{Op::Kind::Sleep, 0, 2 * io * kNsPerUs, -1};
    const Op burst_op{Op::Kind::Compute, bmin * kNsPerUs, bmax * kNsPerUs, -1};
    // Lognormal I/O times of mean `io`: log-mean mu = ln(io) - sigma^2 / 2.
    const double mu = std::log(static_cast<double>(io * kNsPerUs)) - 0.5 * sigma * sigma;
    Prng draws(sim.config().seed ^ 0x6f6c7470ULL); // the workload's own stream, seeded from the run's
    for (std::int64_t i = 0; i < procs; ++i) {
        Simulation::TaskSpec s;
        s.name = "oltp/" + std::to_string(i);
        const int txns = sigma > 0 ? kOltpTxnsPerProgram : 1;
        for (int txn = 0; txn < txns; ++txn) {
            for (std::int64_t k = 0; k < steps; ++k) {
                s.program.ops.push_back(burst_op);
                if (sigma > 0) {
                    // Box-Muller: one standard normal from two uniforms.
                    const double u1 = std::max(draws.uniform(), 1e-300);
                    const double z = std::sqrt(-2.0 * std::log(u1)) *
                                     std::cos(2.0 * std::numbers::pi * draws.uniform());
                    const auto ns = static_cast<std::int64_t>(std::exp(mu + sigma * z));
                    s.program.ops.push_back(Op{Op::Kind::Sleep, std::max<std::int64_t>(1, ns), 0, channel()});
                } else {
                    Op op = exp_io_op;
                    op.channel = channel();
                    s.program.ops.push_back(op);
                }
            }
            s.program.ops.push_back(Op{Op::Kind::CountOp, 0, 0, -1});
        }
        s.program.iterations = 0;
        // Its own rows and index pages, plus scattered reads of the rest.
        const auto [b, e] = slice_chunks(buffer_chunks, static_cast<int>(i % buffer_chunks),
                                         static_cast<int>(std::min<std::int64_t>(procs, buffer_chunks)));
        s.segments = {AccessSegment{b, e, kOltpHotShare}, AccessSegment{0, buffer_chunks, 1.0 - kOltpHotShare}};
        s.mem_intensity = intensity;
        s.dependent_fraction = kPointerChasingDependentFraction; // B-tree and buffer-header walks
        // The scattered reads land on a buffer over a hundred times any
        // cache: they miss, and their lines push out what others left.
        s.stray_share = p.stray_lines ? 1.0 - kOltpHotShare : 0.0;
        s.working_set_bytes = hot_kb * 1024;
        // Server processes log in over the first moments, not all at once.
        s.start_ns = i * 100'000;
        s.own_process = true; // a server process, forked and exec'd (WorkloadInfo::tasks_are_processes)
        sim.add_task(shm, std::move(s));
    }
}

} // namespace

WorkloadInfo oltp_workload_info()
{
    WorkloadInfo w = workload_info<OltpParams>(
        "oltp",
        "OLTP-like: many processes over a large shared buffer, short CPU bursts between blocking I/Os, a hot "
        "working set each that is a good share of the cache. Transactions/s.",
        oltp_table(), build_oltp, false);
    w.tasks_are_processes = true; // server processes sharing the buffer (SGA)
    return w;
}

} // namespace schedscope
