// OS noise: kernel threads the balancer sees, interrupts and tick cost as
// system time, timer slack; seeded, so a seed still gives one result, and
// seeds now differ where a static placement used to give the same run.

#include "catalog/catalog.h"
#include "engine/invariants.h"
#include "engine/simulation.h"
#include "scenario/run.h"
#include "scenario/scenario.h"
#include "topology/import.h"

#include <catch2/catch.hpp>

#include <string>

using namespace schedscope;

namespace {

Scenario numa02_hard_bind(double noise)
{
    // A static placement: every thread bound to its node, no balancing
    // decision left. Without noise the seed changes nothing. main()'s write
    // takes the pages' first-touch faults, at the instants its sampled
    // touches (drawn from the seed) reach each chunk: made free here, as
    // these tests are about the OS's noise, not the faults.
    Scenario s;
    s.topology = "synthetic:pack:2 [numa] core:4 pu:1";
    s.workload = {"numa02", {{"bind", "hard"}, {"loops", "20"}}};
    s.policies = {{"sched-domains", {}}};
    s.model["os_noise"] = noise;
    s.model["page_fault_ns"] = 0;
    s.model["page_clear_bytes_per_ns"] = 1e4;
    return s;
}

// One compute-only thread a PU, touching no memory: nothing but the OS's
// noise draws from the seed. (A workload that touches memory takes its
// first-touch faults at sampled instants, which the seed sets, so even free
// faults move its end by a few ns.)
Scenario spin_baseline(double noise)
{
    Scenario s;
    s.topology = "synthetic:pack:2 [numa] core:4 pu:1";
    s.workload = {"spin", {{"threads", "8"}, {"work_ms", "2000"}, {"mem_accesses_per_us", "0"}}};
    s.policies = {{"sched-domains", {}}};
    s.model["os_noise"] = noise;
    return s;
}

SimTime run_end(const Scenario &s, std::uint64_t seed)
{
    Simulation sim = build_simulation(s, s.policies.front(), seed, scenario_topology(s));
    sim.run_to_end();
    return sim.end_time();
}

} // namespace

TEST_CASE("a baseline run differs between seeds with noise, not without", "[engine][noise]")
{
    const Scenario quiet = spin_baseline(0.0);
    CHECK(run_end(quiet, 1) == run_end(quiet, 2));
    CHECK(run_end(quiet, 2) == run_end(quiet, 3));
    const Scenario noisy = spin_baseline(1.0);
    const SimTime a = run_end(noisy, 1), b = run_end(noisy, 2), c = run_end(noisy, 3);
    CHECK((a != b || b != c));
    // Same seed, same run.
    CHECK(run_end(noisy, 2) == b);
    // Noise costs a little, not a lot: within 5 % of the quiet run.
    const double q = static_cast<double>(run_end(quiet, 1));
    CHECK(static_cast<double>(a) >= q);
    CHECK(static_cast<double>(a) < 1.05 * q);
}

