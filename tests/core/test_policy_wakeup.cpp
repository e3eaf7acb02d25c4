// The `wakeup` knob every policy has: queued wakeups (wake list + IPI) take
// fewer remote runqueue locks than locked ones.

#include "catalog/catalog.h"
#include "engine/simulation.h"
#include "engine/wakeup_param.h"
#include "engine_test_access.h"
#include "topology/import.h"

#include <catch2/catch.hpp>

using namespace schedscope;

namespace {

// sched-domains with `wakeup` on the synthetic `topo`, no OS noise: one
// task per entry of `cpus`, pinned there, waiting on channel 0 (tasks 0,
// 1, ... of process 0).
Simulation waiters_on(const std::string &topo, const std::string &wakeup, std::initializer_list<int> cpus)
{
    SimConfig cfg;
    cfg.seed = 1;
    cfg.model.os_noise = 0; // nothing else runs
    Simulation sim(std::make_shared<const Topology>(import_synthetic(topo)),
                   make_policy("sched-domains", {{"wakeup", wakeup}}, "test"), cfg);
    const ProcId p = sim.add_process("waiters", 4 << 20);
    const int ch = sim.add_channel();
    REQUIRE(p == 0);
    REQUIRE(ch == 0);
    for (int cpu : cpus) {
        Simulation::TaskSpec s;
        s.program.ops = {{Op::Kind::Wait, 0, 0, ch}};
        s.cpus_allowed.set(cpu);
        sim.add_task(p, std::move(s));
    }
    return sim;
}

// Two producer/consumer pairs across nodes: producers pinned to CPUs 0 and
// 1, consumers to CPUs 2 and 3. Each post wakes a consumer on another CPU.
std::int64_t remote_locks(const std::string &policy, const std::string &topo = "pack:2 [numa] core:2 pu:1")
{
    SimConfig cfg;
    cfg.seed = 5;
    auto [name, params] = parse_name_params(policy, "test");
    Simulation sim(std::make_shared<const Topology>(import_synthetic(topo)), make_policy(name, params, "test"), cfg);
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

TEST_CASE("cfs queues a wakeup only across a last-level cache, and queues by default, as Linux 3.6 does", "[policy]")
{
    // Linux 3.6: TTWU_QUEUE is on, and ttwu_queue() takes the target's lock
    // when waker and target share a cache (cpus_share_cache()).
    const std::string one_llc = "pack:1 l3:1 core:4 pu:1", two_llcs = "pack:2 [numa] l3:1 core:2 pu:1";
    const std::int64_t within_queued = remote_locks("cfs:wakeup=queued", one_llc);
    const std::int64_t within_locked = remote_locks("cfs:wakeup=locked", one_llc);
    const std::int64_t across_queued = remote_locks("cfs:wakeup=queued", two_llcs);
    const std::int64_t across_locked = remote_locks("cfs:wakeup=locked", two_llcs);
    INFO("within: " << within_queued << " / " << within_locked << ", across: " << across_queued << " / "
                    << across_locked);
    CHECK(within_locked >= 2000);
    CHECK(within_queued == within_locked); // the same path: the lock
    CHECK(across_locked >= 2000);
    CHECK(across_queued * 10 < across_locked);
    // The 2.6.39 series queued every remote wakeup, cache or not.
    CHECK(remote_locks("sched-domains:wakeup=queued", one_llc) * 10 <
          remote_locks("sched-domains:wakeup=locked", one_llc));
    // Without `wakeup`, each policy takes its kernel's path.
    CHECK(remote_locks("cfs", two_llcs) == across_queued);
    CHECK(remote_locks("sched-domains", two_llcs) == remote_locks("sched-domains:wakeup=locked", two_llcs));
    CHECK(make_policy("cfs", {}, "test")->wakeup_mode() == WakeupMode::Queued);
    CHECK(make_policy("autonuma", {}, "test")->wakeup_mode() == WakeupMode::Queued); // on cfs by default
    CHECK(make_policy("autonuma", {{"base", "sched-domains"}}, "test")->wakeup_mode() == WakeupMode::Locked);
    CHECK(make_policy("sched-domains", {}, "test")->wakeup_mode() == WakeupMode::Locked);
    CHECK(make_policy("cfs", {}, "test")->params().at("wakeup") == "queued");
}

TEST_CASE("wakeup's default follows the kernel a policy models: queued from Linux 3.0 on", "[policy]")
{
    // The one rule (engine/policy.h): TTWU_QUEUE came with 3.0.
    CHECK(default_wakeup_for({}) == WakeupMode::Locked);
    CHECK(default_wakeup_for({2, 5}) == WakeupMode::Locked);
    CHECK(default_wakeup_for({2, 6}) == WakeupMode::Locked);
    CHECK(default_wakeup_for({3, 0}) == WakeupMode::Queued);
    CHECK(default_wakeup_for({3, 6}) == WakeupMode::Queued);
    // Each built-in policy's release, and what every view of the default
    // (the policy, its params(), the row `list`, labels and dialogs read)
    // says with it.
    const std::vector<std::pair<std::string, KernelRelease>> releases = {
        {"simple", {}},       {"linux-2.5-numa", {2, 5}}, {"sched-domains", {2, 6}}, {"cfs", {3, 6}},
        {"autonuma", {3, 6}}, {"sched-numa", {3, 6}},     {"bind", {2, 6}},          {"round-robin", {}},
    };
    REQUIRE(releases.size() == policy_catalog().size());
    for (const auto &[name, release] : releases) {
        INFO(name);
        const auto policy = make_policy(name, {}, "test");
        CHECK(policy->modelled_kernel().major == release.major);
        CHECK(policy->modelled_kernel().minor == release.minor);
        const WakeupMode mode = default_wakeup_for(release);
        CHECK(policy->wakeup_mode() == mode);
        CHECK(policy->params().at(wakeup_param_name()) == wakeup_text(mode));
        CHECK(wakeup_info(name, {}).default_value == wakeup_text(mode));
    }
    // A NUMA policy's follows its base.
    CHECK(wakeup_info("sched-numa", {{"base", "sched-domains"}}).default_value == "locked");
    // Parameters that build no policy leave it unknown.
    CHECK(wakeup_info("cfs", {{"no_such_knob", "1"}}).default_value.empty());
}

TEST_CASE("a waker pays a line for each waiter it wakes on another CPU, from the CPU it slept on", "[policy][engine]")
{
    // Two nodes (packages) of two CPUs, SLIT 20 between them. Three tasks
    // wait on one channel, pinned to CPU 0 (the waker's own), CPU 1 (its
    // package) and CPU 2 (the other node); each post from CPU 0 wakes the
    // one that waited longest, in that order.
    auto debt_of_each_wakeup = [](const std::string &wakeup) {
        Simulation sim = waiters_on("pack:2 [numa] core:2 pu:1", wakeup, {0, 1, 2});
        REQUIRE(sim.topology().node_distance(0, 1) == 20);
        const int ch = 0;
        sim.run_until(10'000'000); // all three blocked, every runqueue idle
        std::vector<double> debts;
        for (int i = 0; i < 3; ++i) {
            const double before = sim.rq(0).sys_debt_ns;
            EngineTestAccess::post(sim, ch, 1, 0);
            debts.push_back(sim.rq(0).sys_debt_ns - before);
        }
        return debts;
    };
    // The model's defaults: rq_lock_local_ns 50, rq_lock_remote_ns 400 from
    // another package, times the remote/local latency ratio across nodes
    // (no remote figure here: SLIT 20 gives 1 + (2 - 1) x 0.5 = 1.5),
    // rq_lock_hold_ns 300, rq_remote_enqueue_lines 2, ipi_ns 1500,
    // context_switch_ns 2000.
    const double package_line = 400, node_line = 400.0 * 1.5;
    // Own CPU: no line to fetch. CPU 0 is idle, so the woken task runs at
    // once, and its switch (2000, under CPU 0's lock again) is CPU 0's too.
    const double own = (50 + 300) + (2000 + 50 + 300);
    SECTION("locked: the waiter's entry, then the target's lock, held while two of its lines come over")
    {
        const std::vector<double> d = debt_of_each_wakeup("locked");
        CHECK(d[0] == Approx(own));
        CHECK(d[1] == Approx(package_line + 300 + 2 * package_line + package_line));
        CHECK(d[2] == Approx(node_line + 300 + 2 * node_line + node_line));
    }
    SECTION("queued: the wake list's line and half an IPI, then the waiter's entry")
    {
        const std::vector<double> d = debt_of_each_wakeup("queued");
        CHECK(d[0] == Approx(own)); // not queued on its own CPU
        CHECK(d[1] == Approx(package_line + 750 + package_line));
        CHECK(d[2] == Approx(node_line + 750 + node_line));
    }
}

TEST_CASE("a post wakes its waiters one after the other, each when the waker has paid for the one before",
          "[policy][engine]")
{
    // Linux 2.6.39 ipc/sem.c wake_up_sem_queue_do() calls wake_up_process()
    // for each woken sleeper in turn. Three waiters pinned to CPUs 1, 2 and
    // 3 (one package of four CPUs, no shared cache), one post of three
    // tokens from CPU 0.
    Simulation sim = waiters_on("pack:1 core:4 pu:1", "locked", {1, 2, 3});
    const int ch = 0;
    sim.run_until(10'000'000);
    const SimTime t0 = sim.now();
    const double before = sim.rq(0).sys_debt_ns;
    EngineTestAccess::post(sim, ch, 3, 0);
    // Each wakeup: the waiter's entry (400, another CPU of the package),
    // the target's lock line (400), its hold (300) and two of its lines
    // (2 x 400) = 1900 ns of the waker's time.
    const double each = 400 + 400 + 300 + 2 * 400;
    CHECK(sim.rq(0).sys_debt_ns - before == Approx(each));
    CHECK(sim.task(0).state != TaskState::Blocked);
    CHECK(sim.task(1).state == TaskState::Blocked);
    CHECK(sim.task(2).state == TaskState::Blocked);
    sim.run_until(t0 + static_cast<SimTime>(each) - 1);
    CHECK(sim.task(1).state == TaskState::Blocked);
    sim.run_until(t0 + static_cast<SimTime>(each));
    CHECK(sim.task(1).state != TaskState::Blocked);
    CHECK(sim.task(2).state == TaskState::Blocked);
    sim.run_until(t0 + 2 * static_cast<SimTime>(each));
    CHECK(sim.task(2).state != TaskState::Blocked);
}

TEST_CASE("a task posting to several waiters stays in the kernel until the last is woken", "[policy][engine]")
{
    // semop() returns to user space after wake_up_sem_queue_do() has woken
    // the whole list (2.6.39 ipc/sem.c): the poster's next op waits for it.
    Simulation sim = waiters_on("pack:1 core:4 pu:1", "locked", {1, 2, 3});
    const ProcId p = 0;
    const int ch = 0;
    const int parked = sim.add_channel(); // the poster waits here for good after counting
    Simulation::TaskSpec poster;
    poster.program.ops = {{Op::Kind::Post, 3, 0, ch}, {Op::Kind::CountOp, 0, 0, -1}, {Op::Kind::Wait, 0, 0, parked}};
    poster.program.iterations = 1;
    poster.cpus_allowed.set(0);
    poster.start_ns = 10'000'000;
    const TaskId id = sim.add_task(p, std::move(poster));
    bool counted_early = false;
    int first_woken_at_step = -1, all_woken_at_step = -1, counted_at_step = -1;
    for (int step = 0; step < 400; ++step) {
        sim.run_until(10'000'000 + 100 * static_cast<SimTime>(step));
        int blocked = 0;
        for (TaskId w = 0; w < 3; ++w)
            blocked += sim.task(w).state == TaskState::Blocked ? 1 : 0;
        const bool counted = sim.task(id).stats.ops > 0;
        if (blocked < 3 && first_woken_at_step < 0)
            first_woken_at_step = step;
        if (blocked == 0 && all_woken_at_step < 0)
            all_woken_at_step = step;
        if (counted && counted_at_step < 0)
            counted_at_step = step;
        counted_early = counted_early || (counted && blocked > 0);
    }
    REQUIRE(first_woken_at_step >= 0);
    REQUIRE(all_woken_at_step > first_woken_at_step); // in turn, not at once
    CHECK(counted_at_step >= all_woken_at_step);
    CHECK_FALSE(counted_early);
}
