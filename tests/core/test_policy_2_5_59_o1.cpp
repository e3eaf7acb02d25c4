// linux-2.5-numa's O(1) runqueues as Linux 2.5.59 kernel/sched.c keeps them
// (O1Rules::Linux2559): its timeslices, its sleep average and the priority
// bonus built on it (effective_prio(), activate_task(), scheduler_tick()),
// the reinsertion of interactive tasks into the active array, and the
// preemption of a running task by a woken one of better priority
// (try_to_wake_up()). Each on one CPU built by hand, with tasks whose
// priorities follow from the rules alone.

#include "engine/simulation.h"
#include "hand_built.h"
#include "policies/o1_arrays.h"

#include <catch2/catch.hpp>

using namespace schedscope;
using namespace schedscope::hand_built;

namespace {

Op compute_ms(double ms) { return Op{Op::Kind::Compute, static_cast<std::int64_t>(ms * 1e6), 0, -1}; }
Op sleep_ms(double ms) { return Op{Op::Kind::Sleep, static_cast<std::int64_t>(ms * 1e6), 0, -1}; }

TaskId add_program(Simulation &sim, std::vector<Op> ops, std::int64_t iterations = 1, SimTime start_ns = 0)
{
    const ProcId p = sim.add_process("p" + std::to_string(sim.processes().size()), 4 << 20);
    Simulation::TaskSpec s;
    s.program.ops = std::move(ops);
    s.program.iterations = iterations;
    s.working_set_bytes = 256 * 1024;
    s.start_ns = start_ns;
    return sim.add_task(p, std::move(s));
}

double user_ms(const Simulation &sim, TaskId t) { return static_cast<double>(sim.task(t).stats.user_ns) / 1e6; }

} // namespace

TEST_CASE("2.5.59 TASK_TIMESLICE: 300 ms at nice -20, 151 ms at nice 0, 10 ms at nice 19", "[policy][2.5.59]")
{
    // MIN_TIMESLICE + (MAX_TIMESLICE - MIN_TIMESLICE) * (139 - static_prio)
    // / 39, with 2.5.59's 10 and 300 ms, in jiffies.
    CHECK(O1Arrays::timeslice_ticks_2559(-20, 1000) == 300);
    CHECK(O1Arrays::timeslice_ticks_2559(0, 1000) == 151); // 10 + 290 * 19 / 39
    CHECK(O1Arrays::timeslice_ticks_2559(19, 1000) == 10);
    // HZ=1024 (ia64's): MIN 10, MAX 307 jiffies.
    CHECK(O1Arrays::timeslice_ticks_2559(0, 1024) == 154); // 10 + 297 * 19 / 39
}

TEST_CASE("2.5.59 effective_prio: a bonus of -5 to +5 from the sleep average", "[policy][2.5.59]")
{
    // MAX_SLEEP_AVG is 2 * HZ: 2000 jiffies at HZ=1000. The bonus is
    // 1000 * sleep_avg / 2000 / 100 - 5 in integers.
    CHECK(O1Arrays::effective_prio_2559(0, 2000, 1000) == 115); // slept its fill
    CHECK(O1Arrays::effective_prio_2559(0, 1900, 1000) == 116); // a new task (95 %): bonus 9 - 5
    CHECK(O1Arrays::effective_prio_2559(0, 1799, 1000) == 117);
    CHECK(O1Arrays::effective_prio_2559(0, 999, 1000) == 121);
    CHECK(O1Arrays::effective_prio_2559(0, 0, 1000) == 125);      // a CPU hog
    CHECK(O1Arrays::effective_prio_2559(19, 0, 1000) == 139);     // clamped to MAX_PRIO - 1
    CHECK(O1Arrays::effective_prio_2559(-20, 2000, 1000) == 100); // clamped to MAX_RT_PRIO
}

TEST_CASE("2.5.59 O(1): a task that sleeps preempts a CPU hog when it wakes", "[policy][2.5.59]")
{
    // H computes throughout; S sleeps 10 ms, computes 1 ms, and again. Both
    // start at priority 116. H loses a point of its sleep average for every
    // tick it runs, S gains the jiffies it sleeps: from about 100 ms on, S's
    // priority is the better one and each wakeup takes the CPU at once
    // (try_to_wake_up(): p->prio < rq->curr->prio), so S turns round every
    // 11 ms: 91 ms of work a second. With the engine's fair rotation
    // (timeslice=cfs) S waits for the rest of H's turn each time.
    auto work = [](const std::string &policy) {
        Simulation sim = make_sim("pack:1 core:1 pu:1", policy);
        add_program(sim, {compute_ms(5000)});
        const TaskId s = add_program(sim, {sleep_ms(10), compute_ms(1)}, 200);
        sim.run_until(500 * kMs);
        const double before = user_ms(sim, s);
        sim.run_until(1500 * kMs);
        return user_ms(sim, s) - before;
    };
    const double o1 = work("linux-2.5-numa");
    const double fair = work("linux-2.5-numa:timeslice=cfs");
    INFO("S ran " << o1 << " ms (o1) and " << fair << " ms (cfs) between 0.5 and 1.5 s");
    CHECK(o1 == Approx(1000.0 / 11.0).margin(1.5));
    CHECK(fair < o1 - 4.0);
}

TEST_CASE("2.5.59 O(1): an interactive task goes back to the active array until its bonus is spent", "[policy][2.5.59]")
{
    // B has run alone for 2.2 s: its sleep average is spent (priority 125),
    // and at each slice end it is expired. A arrives at 2.2 s with 95 % of
    // MAX_SLEEP_AVG (priority 116); a new task does not preempt, so A runs
    // when B's slice ends at 2265 ms (15 slices of 151 ms), and B goes to
    // the expired array. A's slices then end at 2416, 2567 and 2718 ms with
    // priorities 117, 118 and 118: interactive (at most 120 - 2), so A goes
    // back to the active array and runs on while B waits. At 2869 ms A's
    // priority is 119: it is expired too, the arrays switch, and A's 119
    // still beats B's 125 for one more slice. At 3020 ms A is expired
    // again, and B, alone on the active array, runs. Without the sleep
    // average B would have run again at 2416 ms.
    Simulation sim = make_sim("pack:1 core:1 pu:1", "linux-2.5-numa");
    const TaskId b = add_program(sim, {compute_ms(5000)});
    const TaskId a = add_program(sim, {compute_ms(2000)}, 1, 2200 * kMs);
    sim.run_until(2270 * kMs);
    const double b_at_a_start = user_ms(sim, b);
    CHECK(b_at_a_start == Approx(2265).margin(2.0));
    sim.run_until(3010 * kMs);
    CHECK(user_ms(sim, b) == Approx(b_at_a_start).margin(1.0)); // B has not run since
    CHECK(user_ms(sim, a) == Approx(3010 - 2265).margin(3.0));
    sim.run_until(3060 * kMs);
    CHECK(user_ms(sim, b) > b_at_a_start + 30.0);
    CHECK(sim.rq(0).current == b);
}