TEST_CASE("kernel threads are tasks: one kworker and ksoftirqd per CPU, two daemons", "[engine][noise]")
{
    Scenario s = numa02_hard_bind(1.0);
    Simulation sim = build_simulation(s, s.policies.front(), 1, scenario_topology(s));
    int kworkers = 0, ksoftirqds = 0, daemons = 0;
    for (const Task &t : sim.tasks()) {
        if (!t.kernel)
            continue;
        CHECK(sim.processes()[t.proc].kernel);
        if (t.name.rfind("kworker/", 0) == 0) {
            ++kworkers;
            CHECK(t.cpus_allowed.count() == 1); // per-CPU threads stay on their CPU
        } else if (t.name.rfind("ksoftirqd/", 0) == 0) {
            ++ksoftirqds;
        } else {
            ++daemons;
            CHECK(t.cpus_allowed.count() == sim.topology().pu_count()); // any CPU may run them
        }
    }
    CHECK(kworkers == 8);
    CHECK(ksoftirqds == 8);
    CHECK(daemons == 2);
    // Hard binding binds the workload's threads, not the kernel's.
    for (const Task &t : sim.tasks())
        if (!t.kernel)
            CHECK(t.cpus_allowed.count() == 4);

    // Their run time, the interrupts and the ticks are system time; the
    // accounting still adds up.
    sim.run_until(3'000'000'000);
    double kernel_sys = 0;
    for (const Task &t : sim.tasks())
        if (t.kernel) {
            CHECK(t.stats.user_ns == 0);
            kernel_sys += static_cast<double>(t.stats.sys_ns);
        }
    CHECK(kernel_sys > 0);
    CHECK(check_invariants(sim).empty());

    s.model["os_noise"] = 0;
    Simulation quiet = build_simulation(s, s.policies.front(), 1, scenario_topology(s));
    for (const Task &t : quiet.tasks())
        CHECK_FALSE(t.kernel);
}

TEST_CASE("interrupt and tick cost by hand: system time on an idle-free machine", "[engine][noise]")
{
    // One CPU busy with a long compute task, no other noise: each 1 ms tick
    // charges noise_tick_ns, and 1000 interrupts a second charge
    // noise_irq_ns each. Over 1 s: 1000 x 1 us + 1000 x 5 us = 6 ms.
    SimConfig cfg;
    cfg.duration_ns = 1'000'000'000;
    cfg.model.noise_kworker_period_ms = 0;
    cfg.model.noise_softirq_deferred_share = 0;
    cfg.model.noise_irqbalance_period_ms = 0;
    cfg.model.noise_flusher_period_ms = 0;
    cfg.model.noise_irq_per_s = 1000;
    Simulation sim(std::make_shared<const Topology>(import_synthetic("pack:1 core:1 pu:1")),
                   make_policy("simple", {}, "t"), cfg);
    const ProcId p = sim.add_process("busy", 0);
    Simulation::TaskSpec spec;
    spec.program.ops = {{Op::Kind::Compute, 10'000'000'000}};
    sim.add_task(p, std::move(spec));
    sim.run_to_end();
    const double sys = static_cast<double>(sim.runqueues()[0].sys_ns);
    CHECK(sys == Approx(6e6).epsilon(0.01));
}

TEST_CASE("a workload's own system time leaves out the interrupts that found it in user mode", "[engine][noise]")
{
    // Linux's tick-based accounting (account_process_tick): an interrupt that
    // arrives while a thread runs in user mode is that thread's user time,
    // and the kernel threads' time is theirs. numa02 bound to its nodes makes
    // no system call, and its faults are free in this scenario.
    const Scenario noisy = numa02_hard_bind(1.0);
    Simulation sim = build_simulation(noisy, noisy.policies.front(), 1, scenario_topology(noisy));
    sim.run_to_end();
    const RunResult r = summarize(sim, true, false);
    // The machine's kernel time has the tick, the device interrupts and the
    // kernel threads in it; the workload's threads took the interrupts, and
    // are in the kernel on their own behalf only to switch to a kernel thread
    // that woke and back.
    INFO("machine " << r.sys_s << " s, workload " << r.task_sys_s << " s");
    CHECK(r.sys_s > 0);
    CHECK(r.task_sys_s < 0.05 * r.sys_s);
    SimTime irq = 0, sys = 0;
    for (const Task &t : sim.tasks()) {
        CHECK(t.stats.irq_ns <= t.stats.sys_ns);
        if (!t.kernel) {
            irq += t.stats.irq_ns;
            sys += t.stats.sys_ns;
        }
    }
    // Nearly all of the kernel time charged while they ran was interrupts.
    CHECK(irq > 0);
    CHECK(static_cast<double>(irq) > 0.9 * static_cast<double>(sys));

    // hackbench's threads are in the kernel on their own behalf (sends,
    // receives, their wakeups and context switches): system time of theirs.
    Scenario h;
    h.topology = "synthetic:pack:2 [numa] core:4 pu:1";
    h.workload = {"hackbench", {{"groups", "2"}, {"loops", "20"}}};
    h.policies = {{"sched-domains", {}}};
    h.model["os_noise"] = 1.0;
    Simulation hs = build_simulation(h, h.policies.front(), 1, scenario_topology(h));
    hs.run_to_end();
    const RunResult hr = summarize(hs, true, false);
    CHECK(hr.task_sys_s > 0);
    CHECK(hr.task_sys_s < hr.sys_s);
}

TEST_CASE("the benchmark's own times leave out a background command it never waits for", "[engine][noise]")
{
    // numa_test's dispatch script forks hackbench and waits only for its
    // randupdt jobs, so `time` around it never collects hackbench's CPU
    // time. The jobs' user time is in task_user_s, hackbench's only in the
    // machine's user_s; hackbench's sends and receives are its own system
    // time, which task_sys_s leaves out with it.
    Scenario s;
    s.topology = "synthetic:pack:2 [numa] core:2 pu:1";
    s.workload = {
        "numa_test",
        {{"tasks", "2"}, {"work_ms", "20"}, {"disturb_groups", "2"}, {"disturb_loops", "20"}, {"disturb_at_ms", "5"}}};
    s.policies = {{"simple", {}}};
    s.model["os_noise"] = 0.0;
    Simulation sim = build_simulation(s, s.policies.front(), 1, scenario_topology(s));
    sim.run_to_end();
    const RunResult r = summarize(sim, true, false);
    double jobs_user = 0, hackbench_user = 0, jobs_sys = 0, hackbench_sys = 0;
    for (const Task &t : sim.tasks()) {
        const double user = static_cast<double>(t.stats.user_ns + t.stats.irq_ns) / 1e9;
        const double sys = static_cast<double>(t.stats.sys_ns - t.stats.irq_ns) / 1e9;
        if (t.untimed) {
            CHECK(t.name.rfind("hackbench", 0) == 0);
            hackbench_user += user;
            hackbench_sys += sys;
        } else {
            jobs_user += user;
            jobs_sys += sys;
        }
    }
    REQUIRE(hackbench_user > 0);
    REQUIRE(hackbench_sys > 0);
    CHECK(r.task_user_s == Approx(jobs_user));
    CHECK(r.task_sys_s == Approx(jobs_sys).margin(1e-9));
    CHECK(r.user_s > r.task_user_s + 0.5 * hackbench_user);
}
