// `sembench`: T threads waiting on a semaphore, W woken at a time (Chris
// Mason's benchmark for the 2011 remote-wakeup work). A waker posts W
// tokens; each woken worker does a short "burn" and reports back; when all
// W have reported the waker posts the next W. With thousands of threads and
// hundreds woken at once, the waker's remote wakeups contend on the target
// runqueues' locks, unless wakeups are queued on the target and sent as an
// IPI. Throughput: burns per second.
//
// Two knobs give sembench.c's own structure (version 0.2, main() and
// ipc_wake_some()): affinity=pinned binds worker i to the i-th PU, as its
// main() does with pthread_setaffinity_np; waker=loop makes the waker loop
// without ever waiting, each pass waking up to W of the workers waiting at
// that moment (the worklist's ready flags), and the workers report nothing
// back (burn_us=0 is its worker, whose "burn" is the count itself).

#include "engine/simulation.h"
#include "workloads/factories.h"
#include "workloads/workload_support.h"

namespace schedscope {

namespace {

constexpr std::int64_t kSembenchThreadsPerPu = 8;   // the report ran thousands of threads on 128 CPUs
constexpr std::int64_t kSembenchWakeNum = 256;      // woken per round: "hundreds woken at once"
constexpr std::int64_t kSembenchBurnUs = 20;        // a burn is short: the cost is in the wakeups
constexpr std::int64_t kSembenchWorkingSetKiB = 16; // a few lines of stack and the semaphore
// waker=loop: one pass of sembench's main loop besides its wakeups, a
// gettimeofday() call and a worklist scan: about a microsecond (an
// estimate of a vDSO call and a short scan, not a measurement).
constexpr std::int64_t kSembenchLoopPassNs = 1000;

struct SembenchParams {
    std::int64_t threads = 0; // 0 = kSembenchThreadsPerPu per PU
    std::int64_t wake = kSembenchWakeNum;
    std::int64_t burn_us = kSembenchBurnUs;
    bool pinned = false;
    bool loop = false;
    std::int64_t pass_ns = kSembenchLoopPassNs;
};

const ParamTable<SembenchParams> &sembench_table()
{
    static const ParamTable<SembenchParams> t = [] {
        ParamTable<SembenchParams> t;
        t.integer("threads", &SembenchParams::threads, 0, 1'000'000, "",
                  "worker threads (0 = " + std::to_string(kSembenchThreadsPerPu) + " per PU)");
        t.integer("wake", &SembenchParams::wake, 1, 1'000'000, "", "workers woken per round (at most threads)");
        t.integer("burn_us", &SembenchParams::burn_us, 0, 100'000'000, "us",
                  "work of one burn, us (0: none, sembench.c's worker)");
        t.choice<bool>("affinity", &SembenchParams::pinned, {{"free", false}, {"pinned", true}},
                       "free, or pinned: worker i bound to PU i mod PUs, as sembench.c binds them");
        t.choice<bool>("waker", &SembenchParams::loop, {{"rounds", false}, {"loop", true}},
                       "rounds: wake W, wait for their W reports; loop: sembench.c's main loop, waking up to W "
                       "waiting workers per pass, never waiting");
        t.integer("pass_ns", &SembenchParams::pass_ns, 1, 1'000'000'000, "ns",
                  "waker=loop: one pass of the waker's loop besides its wakeups, ns");
        return t;
    }();
    return t;
}

void build_sembench(Simulation &sim, const SembenchParams &p, const std::string &)
{
    const std::int64_t threads = p.threads == 0 ? kSembenchThreadsPerPu * sim.topology().pu_count() : p.threads;
    const std::int64_t wake = std::min(p.wake, threads);
    const std::int64_t burn_ns = p.burn_us * kNsPerUs;
    const bool pinned = p.pinned;
    const bool loop = p.loop;
    const int npu = sim.topology().pu_count();
    const std::int64_t pass_ns = p.pass_ns;

    const ProcId proc = sim.add_process("sembench", sim.model().chunk_bytes);
    const int sem = sim.add_channel();
    const int done = sim.add_channel();
    for (std::int64_t i = 0; i < threads; ++i) {
        Simulation::TaskSpec s;
        s.name = "sembench/" + std::to_string(i);
        s.program.ops = {Op{Op::Kind::Wait, 0, 0, sem}};
        if (burn_ns > 0)
            s.program.ops.push_back(Op{Op::Kind::Compute, burn_ns, 0, -1});
        s.program.ops.push_back(Op{Op::Kind::CountOp, 0, 0, -1});
        if (!loop)
            s.program.ops.push_back(Op{Op::Kind::Post, 1, 0, done});
        if (pinned)
            s.cpus_allowed.set(static_cast<int>(i % npu));
        s.program.iterations = 0;
        s.working_set_bytes = kSembenchWorkingSetKiB * 1024;
        sim.add_task(proc, std::move(s));
    }
    // The waker: post a round, then collect every report before the next.
    Simulation::TaskSpec w;
    w.name = "sembench/waker";
    if (loop) {
        // ipc_wake_some(): up to W of the workers waiting now; then the rest
        // of the pass.
        w.program.ops.push_back(Op{Op::Kind::Post, wake, 1, sem});
        w.program.ops.push_back(Op{Op::Kind::Compute, pass_ns, 0, -1});
    } else {
        w.program.ops.push_back(Op{Op::Kind::Post, wake, 0, sem});
        for (std::int64_t i = 0; i < wake; ++i)
            w.program.ops.push_back(Op{Op::Kind::Wait, 0, 0, done});
    }
    w.program.iterations = 0;
    w.working_set_bytes = kSembenchWorkingSetKiB * 1024;
    // Starts once the workers have all arrived and blocked.
    w.start_ns = 1'000'000;
    sim.add_task(proc, std::move(w));
}

} // namespace

WorkloadInfo sembench_workload_info()
{
    return workload_info<SembenchParams>(
        "sembench",
        "sembench: T threads on a semaphore, W woken at a time by one waker; each woken worker burns briefly and "
        "reports back. Burns/s.",
        sembench_table(), build_sembench, false);
}

} // namespace schedscope
