// NUMA balancing's costs and rules page by page (engine/policy_actions.h,
// autonuma's knuma_scand and migrate on fault, sched-numa's own scanner), on
// a 2-node, 4-CPU machine (CPUs 0-1 node 0, 2-3 node 1) with the default
// model: 4 MiB chunks of 1024 pages of 4 KiB, two 2 MiB pmds per chunk,
// scan_ns_per_page 20, hinting_fault_ns 1500, ipi_ns 1500, a copy at
// min(cache fill 5, memory 10, link 5 / 1 hop) = 5 bytes/ns.

#include "catalog/catalog.h"
#include "engine/invariants.h"
#include "engine/policy_actions.h"
#include "engine/simulation.h"
#include "topology/import.h"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace schedscope;

namespace {

constexpr const char *kTwoNodes = "pack:2 [numa] core:2 pu:1";
constexpr int kChunks = 16;
constexpr double kPages = 1024; // per chunk

Simulation make(const std::string &policy, std::uint64_t seed = 1)
{
    SimConfig cfg;
    cfg.seed = seed;
    auto [name, params] = parse_name_params(policy, "test");
    return Simulation(std::make_shared<const Topology>(import_synthetic(kTwoNodes)), make_policy(name, params, "test"),
                      cfg);
}

CpuSet cpus(std::initializer_list<int> list)
{
    CpuSet s;
    for (int c : list)
        s.set(c);
    return s;
}

// One thread per CPU of `pin` (pinned there), all touching all of the
// process's memory, which starts on `memory_node`.
ProcId add_process(Simulation &sim, const std::vector<int> &pin, int memory_node, double work_ms = 3000)
{
    ProcId p = sim.add_process("proc" + std::to_string(sim.processes().size()), std::int64_t{kChunks} << 22);
    for (int c : pin) {
        Simulation::TaskSpec s;
        s.program.ops = {Op{Op::Kind::Compute, static_cast<std::int64_t>(work_ms * 1e6), 0, -1}};
        s.segments = {AccessSegment{0, kChunks, 1.0}};
        s.mem_intensity = 0.02;
        s.working_set_bytes = 8 << 20;
        s.cpus_allowed = cpus({c});
        sim.add_task(p, std::move(s));
    }
    sim.place_chunks(p, 0, kChunks, memory_node);
    return p;
}

std::int64_t page_migrate_decisions(const Simulation &sim, const std::string &with = "")
{
    std::int64_t n = 0;
    for (auto &d : sim.recording().decisions)
        n += d.kind == DecisionKind::PageMigrate && d.reason.find(with) != std::string::npos;
    return n;
}

double debt(const Simulation &sim, int cpu) { return sim.rq(cpu).sys_debt_ns; }

// A chunk's copy by `cpu` from node `from` to `to` at the test machine's 5
// bytes a ns, slowed as the memory model's waits of the moment say.
double loaded_copy_ns(const Simulation &sim, int cpu, int from, int to)
{
    const MemoryModel &mm = sim.memory();
    const int here = sim.node_of_pu(cpu);
    const double slower = std::max(mm.access_factor(here, from) / mm.latency_ratio(here, from),
                                   mm.access_factor(here, to) / mm.latency_ratio(here, to));
    return 4.0 * 1024 * 1024 / 5.0 * slower;
}

} // namespace

