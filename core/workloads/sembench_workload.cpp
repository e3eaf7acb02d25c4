// `sembench`: T threads waiting on a semaphore, W woken at a time (Chris
// Mason's benchmark for the 2011 remote-wakeup work). A waker posts W
// tokens; each woken worker does a short "burn" and reports back; when all
// W have reported the waker posts the next W. With thousands of threads and
// hundreds woken at once, the waker's remote wakeups contend on the target
// runqueues' locks, unless wakeups are queued on the target and sent as an
// IPI. Throughput: burns per second.

#include "engine/simulation.h"
#include "workloads/factories.h"
#include "workloads/workload_support.h"

namespace schedscope {

namespace {

constexpr std::int64_t kSembenchThreadsPerPu = 8;   // the report ran thousands of threads on 128 CPUs
constexpr std::int64_t kSembenchWakeNum = 256;      // woken per round: "hundreds woken at once"
constexpr std::int64_t kSembenchBurnUs = 20;        // a burn is short: the cost is in the wakeups
constexpr std::int64_t kSembenchWorkingSetKiB = 16; // a few lines of stack and the semaphore

const std::vector<ParamInfo> &sembench_params()
{
    static const std::vector<ParamInfo> params = {
        {"threads", "0", "worker threads (0 = " + std::to_string(kSembenchThreadsPerPu) + " per PU)"},
        {"wake", std::to_string(kSembenchWakeNum), "workers woken per round (at most threads)"},
        {"burn_us", std::to_string(kSembenchBurnUs), "work of one burn, us"},
    };
    return params;
}

void build_sembench(Simulation &sim, const ParamMap &p, const std::string &source)
{
    std::int64_t threads = param_int(p, "threads", 0, 0, 1'000'000, source);
    if (threads == 0)
        threads = kSembenchThreadsPerPu * sim.topology().pu_count();
    const std::int64_t wake = std::min(param_int(p, "wake", kSembenchWakeNum, 1, 1'000'000, source), threads);
    const std::int64_t burn_ns = param_int(p, "burn_us", kSembenchBurnUs, 1, 100'000'000, source) * 1000;

    const ProcId proc = sim.add_process("sembench", sim.model().chunk_bytes);
    const int sem = sim.add_channel();
    const int done = sim.add_channel();
    for (std::int64_t i = 0; i < threads; ++i) {
        Simulation::TaskSpec s;
        s.name = "sembench/" + std::to_string(i);
        s.program.ops = {Op{Op::Kind::Wait, 0, 0, sem}, Op{Op::Kind::Compute, burn_ns, 0, -1},
                         Op{Op::Kind::CountOp, 0, 0, -1}, Op{Op::Kind::Post, 1, 0, done}};
        s.program.iterations = 0;
        s.working_set_bytes = kSembenchWorkingSetKiB * 1024;
        sim.add_task(proc, std::move(s));
    }
    // The waker: post a round, then collect every report before the next.
    Simulation::TaskSpec w;
    w.name = "sembench/waker";
    w.program.ops.push_back(Op{Op::Kind::Post, wake, 0, sem});
    for (std::int64_t i = 0; i < wake; ++i)
        w.program.ops.push_back(Op{Op::Kind::Wait, 0, 0, done});
    w.program.iterations = 0;
    w.working_set_bytes = kSembenchWorkingSetKiB * 1024;
    // Starts once the workers have all arrived and blocked.
    w.start_ns = 1'000'000;
    sim.add_task(proc, std::move(w));
}

} // namespace

WorkloadInfo sembench_workload_info()
{
    WorkloadInfo w;
    w.name = "sembench";
    w.description = "sembench: T threads on a semaphore, W woken at a time by one waker; each woken worker burns "
                    "briefly and reports back. Burns/s.";
    w.params = sembench_params();
    w.build = build_sembench;
    w.fixed_work = false;
    return w;
}

} // namespace schedscope
