// What the sched-domains policy models of Linux 2.6.9's scheduler beside the
// balancer (kernel/sched.c and kernel/fork.c of 2.6.9): exec-only balancing
// of new tasks (copy_process(), wake_up_new_task(), sched_exec(),
// find_idlest_cpu()) and the O(1) runqueues (task_timeslice(),
// scheduler_tick(), schedule()'s array switch, move_tasks()'s walk) with the
// priorities 2.6.9's sleep average gives (its formulas first), each on a
// machine and tasks built by hand. A new task has
// 900 ms of sleep average (priority 116 at nice 0, 135 at nice 19).

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

TEST_CASE("2.6.9 effective_prio: CURRENT_BONUS - 5 off the static priority", "[policy][2.6.9]")
{
    // MAX_SLEEP_AVG = DEF_TIMESLICE * MAX_BONUS = 1000 jiffies (1 s) at
    // HZ=1000; CURRENT_BONUS = jiffies * 10 / 1000.
    constexpr std::int64_t ms = 1'000'000;
    CHECK(O1Arrays::current_bonus_269(1000 * ms, 1000) == 10);
    CHECK(O1Arrays::current_bonus_269(999 * ms + 999'999, 1000) == 9);
    CHECK(O1Arrays::current_bonus_269(799 * ms, 1000) == 7);
    CHECK(O1Arrays::effective_prio_269(0, 1000 * ms, 1000) == 115);
    CHECK(O1Arrays::effective_prio_269(0, 900 * ms, 1000) == 116); // a new task
    CHECK(O1Arrays::effective_prio_269(0, 799 * ms, 1000) == 118); // INTERACTIVE_SLEEP
    CHECK(O1Arrays::effective_prio_269(0, 699 * ms, 1000) == 119);
    CHECK(O1Arrays::effective_prio_269(0, 0, 1000) == 125);           // a CPU hog
    CHECK(O1Arrays::effective_prio_269(19, 0, 1000) == 139);          // MAX_PRIO - 1
    CHECK(O1Arrays::effective_prio_269(-20, 1000 * ms, 1000) == 100); // MAX_RT_PRIO
    CHECK(O1Arrays::child_sleep_avg_ns(1000) == 900 * ms);            // 10 * 95 / 100 = 9 points
    // TASK_INTERACTIVE: prio <= static - (nice * 10 / 40 + 2); the kernel's
    // table: 4 of the 11 priorities at nice 0, 9 at -20, 2 at 10, none at 19.
    CHECK(O1Arrays::task_interactive_269(118, 0));
    CHECK_FALSE(O1Arrays::task_interactive_269(119, 0));
    CHECK(O1Arrays::task_interactive_269(103, -20));
    CHECK_FALSE(O1Arrays::task_interactive_269(104, -20));
    CHECK(O1Arrays::task_interactive_269(126, 10));
    CHECK_FALSE(O1Arrays::task_interactive_269(127, 10));
    CHECK_FALSE(O1Arrays::task_interactive_269(134, 19));
    // INTERACTIVE_SLEEP: MAX_SLEEP_AVG * (5 + DELTA + 1) / 10 - 1 jiffies.
    CHECK(O1Arrays::interactive_sleep_ns(0, 1000) == 799 * ms);
    CHECK(O1Arrays::interactive_sleep_ns(19, 1000) == 1199 * ms);
    CHECK(O1Arrays::interactive_sleep_ns(-20, 1000) == 299 * ms);
}

TEST_CASE("2.6.9 TIMESLICE_GRANULARITY: 5 ms doubled per missing bonus point, times the CPUs", "[policy][2.6.9]")
{
    constexpr std::int64_t ms = 1'000'000;
    CHECK(O1Arrays::timeslice_granularity(1000 * ms, 1000, 1) == 5);
    CHECK(O1Arrays::timeslice_granularity(900 * ms, 1000, 1) == 5); // (10 - 9) ?: 1 -> 1 << 0
    CHECK(O1Arrays::timeslice_granularity(800 * ms, 1000, 1) == 10);
    CHECK(O1Arrays::timeslice_granularity(799 * ms, 1000, 1) == 20);
    CHECK(O1Arrays::timeslice_granularity(900 * ms, 1000, 4) == 20);
    CHECK(O1Arrays::timeslice_granularity(799 * ms, 1000, 4) == 80); // past a 100 ms slice's 20 left
    CHECK(O1Arrays::timeslice_granularity(0, 1000, 1) == 5 * 512);
}

TEST_CASE("2.6.9 recalc_task_prio: the sleep credit, its multiplier and its caps", "[policy][2.6.9]")
{
    constexpr std::int64_t ms = 1'000'000;
    using S = O1Arrays::Sleep269;
    const auto recalc = [](S s, std::int64_t sleep, int activated, bool user = true, int nice = 0) {
        O1Arrays::recalc_task_prio(s, sleep, activated, user, nice, 1000);
        return s;
    };
    // The sleep counts times (MAX_BONUS - CURRENT_BONUS), at least once.
    CHECK(recalc(S{0, 0}, 10 * ms, O1Arrays::kNone).sleep_avg_ns == 100 * ms);
    CHECK(recalc(S{500 * ms, 0}, 10 * ms, O1Arrays::kNone).sleep_avg_ns == 550 * ms);
    CHECK(recalc(S{995 * ms, 0}, 4 * ms, O1Arrays::kNone).sleep_avg_ns == 999 * ms);
    // Past NS_MAX_SLEEP_AVG: capped, and a credit.
    const S full = recalc(S{990 * ms, 0}, 20 * ms, O1Arrays::kNone);
    CHECK(full.sleep_avg_ns == 1000 * ms);
    CHECK(full.credit == 1);
    // A user task's sleep beyond INTERACTIVE_SLEEP (799 ms): just
    // interactive, 900 ms, whatever it had (here more), and a credit.
    const S idle = recalc(S{1000 * ms, 3}, 800 * ms, O1Arrays::kByTask);
    CHECK(idle.sleep_avg_ns == 900 * ms);
    CHECK(idle.credit == 4);
    // A kernel thread (no mm) has no such rule: 800 ms x 10, capped.
    CHECK(recalc(S{0, 0}, 800 * ms, O1Arrays::kNone, false).sleep_avg_ns == 1000 * ms);
    // From TASK_UNINTERRUPTIBLE (-1): up to INTERACTIVE_SLEEP, not beyond,
    // and nothing once there; a long sleep is not taken as idle.
    CHECK(recalc(S{790 * ms, 0}, 10 * ms, O1Arrays::kUninterruptible).sleep_avg_ns == 799 * ms);
    CHECK(recalc(S{700 * ms, 0}, 10 * ms, O1Arrays::kUninterruptible).sleep_avg_ns == 730 * ms);
    CHECK(recalc(S{850 * ms, 0}, 10 * ms, O1Arrays::kUninterruptible).sleep_avg_ns == 850 * ms);
    CHECK(recalc(S{0, 0}, 2000 * ms, O1Arrays::kUninterruptible).sleep_avg_ns == 799 * ms);
    // ... unless the task has high credit (over CREDIT_LIMIT, 100).
    CHECK(recalc(S{790 * ms, 101}, 10 * ms, O1Arrays::kUninterruptible).sleep_avg_ns == 820 * ms);
    // Low credit (below -100): one timeslice (100 ms) at most.
    CHECK(recalc(S{0, -101}, 50 * ms, O1Arrays::kNone).sleep_avg_ns == 100 * ms);
    // On the runqueue: all of the wait after an interrupt's wakeup, 38/128
    // of it after a task's, none after an uninterruptible sleep's.
    CHECK(O1Arrays::on_runqueue_credit_ns(128 * ms, O1Arrays::kByTask) == 38 * ms);
    CHECK(O1Arrays::on_runqueue_credit_ns(10 * ms, O1Arrays::kByInterrupt) == 10 * ms);
    CHECK(O1Arrays::on_runqueue_credit_ns(10 * ms, O1Arrays::kUninterruptible) == 0);
    CHECK(O1Arrays::on_runqueue_credit_ns(10 * ms, O1Arrays::kNone) == 0);
}

TEST_CASE("2.6.9 schedule(): the run time charged, less with high credit, and the credit lost at 0", "[policy][2.6.9]")
{
    constexpr std::int64_t ms = 1'000'000;
    using S = O1Arrays::Sleep269;
    const auto charge = [](S s, std::int64_t run) {
        O1Arrays::charge_run(s, run, 1000);
        return s;
    };
    CHECK(charge(S{100 * ms, 0}, 30 * ms).sleep_avg_ns == 70 * ms);
    const S spent = charge(S{100 * ms, 0}, 200 * ms);
    CHECK(spent.sleep_avg_ns == 0);
    CHECK(spent.credit == -1);
    CHECK(charge(S{0, -101}, 1 * ms).credit == -101); // low credit stays
    // High credit: the run divided by the current bonus (10 at 1000 ms).
    CHECK(charge(S{1000 * ms, 101}, 50 * ms).sleep_avg_ns == 995 * ms);
    // At most NS_MAX_SLEEP_AVG a time.
    CHECK(charge(S{1000 * ms, 0}, 2000 * ms).sleep_avg_ns == 0);
}

TEST_CASE("2.6.9 EXPIRED_STARVING: STARVATION_LIMIT per runnable task, or a better static priority expired",
          "[policy][2.6.9]")
{
    // STARVATION_LIMIT = MAX_SLEEP_AVG = 1000 jiffies at HZ=1000.
    CHECK_FALSE(O1Arrays::expired_starving_269(2000, 2, 1000, 120, 140));
    CHECK(O1Arrays::expired_starving_269(2001, 2, 1000, 120, 140));
    CHECK_FALSE(O1Arrays::expired_starving_269(-1, 2, 1000, 120, 140)); // none expired
    CHECK(O1Arrays::expired_starving_269(0, 2, 1000, 120, 115));        // nice -5 expired
    CHECK_FALSE(O1Arrays::expired_starving_269(0, 2, 1000, 120, 120));
}

TEST_CASE("2.6.9 O(1): CPU-bound tasks of nice 19 on one CPU take turns of a whole slice each", "[policy][2.6.9]")
{
    // Nice 19 is never interactive (TASK_INTERACTIVE needs 139 - 6 = 133,
    // the best bonus gives 134): no round-robin within a slice, and every
    // slice end expires the task. A arrives first and runs its 5 ms slice;
    // B then has its own, after which the active array is empty, the
    // arrays switch and A runs its next 5 ms. (User time is counted at the
    // ticks: at 2.5 ms, up to the tick of 2 ms.)
    Simulation sim = make_sim("pack:1 core:1 pu:1", "sched-domains");
    const TaskId a = add_to(sim, process(sim), {compute_ms(1000)}, 19);
    const TaskId b = add_to(sim, process(sim), {compute_ms(1000)}, 19);
    sim.run_until(2'500'000);
    CHECK(user_ms(sim, a) == Approx(2.0).margin(0.1));
    CHECK(user_ms(sim, b) == 0);
    sim.run_until(7'500'000);
    CHECK(user_ms(sim, a) == Approx(5.0).margin(0.1));
    CHECK(user_ms(sim, b) == Approx(2.0).margin(0.1));
    sim.run_until(12'500'000);
    CHECK(user_ms(sim, a) == Approx(7.0).margin(0.1)); // 0-5, 10-12
    CHECK(user_ms(sim, b) == Approx(5.0).margin(0.1));
}

TEST_CASE("2.6.9 O(1): two interactive CPU hogs round-robin by TIMESLICE_GRANULARITY", "[policy][2.6.9]")
{
    // Both at nice 0 with 900 ms of sleep average: priority 116,
    // interactive, current bonus 9, so a granularity of MIN_TIMESLICE (5
    // ms, on one CPU). A runs first; at 5 ms scheduler_tick() requeues it
    // behind B (same priority) and B runs. Each requeue charges the 5 ms
    // run, leaving 895 ms: bonus 8, a granularity of 10 ms, counted from the
    // start of the slice (A's next requeue when 10 ms of it are used). So
    // A runs 0-5, 10-15, 20-30, 40-50, ..., B 5-10, 15-20, 30-40, ...: by
    // 100 ms each has had 50 ms, where whole slices would have given A all
    // 100 ms. (User time is counted at the ticks.)
    Simulation sim = make_sim("pack:1 core:1 pu:1", "sched-domains");
    const TaskId a = add_to(sim, process(sim), {compute_ms(1000)});
    const TaskId b = add_to(sim, process(sim), {compute_ms(1000)});
    sim.run_until(5'500'000);
    CHECK(user_ms(sim, a) == Approx(5.0).margin(0.1));
    CHECK(sim.rq(0).current == b);
    sim.run_until(25'500'000);
    CHECK(user_ms(sim, a) == Approx(15.0).margin(0.1)); // 0-5, 10-15, 20-25
    CHECK(user_ms(sim, b) == Approx(10.0).margin(0.1)); // 5-10, 15-20
    CHECK(arrays(sim).prio(b) == 117);                  // requeued at 20 ms with 895 ms
    sim.run_until(100'500'000);
    CHECK(user_ms(sim, a) == Approx(50.0).margin(0.1));
    CHECK(user_ms(sim, b) == Approx(50.0).margin(0.1));
}

TEST_CASE("2.6.9 O(1): an interactive task goes back to the active array until its bonus is spent", "[policy][2.6.9]")
{
    // H runs alone from 0: by 1.2 s its sleep average is spent (priority
    // 125) and every slice end expires it. A arrives at 1205 ms with 900
    // ms (116); a new task does not preempt, so A runs when H's slice ends
    // at 1300 ms and H goes to the expired array. A's granularity requeues
    // find nothing else on the active array, so A runs on, charged as it
    // goes: 810 ms by its slice end at 1400 (priority 117, interactive: back
    // on the active array; H's static priority is no better than A's, so
    // EXPIRED_STARVING does not hold), 700 ms at 1500 (118: back again),
    // and 660 ms at 1600: priority 119, not interactive, expired. The
    // active array is then empty, the arrays switch, and A's 119 still
    // beats H's 125 for one more slice; at 1700 ms A is expired again and
    // H, on the active array, runs. With static priorities H would have run
    // again at 1400 ms.
    Simulation sim = make_sim("pack:1 core:1 pu:1", "sched-domains");
    const TaskId h = add_to(sim, process(sim), {compute_ms(5000)});
    Simulation::TaskSpec late;
    late.program.ops = {compute_ms(2000)};
    late.start_ns = 1205 * kMs;
    const TaskId a = sim.add_task(process(sim), std::move(late));
    sim.run_until(1299 * kMs);
    const double h_before = user_ms(sim, h);
    CHECK(h_before == Approx(1299).margin(1.0));
    CHECK(arrays(sim).prio(h) == 125);
    sim.run_until(1650 * kMs);
    CHECK(user_ms(sim, h) == Approx(h_before + 1).margin(0.5));
    CHECK(user_ms(sim, a) == Approx(350).margin(0.5));
    CHECK(arrays(sim).prio(a) == 119);
    CHECK(arrays(sim).sleep_avg_ns(a) == 600 * kMs); // charged at 1600 ms
    sim.run_until(1699 * kMs);
    CHECK(sim.rq(0).current == a);
    sim.run_until(1750 * kMs);
    CHECK(sim.rq(0).current == h);
    CHECK(user_ms(sim, a) == Approx(400).margin(0.5));
}

TEST_CASE("2.6.9 O(1): a task that waits on I/O preempts a CPU hog each time it wakes", "[policy][2.6.9]")
{
    // H computes throughout; S waits 10 ms on an I/O (TASK_UNINTERRUPTIBLE:
    // its sleep average rises to INTERACTIVE_SLEEP, 799 ms, and no further),
    // computes 1 ms, and again. By 1.5 s H's sleep average is spent
    // (priority 125) and S's is at the cap, less the millisecond it runs
    // (118): each wakeup takes the CPU at once (TASK_PREEMPTS_CURR), so S
    // turns round every 11 ms, 1000 / 11 ms of work a second.
    Simulation sim = make_sim("pack:1 core:1 pu:1", "sched-domains");
    const TaskId h = add_to(sim, process(sim), {compute_ms(5000)});
    Simulation::TaskSpec io;
    io.program.ops = {Op{Op::Kind::Sleep, 10 * kMs, 0, -1}, compute_ms(1)};
    io.program.iterations = 300;
    const TaskId s = sim.add_task(process(sim), std::move(io));
    sim.run_until(1500 * kMs);
    const double before = user_ms(sim, s);
    sim.run_until(2500 * kMs);
    CHECK(user_ms(sim, s) - before == Approx(1000.0 / 11.0).margin(1.5));
    CHECK(arrays(sim).prio(h) == 125);
    CHECK(arrays(sim).prio(s) == 118);
    CHECK(arrays(sim).sleep_avg_ns(s) <= O1Arrays::interactive_sleep_ns(0, 1000));
    CHECK(arrays(sim).sleep_avg_ns(s) >= O1Arrays::interactive_sleep_ns(0, 1000) - 2 * kMs);
}

TEST_CASE("2.6.9 O(1): a slice that ends with nothing else queued switches the arrays", "[policy][2.6.9]")
{
    // A (nice 19, never interactive) runs alone: at 5 ms its slice ends and
    // it goes to the expired array; schedule() finds the active one empty,
    // switches them, and A runs on with a new slice. So B, arriving at 7.5
    // ms, waits for that slice to end at 10 ms (were A left expired, B
    // would run at once).
    Simulation sim = make_sim("pack:1 core:1 pu:1", "sched-domains");
    const TaskId a = add_to(sim, process(sim), {compute_ms(1000)}, 19);
    Simulation::TaskSpec late;
    late.program.ops = {compute_ms(1000)};
    late.nice = 19;
    late.start_ns = 7'500'000;
    const TaskId b = sim.add_task(process(sim), std::move(late));
    sim.run_until(6'500'000);
    CHECK_FALSE(arrays(sim).expired(a, 0));
    CHECK(arrays(sim).slice_left(a) == 4); // tick 6 of its second slice
    sim.run_until(9'500'000);
    CHECK(user_ms(sim, b) == 0);
    CHECK(sim.rq(0).current == a);
    sim.run_until(12'500'000);
    CHECK(user_ms(sim, b) == Approx(2.0).margin(0.1)); // from 10 ms, counted to the tick of 12
}

TEST_CASE("2.6.9 O(1): a woken task of better priority preempts, a worse one waits", "[policy][2.6.9]")
{
    // B starts first, sleeps 12 ms at once, then computes; A (nice 0) runs
    // meanwhile, requeued by TIMESLICE_GRANULARITY at 5 and 10 ms, where its
    // sleep average, charged 5 ms, gives 117. B's wait was an I/O (from
    // TASK_UNINTERRUPTIBLE: its 900 ms, above INTERACTIVE_SLEEP, gain
    // nothing): 116 at nice 0, which takes the CPU when woken
    // (TASK_PREEMPTS_CURR) and keeps it, its own requeue at 16 ms (the tick
    // of 12 ms comes after the wakeup and counts against B's slice) finding
    // A's 117 worse, until its requeue at 21 ms leaves it at 117 too; at
    // nice 5 (125 - 4 = 121) it waits.
    for (int nice_b : {0, 5}) {
        Simulation sim = make_sim("pack:1 core:1 pu:1", "sched-domains");
        const TaskId b = add_to(sim, process(sim), {Op{Op::Kind::Sleep, 12 * kMs, 0, -1}, compute_ms(50)}, nice_b);
        const TaskId a = add_to(sim, process(sim), {compute_ms(1000)});
        sim.run_until(11'500'000);
        CHECK(arrays(sim).prio(a) == 117);
        sim.run_until(20'500'000);
        INFO("nice of B " << nice_b);
        if (nice_b == 0) {
            CHECK(user_ms(sim, b) == Approx(8.0).margin(0.1)); // 12-20 (to the tick of 20)
            sim.run_until(25'500'000);
            CHECK(user_ms(sim, b) == Approx(9.0).margin(0.1)); // 12-21
        } else {
            CHECK(user_ms(sim, b) == 0);
        }
    }
}

TEST_CASE("2.6.9 move_tasks: the expired array first, then the active one from its tail", "[policy][2.6.9]")
{
    // X, R, Y, Z on CPU 0 (pinned until 1.5 ms), CPU 1 idle: X runs first.
    // All at nice 19, which is never interactive, so a slice end expires.
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
        for (TaskId t = 0; t < 4; ++t)
            EngineTestAccess::task(sim, t).nice = 19;
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
