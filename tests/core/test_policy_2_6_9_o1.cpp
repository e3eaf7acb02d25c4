// What the sched-domains policy models of Linux 2.6.9's scheduler beside the
// balancer (kernel/sched.c and kernel/fork.c of 2.6.9): exec-only balancing
// of new tasks (copy_process(), wake_up_new_task(), sched_exec(),
// find_idlest_cpu()) and the O(1) runqueues (task_timeslice(),
// scheduler_tick(), schedule()'s array switch, move_tasks()'s walk), each on
// a machine and tasks built by hand.

#include "catalog/catalog.h"
#include "engine/simulation.h"
#include "hand_built.h"
#include "policies/domain_balancer.h"
#include "policies/o1_arrays.h"

#include <algorithm>

#include <catch2/catch.hpp>

using namespace schedscope;
using namespace schedscope::hand_built;

namespace {

Op compute_ms(double ms) { return Op{Op::Kind::Compute, static_cast<std::int64_t>(ms * 1e6), 0, -1}; }

// A task of process `p` running `ops`, at `nice`.
TaskId add_to(Simulation &sim, ProcId p, std::vector<Op> ops, int nice = 0, CpuSet allowed = {},
              bool own_process = false)
{
    Simulation::TaskSpec s;
    s.program.ops = std::move(ops);
    s.working_set_bytes = 256 * 1024;
    s.nice = nice;
    s.cpus_allowed = std::move(allowed);
    s.own_process = own_process;
    return sim.add_task(p, std::move(s));
}

ProcId process(Simulation &sim) { return sim.add_process("p" + std::to_string(sim.processes().size()), 4 << 20); }

O1Arrays &arrays(Simulation &sim) { return *dynamic_cast<DomainBalancer &>(sim.policy()).o1_arrays(); }

double user_ms(const Simulation &sim, TaskId t) { return static_cast<double>(sim.task(t).stats.user_ns) / 1e6; }

} // namespace

TEST_CASE("2.6.9 task_timeslice: 800 ms at nice -20, 100 ms at nice 0, 5 ms at nice 19", "[policy][2.6.9]")
{
    // SCALE_PRIO(DEF_TIMESLICE * 4) below nice 0, SCALE_PRIO(DEF_TIMESLICE)
    // from 0 up: x * (140 - static_prio) / 20 in jiffies, at least
    // MIN_TIMESLICE. At HZ=1000 a jiffy is a millisecond.
    CHECK(O1Arrays::timeslice_ticks(-20, 1000) == 800); // 400 * 40 / 20
    CHECK(O1Arrays::timeslice_ticks(-1, 1000) == 420);  // 400 * 21 / 20
    CHECK(O1Arrays::timeslice_ticks(0, 1000) == 100);
    CHECK(O1Arrays::timeslice_ticks(1, 1000) == 95); // 100 * 19 / 20
    CHECK(O1Arrays::timeslice_ticks(10, 1000) == 50);
    CHECK(O1Arrays::timeslice_ticks(19, 1000) == 5); // 100 / 20, = MIN_TIMESLICE
    // HZ=100: DEF_TIMESLICE 10 jiffies; MIN_TIMESLICE max(5 * 100 / 1000, 1) = 1.
    CHECK(O1Arrays::timeslice_ticks(0, 100) == 10);
    CHECK(O1Arrays::timeslice_ticks(19, 100) == 1);
    CHECK(O1Arrays::timeslice_ticks(-20, 100) == 80);
}

TEST_CASE("2.6.9 O(1): CPU-bound tasks on one CPU take turns of a whole slice each", "[policy][2.6.9]")
{
    // A (nice 0) arrives first and runs its 100 ms; B then has its slice:
    // 100 ms at nice 0, 5 ms at nice 19, after which the active array is
    // empty, the arrays switch and A runs its next 100 ms.
    for (int nice_b : {0, 19}) {
        Simulation sim = make_sim("pack:1 core:1 pu:1", "sched-domains");
        const TaskId a = add_to(sim, process(sim), {compute_ms(1000)});
        const TaskId b = add_to(sim, process(sim), {compute_ms(1000)}, nice_b);
        sim.run_until(50'500'000);
        INFO("nice of B " << nice_b);
        CHECK(user_ms(sim, a) == Approx(50.5).margin(1.0));
        CHECK(user_ms(sim, b) == 0);
        sim.run_until(150'500'000);
        const double b_slice = nice_b == 0 ? 50.5 : 5.0; // B's share of 100..150.5 ms
        CHECK(user_ms(sim, b) == Approx(b_slice).margin(1.0));
        CHECK(user_ms(sim, a) == Approx(150.5 - b_slice).margin(1.5));
    }
}

