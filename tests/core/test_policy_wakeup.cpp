// The `wakeup` knob every policy has: queued wakeups (wake list + IPI) take
// fewer remote runqueue locks than locked ones.

#include "catalog/catalog.h"
#include "engine/simulation.h"
#include "topology/import.h"

#include <catch2/catch.hpp>

using namespace schedscope;

namespace {

// Two producer/consumer pairs across nodes: producers pinned to CPUs 0 and
// 1, consumers to CPUs 2 and 3. Each post wakes a consumer on another CPU.
std::int64_t remote_locks(const std::string &policy)
{
    SimConfig cfg;
    cfg.seed = 5;
    auto [name, params] = parse_name_params(policy, "test");
    Simulation sim(std::make_shared<const Topology>(import_synthetic("pack:2 [numa] core:2 pu:1")),
                   make_policy(name, params, "test"), cfg);
    ProcId p = sim.add_process("pingpong", 4 << 20);
    const int ch0 = sim.add_channel(), ch1 = sim.add_channel();
    auto add = [&](int cpu, std::vector<Op> ops) {
        Simulation::TaskSpec s;
        s.program.ops = std::move(ops);
        s.program.iterations = 2000;
        s.cpus_allowed.set(cpu);
        sim.add_task(p, std::move(s));
    };
    add(0, {{Op::Kind::Compute, 20'000, 0, -1}, {Op::Kind::Post, 1, 0, ch0}});
    add(1, {{Op::Kind::Compute, 20'000, 0, -1}, {Op::Kind::Post, 1, 0, ch1}});
    add(2, {{Op::Kind::Wait, 0, 0, ch0}, {Op::Kind::Compute, 5'000, 0, -1}});
    add(3, {{Op::Kind::Wait, 0, 0, ch1}, {Op::Kind::Compute, 5'000, 0, -1}});
    sim.run_to_end();
    std::int64_t n = 0;
    for (auto &rq : sim.runqueues())
        n += rq.lock.remote_acquisitions;
    return n;
}

} // namespace

TEST_CASE("queued wakeups take fewer remote runqueue locks than locked ones, for every policy", "[policy]")
{
    for (const std::string policy : {"linux-2.5-numa", "sched-domains", "cfs", "autonuma",
                                     "autonuma:base=sched-domains", "sched-numa", "bind:mode=hard"}) {
        const std::string sep = policy.find(':') == std::string::npos ? ":" : ",";
        const std::int64_t locked = remote_locks(policy + sep + "wakeup=locked");
        const std::int64_t queued = remote_locks(policy + sep + "wakeup=queued");
        INFO(policy << ": locked " << locked << ", queued " << queued);
        CHECK(locked >= 2000); // most of the 4000 wakeups find the consumer asleep
        CHECK(queued * 10 < locked);
    }
}