TEST_CASE("NUMA balancing actions charge page by page: scan, flush, fault, copy, split", "[policy][numa]")
{
    // Threads of one process on CPUs 0, 1 and 2; its memory on node 1.
    Simulation sim = make("cfs");
    const ProcId p = add_process(sim, {0, 1, 2}, 1);
    sim.run_until(2'000'000);
    REQUIRE(sim.task(sim.processes()[p].tasks[1]).state == TaskState::Running);

    SECTION("arming walks every pte of a small-page chunk, one pmd per 2 MiB of a huge one")
    {
        double before = debt(sim, 0);
        REQUIRE(PolicyActions::arm_hinting(sim, p, 0, 0, PageGrain::Pte));
        CHECK(debt(sim, 0) - before == Approx(kPages * 20));
        before = debt(sim, 0);
        REQUIRE(PolicyActions::arm_hinting(sim, p, 1, 0, PageGrain::Pmd));
        CHECK(debt(sim, 0) - before == Approx(kPages * 20)); // every pte read for the statistics
        before = debt(sim, 0);
        REQUIRE(PolicyActions::arm_hinting(sim, p, 2, 0, PageGrain::Huge));
        CHECK(debt(sim, 0) - before == Approx(2 * 20));
        CHECK(sim.numa_activity().pages_scanned == 3 * 1024);
    }
    SECTION("a TLB flush sends one IPI to each other CPU running the process")
    {
        const double before0 = debt(sim, 0), before1 = debt(sim, 1), before3 = debt(sim, 3);
        CHECK(PolicyActions::flush_tlb_range(sim, p, 0) == 2); // CPUs 1 and 2
        CHECK(debt(sim, 1) - before1 == Approx(1500));
        CHECK(debt(sim, 0) - before0 == Approx(1500)); // waits for the acknowledgements
        CHECK(debt(sim, 3) == before3);                // runs nothing of the process
        CHECK(sim.numa_activity().tlb_shootdown_ipis == 2);
    }
    SECTION("a fault charges the traps and ptes its chunk stands for")
    {
        const TaskId t = sim.processes()[p].tasks[0]; // on CPU 0
        double before = debt(sim, 0);
        PolicyActions::take_hinting_fault(sim, t, PageGrain::Pte, true);
        CHECK(debt(sim, 0) - before == Approx((kPages - 1) * 1500)); // the engine charged the first trap
        before = debt(sim, 0);
        PolicyActions::take_hinting_fault(sim, t, PageGrain::Pmd, true);
        CHECK(debt(sim, 0) - before == Approx(1500 + kPages * 2 * 20));
        before = debt(sim, 0);
        PolicyActions::take_hinting_fault(sim, t, PageGrain::Huge, true);
        CHECK(debt(sim, 0) - before == Approx(1500));
        CHECK(sim.numa_activity().fault_traps == 1024 + 2 + 2);
        CHECK(sim.numa_activity().fault_pages == 3 * 1024);
    }
    SECTION("a migration copies at memory speed and shoots down every page's TLB entries")
    {
        const double before0 = debt(sim, 0), before1 = debt(sim, 1);
        // The three threads stream from node 1: its controller has a queue,
        // and the copy's reads wait in it too.
        const double copy_ns = loaded_copy_ns(sim, 0, 1, 0);
        CHECK(copy_ns > 4.0 * 1024 * 1024 / 5.0 * 1.01);
        REQUIRE(PolicyActions::migrate_pages(sim, p, 0, 0, 0, PageGrain::Pte, "test"));
        CHECK(sim.processes()[p].chunk_node[0] == 0);
        CHECK(debt(sim, 0) - before0 == Approx(copy_ns + kPages * 1500));
        CHECK(debt(sim, 1) - before1 == Approx(kPages * 1500));
        CHECK(sim.numa_activity().pages_migrated == 1024);
        CHECK(sim.numa_activity().tlb_shootdown_ipis == 2 * 1024);
        CHECK(sim.numa_activity().thp_splits == 0);
        // Already there: refused, nothing charged.
        CHECK_FALSE(PolicyActions::migrate_pages(sim, p, 0, 0, 0, PageGrain::Pte, "test"));
        CHECK(sim.numa_activity().pages_migrated == 1024);
    }
    SECTION("PUs that shoot down at once queue at their common targets; each sender waits for its last ack")
    {
        REQUIRE(PolicyActions::migrate_pages(sim, p, 0, 0, 0, PageGrain::Pte, "test")); // to CPUs 1 and 2
        const double before1 = debt(sim, 1), before2 = debt(sim, 2);
        const double copy_ns = loaded_copy_ns(sim, 1, 1, 0);
        REQUIRE(PolicyActions::migrate_pages(sim, p, 1, 0, 1, PageGrain::Pte, "test")); // to CPUs 0 and 2
        // CPU 2 handles CPU 0's rounds first, then CPU 1's: CPU 1 waits for both.
        CHECK(debt(sim, 1) - before1 == Approx(copy_ns + 2 * kPages * 1500));
        CHECK(debt(sim, 2) - before2 == Approx(kPages * 1500)); // its own handlers, as before
        // Once they are handled, a flush waits for its own round only.
        sim.run_until(sim.now() + 50'000'000);
        REQUIRE(sim.task(sim.processes()[p].tasks[2]).state == TaskState::Running);
        const double before = debt(sim, 2);
        CHECK(PolicyActions::flush_tlb_range(sim, p, 2) == 2);
        CHECK(debt(sim, 2) - before == Approx(1500));
    }
    SECTION("a huge chunk is split before it migrates; khugepaged collapses it again")
    {
        REQUIRE(PolicyActions::migrate_pages(sim, p, 0, 0, 0, PageGrain::Huge, "test"));
        CHECK(sim.numa_activity().thp_splits == 2);
        PolicyActions::collapse_huge_pages(sim, p, 0, 0);
        CHECK(sim.numa_activity().thp_collapses == 2);
    }
    CHECK(check_invariants(sim).empty());
}