TEST_CASE("2.6.9 O(1): a slice that ends with nothing else queued switches the arrays", "[policy][2.6.9]")
{
    // A runs alone: at 100 ms its slice ends and it goes to the expired
    // array; schedule() finds the active one empty, switches them, and A
    // runs on with a new slice. So B, arriving at 150 ms, waits for that
    // slice to end at 200 ms (were A left expired, B would run at once).
    Simulation sim = make_sim("pack:1 core:1 pu:1", "sched-domains");
    const TaskId a = add_to(sim, process(sim), {compute_ms(1000)});
    Simulation::TaskSpec late;
    late.program.ops = {compute_ms(1000)};
    late.start_ns = 150 * kMs;
    const TaskId b = sim.add_task(process(sim), std::move(late));
    sim.run_until(120'500'000);
    CHECK_FALSE(arrays(sim).expired(a, 0));
    CHECK(arrays(sim).slice_left(a) == 80); // ticks 101..120 of its second slice
    sim.run_until(199'500'000);
    CHECK(user_ms(sim, b) == 0);
    CHECK(sim.rq(0).current == a);
    sim.run_until(250'500'000);
    CHECK(user_ms(sim, b) == Approx(50.5).margin(1.0));
}

TEST_CASE("2.6.9 O(1): a woken task of better static priority preempts, an equal one waits", "[policy][2.6.9]")
{
    // B starts first, sleeps 10 ms at once, then computes; A (nice 0) runs
    // meanwhile. TASK_PREEMPTS_CURR: B at nice -5 (prio 115 < 120) takes
    // the CPU when woken; at nice 0 it waits for A's slice to end at 100 ms.
    for (int nice_b : {-5, 0}) {
        Simulation sim = make_sim("pack:1 core:1 pu:1", "sched-domains");
        const TaskId b = add_to(sim, process(sim), {Op{Op::Kind::Sleep, 10 * kMs, 0, -1}, compute_ms(50)}, nice_b);
        add_to(sim, process(sim), {compute_ms(1000)});
        sim.run_until(25'500'000);
        INFO("nice of B " << nice_b);
        if (nice_b < 0)
            CHECK(user_ms(sim, b) == Approx(15.5).margin(1.0));
        else
            CHECK(user_ms(sim, b) == 0);
    }
}

