// NUMA policies on a 2-node, 4-CPU machine (CPUs 0-1 node 0, 2-3 node 1),
// with outcomes worked out by hand: where memory and threads end up, and
// that moving stops once everything is local.

#include "catalog/catalog.h"
#include "engine/invariants.h"
#include "engine/simulation.h"
#include "policies/cfs_balancer.h"
#include "policies/domain_balancer.h"
#include "topology/import.h"

#include <catch2/catch.hpp>

using namespace schedscope;

namespace {

constexpr const char *kTwoNodes = "pack:2 [numa] core:2 pu:1";
constexpr int kChunks = 16; // 64 MiB per process at the model's 4 MiB chunks

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

// A process whose threads all touch all of its memory (numa01-like).
ProcId add_shared_process(Simulation &sim, int threads, double work_ms, int memory_node, CpuSet pin = {})
{
    ProcId p = sim.add_process("proc" + std::to_string(sim.processes().size()), std::int64_t{kChunks} << 22);
    for (int i = 0; i < threads; ++i) {
        Simulation::TaskSpec s;
        s.program.ops = {Op{Op::Kind::Compute, static_cast<std::int64_t>(work_ms * 1e6), 0, -1}};
        s.segments = {AccessSegment{0, kChunks, 1.0}};
        s.mem_intensity = 0.02;
        s.working_set_bytes = 8 << 20;
        s.cpus_allowed = pin;
        sim.add_task(p, std::move(s));
    }
    if (memory_node >= 0)
        sim.place_chunks(p, 0, kChunks, memory_node);
    return p;
}

std::int64_t page_migrations(const Simulation &sim)
{
    std::int64_t n = 0;
    for (auto &d : sim.recording().decisions)
        n += d.kind == DecisionKind::PageMigrate;
    return n;
}

std::int64_t count_kind(const Simulation &sim, DecisionKind k)
{
    std::int64_t n = 0;
    for (auto &d : sim.recording().decisions)
        n += d.kind == k;
    return n;
}

bool threads_on_node(const Simulation &sim, ProcId p, int node)
{
    for (TaskId t : sim.processes()[p].tasks)
        if (sim.topology().node_of_pu(sim.task(t).cpu) != node)
            return false;
    return true;
}

} // namespace

