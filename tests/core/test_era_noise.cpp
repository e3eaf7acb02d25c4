// OS noise as an era figure of the machine: a sample's `model:` lines say
// what its kernel ran beside the benchmark. The NEC TX7 of January 2003 ran
// 2.5.59, which had no periodic per-CPU kernel thread and left softirqs to
// ksoftirqd only when one re-raised itself, so an idle CPU there went
// through schedule() far less often than on a 2010s server; which decides
// whether A2's idle-mask mistake shows (docs/CALIBRATION.md).

#include "engine/simulation.h"
#include "scenario/run.h"
#include "scenario/scenario.h"

#include <catch2/catch.hpp>

#include <string>

using namespace schedscope;

namespace {

struct KernelThreads {
    int kworkers = 0, ksoftirqds = 0, daemons = 0;
};

KernelThreads kernel_threads(const std::string &topology)
{
    Scenario s;
    s.topology = topology;
    s.workload = {"spin", {{"threads", "1"}, {"work_ms", "1"}}};
    s.policies = {{"simple", {}}};
    Simulation sim = build_simulation(s, s.policies.front(), 1, scenario_topology(s));
    KernelThreads k;
    for (const Task &t : sim.tasks()) {
        if (!t.kernel)
            continue;
        if (t.name.rfind("kworker/", 0) == 0)
            ++k.kworkers;
        else if (t.name.rfind("ksoftirqd/", 0) == 0)
            ++k.ksoftirqds;
        else
            ++k.daemons;
    }
    return k;
}

double hackbench_elapsed_s(const std::string &policy_mask, const std::string &variant)
{
    Scenario s;
    s.topology = "sample:nec-tx7";
    s.workload = {"hackbench", {{"groups", "10"}}};
    PolicySpec p{"linux-2.5-numa", {{"timeslice", "o1"}}};
    if (!policy_mask.empty())
        p.params["idle_balance_mask"] = policy_mask;
    if (!variant.empty())
        p.params = {{"variant", variant}};
    s.policies = {p};
    Simulation sim = build_simulation(s, s.policies.front(), 1, scenario_topology(s));
    sim.run_to_end();
    return static_cast<double>(sim.end_time()) / 1e9;
}

} // namespace

TEST_CASE("the TX7's 2.5.59 runs no per-CPU kworker and wakes no ksoftirqd, where a 2010s sample still does",
          "[engine][noise][machines]")
{
    // 2.5.59: keventd runs only queued work and the slab reaps from a timer;
    // do_softirq() wakes ksoftirqd only for a softirq that re-raises itself.
    const KernelThreads tx7 = kernel_threads("sample:nec-tx7");
    CHECK(tx7.kworkers == 0);
    CHECK(tx7.ksoftirqds == 0);
    CHECK(tx7.daemons == 2); // pdflush's 5 s writeback, and irqbalance (no era source: the default stays)
    // The same engine on a machine of another era keeps the defaults.
    const KernelThreads r910 = kernel_threads("sample:dell-r910-4node");
    CHECK(r910.kworkers == 32);
    CHECK(r910.ksoftirqds == 32);
    // 2.6.9 (the Itanium box of 2004): a per-CPU events/N thread wakes for the
    // slab's reap every 2 s.
    const KernelThreads itanium = kernel_threads("sample:itanium-4way");
    CHECK(itanium.kworkers == 4);
    Scenario s;
    s.topology = "sample:itanium-4way";
    s.workload = {"spin", {{"threads", "1"}, {"work_ms", "1"}}};
    s.policies = {{"simple", {}}};
    const Simulation sim = build_simulation(s, s.policies.front(), 1, scenario_topology(s));
    CHECK(sim.model().noise_kworker_period_ms == 2000);
    CHECK(sim.model().noise_timer_slack_ns == 0);
}

TEST_CASE("on the TX7 under its own era's noise, A2 as posted runs hackbench slower than its fix",
          "[policy][rework][noise]")
{
    // A2 as posted: the idle tick passes the CPU's own mask and never pulls,
    // so an idle CPU takes work only when it goes through schedule() itself
    // (which, as built, balances over every CPU: __cpu_to_node_mask). Under
    // 2.5.59's noise almost nothing wakes an idle CPU, so a CPU that went
    // idle while nothing was queued anywhere stays idle until the next
    // wakeup lands on it; the fix's idle tick also pulls within the node
    // every ms. Published: posted 1.70, fixed 1.16, orig 0.77 s (posted 1.47
    // times fixed); ours 0.92, 0.81, 0.62 (1.14 times; 1.8 before the mask
    // was built as A2 built it: docs/CALIBRATION.md, eighth round). (Under
    // the 2010s defaults the two A2 kernels tied: every idle CPU passed
    // through schedule() within tens of ms.)
    const double orig = hackbench_elapsed_s("", "orig");
    const double posted = hackbench_elapsed_s("cpu", "");
    const double fixed = hackbench_elapsed_s("node", "");
    INFO("orig " << orig << " s, posted " << posted << " s, fixed " << fixed << " s");
    CHECK(posted > fixed);
    CHECK(fixed > orig);
}

// The margin this file asked while the model earned it (1.3 times, with
// the node's mask read for __cpu_to_node_mask), towards the published 1.47;
// since the mask is built as A2 built it the model earns 1.14, so the
// bound stays where it was and the case is a known failure
// (docs/CALIBRATION.md, known failures).
TEST_CASE("on the TX7 under its own era's noise, A2 as posted runs hackbench 10 at least 1.3 times its fix",
          "[policy][rework][noise][!shouldfail]")
{
    const double posted = hackbench_elapsed_s("cpu", "");
    const double fixed = hackbench_elapsed_s("node", "");
    INFO("posted " << posted << " s, fixed " << fixed << " s (published 1.70 and 1.16)");
    CHECK(posted > 1.3 * fixed);
}