TEST_CASE("2.6.9 move_tasks: the expired array first, then the active one from its tail", "[policy][2.6.9]")
{
    // X, R, Y, Z on CPU 0 (pinned until 1.5 ms), CPU 1 idle: X runs first.
    // With X's slice set to end at the 1 ms tick, X goes to the expired
    // array and R runs, Y and Z queued behind it on the active one. Once
    // released, CPU 1's idle pass at 2 ms moves one task (4 against 0): the
    // expired X. Without the expiry X runs, and the walk of the active
    // array from its tail takes Z, the last queued.
    for (bool expire_x : {true, false}) {
        Simulation sim = make_sim("pack:1 core:2 pu:1", "sched-domains:cache_hot_time_ms=0");
        const TaskId x = add_spin_on(sim, 0, 500);
        const TaskId r = add_spin_on(sim, 0, 500);
        add_spin_on(sim, 0, 500);
        const TaskId z = add_spin_on(sim, 0, 500);
        sim.run_until(500'000);
        REQUIRE(sim.rq(0).current == x);
        if (expire_x)
            arrays(sim).set_slice(x, 1);
        sim.run_until(1'500'000);
        REQUIRE(sim.rq(0).current == (expire_x ? r : x));
        CHECK(arrays(sim).expired(x, 0) == expire_x);
        for (TaskId t = 0; t < 4; ++t)
            release(sim, t);
        sim.run_until(2'500'000);
        const auto pulls = decisions_to(sim, DecisionKind::Pull, 1);
        INFO("X expired: " << expire_x);
        REQUIRE(pulls.size() == 1);
        CHECK(pulls.front().task == (expire_x ? x : z));
        // pull_task() put X on CPU 1's expired array; CPU 1, idle, found its
        // active array empty, switched them and runs X.
        sim.run_until(3'500'000);
        CHECK(sim.rq(1).current == pulls.front().task);
        CHECK_FALSE(arrays(sim).expired(pulls.front().task, 1));
    }
}

TEST_CASE("2.6.9 exec-only balancing: threads start on their creator's CPU, exec'd programs spread", "[policy][2.6.9]")
{
    // Four CPUs of one package. A process's first task is exec'd on CPU 0
    // (its first allowed CPU, where sched_exec() finds it alone); its three
    // threads start there with it (copy_process(), no fork balancing).
    {
        Simulation sim = make_sim("pack:1 core:4 pu:1", "sched-domains:cache_hot_time_ms=0");
        const ProcId p = process(sim);
        for (int i = 0; i < 4; ++i)
            add_to(sim, p, {compute_ms(100)});
        sim.run_until(100'000);
        for (TaskId t = 0; t < 4; ++t)
            CHECK(sim.task(t).cpu == 0);
        bool said = false;
        for (const auto &d : sim.recording().decisions)
            said = said || (d.task == 3 && d.reason.find("created by task 0") != std::string::npos);
        CHECK(said);
        // Until the balancer moves them: by 30 ms every CPU has one.
        sim.run_until(30'000'000);
        std::vector<int> on(4, 0);
        for (TaskId t = 0; t < 4; ++t)
            ++on[static_cast<size_t>(sim.task(t).cpu)];
        CHECK(on == std::vector<int>{1, 1, 1, 1});
    }
    // Four programs of their own (processes, or tasks marked as OS
    // processes sharing one Process's memory, as OLTP's server processes):
    // each exec'd from CPU 0, sched_exec() and find_idlest_cpu() send it to
    // the first idle CPU.
    for (bool shared_memory : {false, true}) {
        Simulation sim = make_sim("pack:1 core:4 pu:1", "sched-domains:cache_hot_time_ms=0");
        const ProcId shared = process(sim);
        for (int i = 0; i < 4; ++i)
            add_to(sim, shared_memory ? shared : process(sim), {compute_ms(100)}, 0, {}, shared_memory);
        sim.run_until(100'000);
        INFO("one Process: " << shared_memory);
        for (TaskId t = 0; t < 4; ++t)
            CHECK(sim.task(t).cpu == static_cast<int>(t));
    }
}

TEST_CASE("2.6.9 exec-only balancing: a thread its creator's CPU does not allow starts on its first allowed one",
          "[policy][2.6.9]")
{
    // set_cpus_allowed() moves a task off a CPU it may no longer use to
    // any_online_cpu() of its new mask: the first.
    Simulation sim = make_sim("pack:1 core:4 pu:1", "sched-domains");
    const ProcId p = process(sim);
    add_to(sim, p, {compute_ms(100)});
    const TaskId t = add_to(sim, p, {compute_ms(100)}, 0, cpus({2, 3}));
    sim.run_until(100'000);
    CHECK(sim.task(0).cpu == 0);
    CHECK(sim.task(t).cpu == 2);
}

TEST_CASE("exec-only placement and the O(1) runqueues are sched-domains' alone", "[policy][2.6.9]")
{
    // bind and the NUMA policies over base=sched-domains keep the balancer
    // with placement down the hierarchy and the engine's fair slices: a
    // process's four threads start on four CPUs, and two CPU-bound tasks
    // pinned to one CPU share it within the first 50 ms.
    for (const char *policy : {"bind", "autonuma:base=sched-domains", "sched-numa:base=sched-domains"}) {
        Simulation sim = make_sim("pack:2 [numa] core:2 pu:1", policy);
        const ProcId p = process(sim);
        for (int i = 0; i < 4; ++i)
            add_to(sim, p, {compute_ms(100)});
        const TaskId a = add_to(sim, process(sim), {compute_ms(100)}, 0, cpus({3}));
        const TaskId b = add_to(sim, process(sim), {compute_ms(100)}, 0, cpus({3}));
        sim.run_until(50'500'000);
        INFO(policy);
        CHECK(dynamic_cast<DomainBalancer &>(sim.policy()).o1_arrays() == nullptr);
        std::vector<int> started;
        for (const auto &d : sim.recording().decisions)
            if (d.kind == DecisionKind::Place && d.task < 4)
                started.push_back(d.to);
        std::sort(started.begin(), started.end());
        CHECK(std::unique(started.begin(), started.end()) - started.begin() > 1);
        CHECK(user_ms(sim, a) > 5);
        CHECK(user_ms(sim, b) > 5);
    }
}