TEST_CASE("autonuma moves a process's memory to the node its threads run on, then stops", "[policy]")
{
    // Threads pinned to node 1, memory first written on node 0. knuma_scand
    // walks all 16 chunks in its first wakeup (32 per wakeup); pmd mode
    // gives one fault per chunk per pass, and a page's first hinting fault
    // passes the last_nid filter (AutoNUMA27 last_nid_set()), so every chunk
    // migrates in the first pass, long before the 10 s pause ends. The
    // first pass at the start (daemon_start_ms=0), as in every test here of
    // what a pass does.
    for (std::uint64_t seed : {1, 2, 3}) {
        Simulation sim = make("autonuma:daemon_start_ms=0", seed);
        ProcId p = add_shared_process(sim, 2, 3000, 0, cpus({2, 3}));
        sim.run_until(1'000'000'000);
        INFO("seed " << seed);
        CHECK(sim.processes()[p].chunks_on_node[1] == kChunks);
        const std::int64_t moved = page_migrations(sim);
        CHECK(moved == kChunks); // each chunk once, no ping-pong
        sim.run_until(2'500'000'000);
        CHECK(page_migrations(sim) == moved);             // converged: no more migrations
        CHECK(sim.recording().samples.back().sys_ns > 0); // scanning and faults cost system time
        CHECK(check_invariants(sim).empty());
    }
    // The control: with mem_follow off nothing moves memory.
    Simulation off = make("autonuma:mem_follow=off,daemon_start_ms=0");
    ProcId p = add_shared_process(off, 2, 3000, 0, cpus({2, 3}));
    off.run_until(1'000'000'000);
    CHECK(off.processes()[p].chunks_on_node[0] == kChunks);
    CHECK(page_migrations(off) == 0);
}

TEST_CASE("autonuma migrate_threshold is the number of faults in a row after a page's first", "[policy]")
{
    // One thread on each node (pinned), both touching all the memory, which
    // starts on node 0; passes every 100 ms. A page's first fault migrates
    // it whatever the threshold (nothing to filter yet); after that a page
    // needs `migrate_threshold` faults in a row from one node, which two
    // nodes taking turns at random give far less often for 6 than for 2.
    auto moved_by = [](const std::string &policy, SimTime t) {
        Simulation sim = make(policy + ",scan_sleep_pass_ms=100,daemon_start_ms=0");
        add_shared_process(sim, 2, 6000, 0, cpus({0, 2}));
        sim.run_until(t);
        return page_migrations(sim);
    };
    const std::int64_t two = moved_by("autonuma:migrate_threshold=2", 3'000'000'000);
    const std::int64_t six = moved_by("autonuma:migrate_threshold=6", 3'000'000'000);
    CHECK(six > 0);        // the first faults from node 1
    CHECK(six <= kChunks); // nothing after: six in a row from one node did not happen
    CHECK(two > 2 * six);  // two in a row from either node happens pass after pass
}

TEST_CASE("autonuma exchanges tasks between full nodes so both end near their memory", "[policy]")
{
    // Placement spreads each process over both nodes (task 1 of proc0 on
    // node 1, task 0 of proc1 on node 0); every CPU is busy, so only an
    // exchange can bring them home. Memory stays put (mem_follow off).
    auto run = [](const std::string &policy) {
        Simulation sim = make(policy + ",daemon_start_ms=0");
        add_shared_process(sim, 2, 4000, 0);
        add_shared_process(sim, 2, 4000, 1);
        sim.run_until(1'500'000'000);
        return sim;
    };
    Simulation sim = run("autonuma:mem_follow=off");
    CHECK(threads_on_node(sim, 0, 0));
    CHECK(threads_on_node(sim, 1, 1));
    CHECK(count_kind(sim, DecisionKind::Exchange) >= 2); // one swap = two moves
    const size_t moves = sim.recording().migrations.size();
    sim.run_until(3'000'000'000);
    CHECK(sim.recording().migrations.size() == moves); // converged: tasks stay
    // Without the exchange the misplaced tasks have nowhere to go.
    Simulation no_exchange = run("autonuma:mem_follow=off,exchange=off");
    CHECK(!threads_on_node(no_exchange, 0, 0));
    CHECK(count_kind(no_exchange, DecisionKind::Exchange) == 0);
}

TEST_CASE("autonuma exchanges when the task is more at home there than the task it displaces", "[policy]")
{
    // AutoNUMA27 __sched_autonuma_balance(), between two processes: proc0
    // has 10 of its 16 chunks on node 0 (weight 625 per mille), proc1 9
    // (562). Both are most at home on node 0, and proc1's thread there
    // gains nothing by going to node 1; still proc0's thread on node 1 takes
    // its place, since proc0 is more at home on node 0 than proc1 is
    // (other_diff 63 > 0, this_diff 250 > 0). The swap is one way: proc1's
    // thread now on node 1 finds only proc0's threads on node 0, which are
    // more at home there. Memory stays put (mem_follow off).
    Simulation sim = make("autonuma:mem_follow=off,daemon_start_ms=0");
    const ProcId p0 = add_shared_process(sim, 2, 4000, -1);
    const ProcId p1 = add_shared_process(sim, 2, 4000, -1);
    sim.place_chunks(p0, 0, 10, 0);
    sim.place_chunks(p0, 10, kChunks, 1);
    sim.place_chunks(p1, 0, 9, 0);
    sim.place_chunks(p1, 9, kChunks, 1);
    sim.run_until(1'500'000'000);
    CHECK(threads_on_node(sim, p0, 0));
    CHECK(threads_on_node(sim, p1, 1));
    CHECK(count_kind(sim, DecisionKind::Exchange) >= 2);
    const size_t moves = sim.recording().migrations.size();
    sim.run_until(3'000'000'000);
    CHECK(sim.recording().migrations.size() == moves); // no ping-pong
    CHECK(sim.policy().preferred_node(sim, sim.processes()[p0].tasks[0]) == 0);
    CHECK(sim.policy().preferred_node(sim, sim.processes()[p1].tasks[0]) == 1);
}

namespace {

// Linux 3.6's balancer with a NUMA policy's two hooks fixed by hand: every
// task is chosen for node 0 and forks onto CPU 0, so what the other CPUs
// pull, and when, is the NumaPull rule's doing alone. Every CPU ticks
// (nohz off), so each idle CPU balances on its own tick, not when a kicked
// one gets to it.
CfsParams ticking()
{
    CfsParams p;
    p.nohz = "off";
    return p;
}

class ChosenNode0 final : public CfsBalancer {
public:
    explicit ChosenNode0(NumaPull rule) : CfsBalancer(ticking()), rule_(rule) {}
    std::unique_ptr<Policy> clone() const override { return std::make_unique<ChosenNode0>(*this); }
    std::string name() const override { return "test-chosen-node-0"; }
    ParamMap params() const override { return base_params(); }
    int select_cpu_fork(PolicyContext sim, TaskId t) override
    {
        return sim.task(t).cpus_allowed.test(0) ? 0 : CfsBalancer::select_cpu_fork(sim, t);
    }

protected:
    NumaPull numa_pull() const override { return rule_; }
    bool numa_affine(PolicyView sim, TaskId, int cpu) const override { return sim.topology().node_of_pu(cpu) == 0; }
    int numa_preference(PolicyView sim, TaskId, int from_cpu, int to_cpu) const override
    {
        const int from = sim.topology().node_of_pu(from_cpu), to = sim.topology().node_of_pu(to_cpu);
        return from == to ? 0 : (to == 0 ? 1 : -1);
    }

private:
    NumaPull rule_;
};

int busy_cpus(const Simulation &sim)
{
    int n = 0;
    for (int c = 0; c < sim.topology().pu_count(); ++c)
        n += !sim.cpu_idle(c);
    return n;
}

} // namespace

TEST_CASE("AutoNUMA27's two balancing walks let an idle CPU take a task chosen for another node at once", "[policy]")
{
    // Four CPU-bound tasks on CPU 0, all chosen for node 0. Under
    // AutoNUMA27's rule (StrictFirstPass) node 1's idle CPUs find no task
    // for their node in the first walk and take one in the second, at the
    // first periodic balance of their NUMA level (its interval is 4 ms on
    // this machine, sd_numa_init()'s min_interval = the level's weight): at
    // 5 ms every CPU runs one. Under sched/numa's March 2012 rule
    // (AwayIsHot) a move away from node 0 counts as cache hot, so node 1
    // waits for more than cache_nice_tries (2) failed passes: its first
    // task arrives at 16 ms, its second at 28.
    auto run = [](NumaPull rule) {
        SimConfig cfg;
        cfg.model.os_noise = 0; // no kworker to wake a CPU of node 1
        Simulation sim(std::make_shared<const Topology>(import_synthetic(kTwoNodes)),
                       std::make_unique<ChosenNode0>(rule), cfg);
        add_shared_process(sim, 4, 1000, 0);
        sim.run_until(5'000'000);
        return busy_cpus(sim);
    };
    CHECK(run(NumaPull::StrictFirstPass) == 4);
    CHECK(run(NumaPull::AwayIsHot) == 2);
}

TEST_CASE("autonuma weighs an exchange only where a busy CPU's periodic balancing ran", "[policy]")
{
    // AutoNUMA27 run_rebalance_domains(): sched_autonuma_balance() follows
    // rebalance_domains() on a CPU that is not idle, so every exchange
    // comes on a tick where one of the two CPUs had a level due (its
    // last_balance is that tick). On either base balancer.
    for (const char *base : {"cfs", "sched-domains"}) {
        INFO("base=" << base);
        Simulation sim = make(std::string("autonuma:mem_follow=off,daemon_start_ms=0,base=") + base);
        add_shared_process(sim, 2, 4000, 0);
        add_shared_process(sim, 2, 4000, 1);
        const auto *cfs = dynamic_cast<const CfsBalancer *>(&sim.policy());
        const auto *domains = dynamic_cast<const DomainBalancer *>(&sim.policy());
        REQUIRE((cfs != nullptr) != (domains != nullptr));
        const auto balanced_now = [&](int cpu) {
            if (cfs) {
                for (const CfsDomain &sd : cfs->domains_of(cpu))
                    if (sd.last_balance_ns == sim.now())
                        return true;
            } else {
                for (const SchedDomain &sd : domains->domains_of(cpu))
                    if (sd.last_balance_ns == sim.now())
                        return true;
            }
            return false;
        };
        size_t seen = 0;
        int exchanges = 0;
        while (sim.now() < 1'500'000'000 && sim.step()) {
            const auto &d = sim.recording().decisions;
            for (; seen < d.size(); ++seen)
                if (d[seen].kind == DecisionKind::Exchange) {
                    ++exchanges;
                    INFO("exchange at " << d[seen].time_ns << " ns, CPU " << d[seen].from << " -> " << d[seen].to);
                    CHECK(d[seen].time_ns == sim.now());
                    CHECK((balanced_now(d[seen].from) || balanced_now(d[seen].to)));
                }
        }
        CHECK(exchanges >= 2);
    }
}

TEST_CASE("autonuma with both halves converges each process onto one node and stops", "[policy]")
{
    for (std::uint64_t seed : {1, 2, 3}) {
        // Passes every 100 ms instead of 10 s, so that a chunk a misplaced
        // thread pulled on its first fault comes back within the run.
        Simulation sim = make("autonuma:scan_sleep_pass_ms=100", seed);
        add_shared_process(sim, 2, 6000, 0);
        add_shared_process(sim, 2, 6000, 1);
        sim.run_until(2'000'000'000);
        INFO("seed " << seed);
        for (ProcId p : {0, 1}) {
            const int node = sim.topology().node_of_pu(sim.task(sim.processes()[p].tasks[0]).cpu);
            CHECK(threads_on_node(sim, p, node));
            CHECK(sim.processes()[p].chunks_on_node[node] == kChunks);
        }
        const size_t moves = sim.recording().migrations.size();
        const std::int64_t pages = page_migrations(sim);
        sim.run_until(4'000'000'000);
        CHECK(sim.recording().migrations.size() == moves);
        CHECK(page_migrations(sim) == pages);
    }
}

TEST_CASE("sched-numa homes processes on separate nodes, each ending with its threads and memory at home", "[policy]")
{
    // proc0 is homed on node 0 with its memory on node 1, proc1 the other
    // way round; every CPU is busy, so the balancer cannot swap them. Scans
    // every 40 ms: either the pages come to the threads (migrate on fault)
    // or the home follows the faults to the memory (cpu_follow); either way
    // each process ends with its threads and all of its memory on its home.
    Simulation sim = make("sched-numa:sched_numa_scan_period_min_ms=20");
    add_shared_process(sim, 2, 3000, 1);
    add_shared_process(sim, 2, 3000, 0);
    auto home = [&](ProcId p) { return sim.policy().preferred_node(sim, sim.processes()[p].tasks.front()); };
    sim.run_until(1'000'000);
    CHECK(home(0) == 0);
    CHECK(home(1) == 1);
    sim.run_until(1'500'000'000);
    CHECK(home(0) != home(1));
    for (ProcId p : {0, 1}) {
        INFO("process " << p << ", home " << home(p));
        CHECK(threads_on_node(sim, p, home(p)));
        CHECK(sim.processes()[p].chunks_on_node[home(p)] == kChunks);
    }
    CHECK(count_kind(sim, DecisionKind::Exchange) == 0);
    CHECK(check_invariants(sim).empty());
}

TEST_CASE("bind mode=hard never migrates across nodes, inverse binds to the other node", "[policy]")
{
    // Three threads per process, long and short alternating (L S L, S L S).
    // Unbound, exec placement alternates nodes, so node 0 gets the three
    // long ones and node 1 the short ones: once those exit, node 1 idles
    // while node 0 has three on two CPUs, and a balancer pulls across.
    auto run = [](const std::string &policy) {
        Simulation sim = make(policy);
        for (int proc = 0; proc < 2; ++proc) {
            ProcId p = sim.add_process("numa01-" + std::to_string(proc), std::int64_t{kChunks} << 22);
            for (int i = 0; i < 3; ++i) {
                const bool long_one = (proc * 3 + i) % 2 == 0;
                Simulation::TaskSpec s;
                s.program.ops = {Op{Op::Kind::Compute, (long_one ? 400 : 50) * 1'000'000LL, 0, -1}};
                s.segments = {AccessSegment{0, kChunks, 1.0}};
                s.mem_intensity = 0.02;
                s.working_set_bytes = 1 << 20;
                sim.add_task(p, std::move(s));
            }
            sim.place_chunks(p, 0, kChunks, 0); // both first written on node 0, as numa01 does
        }
        sim.run_to_end();
        return sim;
    };
    auto cross_node = [](const Simulation &sim) {
        int n = 0;
        for (auto &m : sim.recording().migrations)
            n += m.cls == DistanceClass::RemoteNode;
        return n;
    };
    Simulation free_run = run("sched-domains");
    REQUIRE(cross_node(free_run) > 0); // the load does tempt a balancer across nodes

    Simulation hard = run("bind:mode=hard");
    CHECK(cross_node(hard) == 0);
    CHECK(page_migrations(hard) == 0);
    for (ProcId p : {0, 1}) {
        CHECK(hard.processes()[p].chunks_on_node[p] == kChunks); // memory with its threads
        for (TaskId t : hard.processes()[p].tasks)
            CHECK(hard.topology().node_of_pu(hard.task(t).cpu) == p);
    }
    Simulation inverse = run("bind:mode=inverse");
    CHECK(cross_node(inverse) == 0);
    CHECK(page_migrations(inverse) == 0);
    for (TaskId t : inverse.processes()[0].tasks)
        CHECK(inverse.topology().node_of_pu(inverse.task(t).cpu) == 1); // runs on node 1...
    CHECK(inverse.processes()[0].chunks_on_node[0] == kChunks);         // ...its memory is on node 0
    // Hard is the best case, inverse the worst, for the same work.
    CHECK(hard.end_time() < inverse.end_time());
}

TEST_CASE("bind binds threads one by one when there is a single process", "[policy]")
{
    // numa02-like: thread i of 4 on 2 nodes goes to node i/(4/2).
    for (const std::string mode : {"hard", "inverse"}) {
        Simulation sim = make("bind:mode=" + mode);
        add_shared_process(sim, 4, 20, -1);
        sim.start();
        for (int i = 0; i < 4; ++i) {
            const int node = mode == "hard" ? i / 2 : (3 - i) / 2;
            CHECK(sim.task(i).cpus_allowed == sim.topology().pus_of_node(node));
        }
    }
    Simulation inter = make("bind:mode=interleave");
    ProcId p = add_shared_process(inter, 2, 20, 0);
    inter.start();
    CHECK(inter.processes()[p].chunks_on_node[0] == kChunks / 2);
    CHECK(inter.processes()[p].chunks_on_node[1] == kChunks / 2);
}