TEST_CASE("autonuma: hinting faults per page, per pmd or per huge page", "[policy][numa]")
{
    // Threads pinned to node 1, memory on node 0: every chunk faults and
    // migrates once. knuma_scand's first pass at the start (daemon_start_ms=0)
    // in these tests of its mechanics.
    auto run = [](const std::string &policy) {
        Simulation sim = make(policy);
        const ProcId p = add_process(sim, {2, 3}, 0);
        sim.run_until(1'000'000'000);
        CHECK(sim.processes()[p].chunks_on_node[1] == kChunks);
        return sim.numa_activity();
    };
    const NumaActivity pte = run("autonuma:pmd=off,transparent_hugepage=never,daemon_start_ms=0");
    const NumaActivity pmd = run("autonuma:pmd=on,transparent_hugepage=never,daemon_start_ms=0");
    const NumaActivity thp = run("autonuma:transparent_hugepage=always,daemon_start_ms=0");
    // Every page of a pte-armed chunk traps (a few more samples re-arm it).
    CHECK(pte.fault_traps >= pte.fault_pages);
    CHECK(pte.fault_pages > 0);
    // One trap per 2 MiB handles its 512 ptes.
    CHECK(pmd.fault_traps * 512 == pmd.fault_pages);
    CHECK(thp.fault_traps * 512 == thp.fault_pages);
    // Each chunk migrates once: 1024 pages each.
    CHECK(pmd.pages_migrated == kChunks * 1024);
    CHECK(pmd.thp_splits == 0);
    // Huge pages split to migrate: two per chunk, once.
    CHECK(thp.pages_migrated == kChunks * 1024);
    CHECK(thp.thp_splits == 2 * kChunks);
    // Every migrated page shot down the TLB of the other thread's CPU.
    CHECK(pmd.tlb_shootdown_ipis >= pmd.pages_migrated);
}

TEST_CASE("autonuma: pages migrate in the fault, pages_to_migrate per node per window", "[policy][numa]")
{
    // AutoNUMA27 autonuma_migrate_page(): one chunk (1024 pages) per 100 ms
    // window to node 1. The first pass arms all 16 chunks at once and each
    // faults once; the first migrates, the rest are refused and stay until
    // their next fault, in the next pass, 10 s later.
    {
        Simulation sim = make("autonuma:pages_to_migrate=1024,daemon_start_ms=0");
        const ProcId p = add_process(sim, {2, 3}, 0);
        sim.run_until(500'000'000);
        CHECK(page_migrate_decisions(sim) == 1);
        CHECK(page_migrate_decisions(sim, "on fault") == 1);
        sim.run_until(5'000'000'000);
        CHECK(sim.processes()[p].chunks_on_node[1] == 1);
    }
    // Passes every 100 ms: one more chunk per window, all 16 within 2.5 s.
    Simulation sim = make("autonuma:pages_to_migrate=1024,scan_sleep_pass_ms=100,daemon_start_ms=0");
    const ProcId p = add_process(sim, {2, 3}, 0);
    sim.run_until(500'000'000);
    const std::int64_t moved = page_migrate_decisions(sim);
    CHECK(moved > 1);
    CHECK(moved <= 6);
    sim.run_until(2'500'000'000);
    CHECK(sim.processes()[p].chunks_on_node[1] == kChunks);
    CHECK(check_invariants(sim).empty());
}

TEST_CASE("autonuma: one knuma_scand walks the processes in turn, then pauses scan_sleep_pass_ms", "[policy][numa]")
{
    // pages_to_scan = 8 chunks per 100 ms wakeup for knuma_scand as a whole
    // (AutoNUMA27 knuma_scand()): two processes of 16 chunks take four
    // wakeups, the first process's two first, then nothing for 10 s.
    Simulation sim = make("autonuma:pages_to_scan=8192,mem_follow=off,daemon_start_ms=0");
    add_process(sim, {0, 1}, 0, 12'000);
    add_process(sim, {2, 3}, 1, 12'000);
    sim.run_until(50'000'000);
    CHECK(sim.numa_activity().pages_scanned == 8 * 1024);
    sim.run_until(150'000'000);
    CHECK(sim.numa_activity().pages_scanned == 16 * 1024);
    sim.run_until(500'000'000);
    CHECK(sim.numa_activity().pages_scanned == 32 * 1024);
    sim.run_until(10'000'000'000);
    CHECK(sim.numa_activity().pages_scanned == 32 * 1024); // the pass pause
    sim.run_until(10'500'000'000);
    CHECK(sim.numa_activity().pages_scanned > 32 * 1024);
}

TEST_CASE("autonuma: knuma_scand's first pass comes at a point of its pause the seed draws", "[policy][numa]")
{
    // The daemon sleeps scan_sleep_pass_ms between passes from boot on, so a
    // run starts somewhere in a pause: nothing is armed before a drawn part
    // of it, then the pass comes; seeds draw different parts.
    std::vector<SimTime> first_scan;
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
        Simulation sim = make("autonuma:scan_sleep_pass_ms=2000,mem_follow=off", seed);
        add_process(sim, {0, 1}, 0, 3000);
        while (sim.numa_activity().pages_scanned == 0 && sim.now() < 3'000'000'000)
            REQUIRE(sim.step());
        INFO("seed " << seed << ": first pass at " << sim.now() / 1e6 << " ms");
        CHECK(sim.numa_activity().pages_scanned > 0);
        CHECK(sim.now() <= 2'001'000'000); // within the pause (and the tick that wakes it)
        first_scan.push_back(sim.now());
        // The same seed draws the same point.
        Simulation again = make("autonuma:scan_sleep_pass_ms=2000,mem_follow=off", seed);
        add_process(again, {0, 1}, 0, 3000);
        again.run_until(sim.now() - 1);
        CHECK(again.numa_activity().pages_scanned == 0);
    }
    std::sort(first_scan.begin(), first_scan.end());
    CHECK(std::unique(first_scan.begin(), first_scan.end()) == first_scan.end());
    // daemon_start_ms fixes it: at the start.
    Simulation fixed = make("autonuma:scan_sleep_pass_ms=2000,mem_follow=off,daemon_start_ms=0");
    add_process(fixed, {0, 1}, 0, 3000);
    fixed.run_until(2'000'000);
    CHECK(fixed.numa_activity().pages_scanned > 0);
}

TEST_CASE("sched-numa: a page faulting twice in a row from a node migrates there", "[policy][numa]")
{
    // Home 0 (the first process homes on node 0), threads pinned to node 1,
    // memory on node 0. With cpu_follow off the home stays on node 0, but the
    // pages go to the threads that touch them. Scans every 40 ms.
    Simulation sim = make("sched-numa:cpu_follow=off,sched_numa_scan_period_min_ms=20");
    const ProcId p = add_process(sim, {2, 3}, 0);
    sim.run_until(15'000'000);
    CHECK(page_migrate_decisions(sim) == 0); // no scan yet
    sim.run_until(1'000'000'000);
    CHECK(sim.processes()[p].chunks_on_node[1] == kChunks);
    CHECK(page_migrate_decisions(sim) == kChunks);
    CHECK(sim.policy().preferred_node(sim, sim.processes()[p].tasks[0]) == 0);
    // Every scan armed the whole memory, page by page.
    CHECK(sim.numa_activity().pages_scanned % (kChunks * 1024) == 0);
    CHECK(sim.numa_activity().pages_scanned > 0);
    CHECK(check_invariants(sim).empty());
}

TEST_CASE("sched-numa: with cpu_follow the home node moves to where the memory is", "[policy][numa]")
{
    // Home 0, threads pinned to node 1 where the memory is: the faults all
    // hit node 1, so the home follows them there; with cpu_follow off it
    // stays. The memory is local to its threads either way: nothing moves.
    for (const char *follow : {"on", "off"}) {
        Simulation sim = make(std::string("sched-numa:sched_numa_scan_period_min_ms=20,cpu_follow=") + follow);
        const ProcId p = add_process(sim, {2, 3}, 1);
        sim.run_until(1'000'000'000);
        INFO("cpu_follow=" << follow);
        const int home = sim.policy().preferred_node(sim, sim.processes()[p].tasks[0]);
        CHECK(home == (std::string(follow) == "on" ? 1 : 0));
        CHECK(page_migrate_decisions(sim) == 0);
        CHECK(sim.processes()[p].chunks_on_node[1] == kChunks);
    }
}

TEST_CASE("NUMA balancing leaves memory under a policy the program set where it is", "[policy][numa]")
{
    // Threads pinned to node 0 (CPUs 0-1), all of the memory on node 1:
    // under the default policy AutoNUMA moves pages to node 0; memory the
    // program bound or interleaved itself is never misplaced (3.8
    // mpol_misplaced() and MPOL_F_MOF), though its hinting faults still cost.
    for (const auto &[alloc, moves] : {std::pair{AllocPolicy::FirstTouch, true}, std::pair{AllocPolicy::Bind, false},
                                       std::pair{AllocPolicy::Interleave, false}}) {
        CAPTURE(static_cast<int>(alloc));
        Simulation sim = make("autonuma");
        const ProcId p = add_process(sim, {0, 1}, 1);
        if (alloc != AllocPolicy::FirstTouch)
            REQUIRE(PolicyActions::set_memory_policy(sim, p, alloc, cpus({0, 1})));
        sim.run_until(3'000'000'000);
        CHECK((sim.processes()[p].chunks_on_node[0] > 0) == moves);
        CHECK((page_migrate_decisions(sim) > 0) == moves);
        CHECK(sim.numa_activity().fault_traps > 0);
    }
}
