#include "engine/policy_actions.h"

#include "engine/simulation.h"

#include <algorithm>

namespace schedscope {

bool PolicyActions::set_cpus_allowed(PolicyContext ctx, TaskId t, const CpuSet &cpus)
{
    Simulation &sim = ctx.sim();
    if (t < 0 || t >= static_cast<TaskId>(sim.tasks().size()) || cpus.empty())
        return false;
    Task &task = sim.task_mut(t);
    // A task on a runqueue stays on its PU: narrowing past it would need a
    // move the caller did not ask for (the kernel's migration_cpu_stop).
    const bool on_rq = task.state == TaskState::Running || task.state == TaskState::Runnable;
    if (sim.started() && on_rq && task.cpu >= 0 && !cpus.test(task.cpu))
        return false;
    task.cpus_allowed = cpus;
    return true;
}

bool PolicyActions::set_memory_policy(PolicyContext ctx, ProcId p, AllocPolicy alloc, const CpuSet &nodes)
{
    Simulation &sim = ctx.sim();
    if (p < 0 || p >= static_cast<ProcId>(sim.processes().size()))
        return false;
    const int machine_nodes = std::max(1, sim.topology().numa_count());
    if (alloc != AllocPolicy::FirstTouch && (nodes.empty() || nodes.first() >= machine_nodes))
        return false;
    Process &proc = sim.process_mut(p);
    proc.alloc = alloc;
    proc.alloc_nodes = nodes;
    return true;
}

void PolicyActions::set_vruntime(PolicyContext ctx, TaskId t, SimTime vruntime_ns)
{
    Simulation &sim = ctx.sim();
    sim.task_mut(t).vruntime_ns = vruntime_ns;
}

namespace {

double pages_per_chunk(const ModelParams &m)
{
    return static_cast<double>(m.chunk_bytes) / static_cast<double>(m.page_bytes);
}

// 2 MiB pmd entries per chunk, at least one (a chunk smaller than a pmd is
// still mapped by one).
double pmds_per_chunk(const ModelParams &m)
{
    return std::max(1.0, static_cast<double>(m.chunk_bytes) / static_cast<double>(kPmdBytes));
}

bool placed(const Process &p, int chunk)
{
    return chunk >= 0 && chunk < static_cast<int>(p.chunk_node.size()) && p.chunk_node[chunk] != kNoNode;
}

} // namespace

bool PolicyActions::arm_hinting(PolicyContext ctx, ProcId p, int chunk, int by_cpu, PageGrain grain)
{
    Simulation &sim = ctx.sim();
    if (p < 0 || p >= static_cast<ProcId>(sim.processes().size()) || !placed(sim.processes()[p], chunk))
        return false;
    const ModelParams &m = sim.model();
    // AutoNUMA27 mm/autonuma.c knuma_scand_pmd(): a huge pmd is one entry;
    // otherwise every present pte of the range is read and counted (in pmd
    // mode too, for the per-process statistics), only the marking differs.
    const double entries = grain == PageGrain::Huge ? pmds_per_chunk(m) : pages_per_chunk(m);
    sim.arm_chunk(p, chunk, by_cpu, entries * static_cast<double>(m.scan_ns_per_page));
    sim.numa_activity_.pages_scanned += static_cast<std::int64_t>(pages_per_chunk(m));
    return true;
}

PolicyActions::Shootdown PolicyActions::shootdown(Simulation &sim, ProcId p, int by_cpu, double rounds)
{
    // x86 Linux 3.6 arch/x86/mm/tlb.c native_flush_tlb_others(): the sender
    // interrupts every other CPU in the mm's cpumask and does not return
    // until each of them has run the flush handler and said so. A handler
    // runs with interrupts off, one at a time on its CPU, so a target still
    // handling other senders' shootdowns answers this one after them: the
    // sender's wait is its own rounds when it shoots down alone, and the
    // longest queue among its targets when many PUs shoot down the same
    // process at once.
    const double work = rounds * static_cast<double>(sim.model().ipi_ns);
    const double now = static_cast<double>(sim.now());
    double last_ack = now + work;
    Shootdown out;
    const int npu = static_cast<int>(sim.rqs_.size());
    for (int cpu = 0; cpu < npu; ++cpu) {
        Runqueue &rq = sim.rqs_[static_cast<size_t>(cpu)];
        if (cpu == by_cpu || rq.current < 0 || sim.task(rq.current).proc != p)
            continue;
        rq.shootdowns_done_ns = std::max(now, rq.shootdowns_done_ns) + work;
        last_ack = std::max(last_ack, rq.shootdowns_done_ns);
        sim.charge_irq(cpu, work); // the handlers, interrupts there
        ++out.targets;
    }
    out.wait_ns = out.targets > 0 ? last_ack - now : 0.0;
    return out;
}

int PolicyActions::flush_tlb_range(PolicyContext ctx, ProcId p, int by_cpu)
{
    Simulation &sim = ctx.sim();
    const Shootdown s = shootdown(sim, p, by_cpu, 1.0);
    if (s.targets > 0)
        sim.charge_sys(by_cpu, s.wait_ns);
    sim.numa_activity_.tlb_shootdown_ipis += s.targets;
    return s.targets;
}

void PolicyActions::take_hinting_fault(PolicyContext ctx, TaskId t, PageGrain grain, bool first_of_pass)
{
    Simulation &sim = ctx.sim();
    NumaActivity &a = sim.numa_activity_;
    if (!first_of_pass) {
        ++a.fault_traps;
        return;
    }
    const ModelParams &m = sim.model();
    const double pages = pages_per_chunk(m);
    // AutoNUMA27 mm/autonuma.c: pte_numa_fixup() handles one page per trap;
    // pmd_numa_fixup() handles the 512 ptes under one pmd; a huge pmd
    // (huge_pmd_numa_fixup()) one 512-page unit.
    const double traps = grain == PageGrain::Pte ? pages : pmds_per_chunk(m);
    double extra_ns = (traps - 1) * static_cast<double>(m.hinting_fault_ns);
    if (grain == PageGrain::Pmd)
        extra_ns += pages * kPmdFaultStepsPerPage * static_cast<double>(m.scan_ns_per_page);
    sim.charge_sys(sim.task(t).cpu, extra_ns);
    a.fault_traps += static_cast<std::int64_t>(traps);
    a.fault_pages += static_cast<std::int64_t>(pages);
    // The engine counted the first trap; the run's hinting_faults count them all.
    sim.hinting_faults_ += static_cast<std::int64_t>(traps) - 1;
}

double PolicyActions::copy_bytes_per_ns(PolicyView view, int from, int to)
{
    const Simulation &sim = *view.sim_;
    const ModelParams &m = sim.model();
    double rate = std::min(m.cache_fill_bytes_per_ns, m.mem_bandwidth_bytes_per_ns);
    if (from != to && from >= 0 && to >= 0 && sim.topology().numa_count() > 0) {
        const double hops = std::max(1.0, (sim.topology().node_distance(from, to) - 10) / 10.0);
        rate = std::min(rate, m.link_bandwidth_bytes_per_ns / hops);
    }
    return rate;
}

double PolicyActions::copy_ns(const Simulation &sim, double bytes, int from, int to, int by_cpu)
{
    // A copy is a stream like any other, as a first touch's clearing is
    // (Simulation::first_touch_ns): it reads its lines from `from` and
    // writes them to `to` with as many in flight as any stream, so while
    // other tasks load those controllers and links each line takes as much
    // longer as their waits add to its unloaded latency, and the copy keeps
    // the pace of the slower of its two streams (MemoryModel::access_factor
    // over the pair's unloaded latency ratio: 1 on an idle machine, where
    // copy_bytes_per_ns holds).
    // Both callers pass placed nodes, and every PU has a node (0 on a
    // machine without NUMA).
    const int here = sim.node_of_pu(by_cpu);
    const MemoryModel &mm = sim.memory();
    const double slower = std::max(mm.access_factor(here, from) / mm.latency_ratio(here, from),
                                   mm.access_factor(here, to) / mm.latency_ratio(here, to));
    return bytes / copy_bytes_per_ns(sim, from, to) * slower;
}

bool PolicyActions::migrate_pages(PolicyContext ctx, ProcId p, int chunk, int node, int by_cpu, PageGrain grain,
                                  const std::string &reason)
{
    Simulation &sim = ctx.sim();
    if (p < 0 || p >= static_cast<ProcId>(sim.processes().size()))
        return false;
    Process &proc = sim.process_mut(p);
    if (!placed(proc, chunk) || node < 0 || node >= static_cast<int>(proc.chunks_on_node.size()))
        return false;
    const int from = proc.chunk_node[chunk];
    if (from == node)
        return false;
    // NUMA balancing moves only pages under the default policy: memory the
    // program placed itself (set_mempolicy/mbind, numactl --membind or
    // --interleave) is never "misplaced". Linux 3.8 mm/mempolicy.c
    // mpol_misplaced() returns at once unless the policy carries
    // MPOL_F_MOF, which only the default policy (preferred_node_policy) has.
    // The hinting faults are still taken and paid for.
    if (proc.alloc != AllocPolicy::FirstTouch)
        return false;
    const ModelParams &m = sim.model();
    NumaActivity &a = sim.numa_activity_;
    const double pages = pages_per_chunk(m);
    if (grain == PageGrain::Huge) {
        // split_huge_page() (Linux 3.6 mm/huge_memory.c) rewrites the 512
        // ptes of each huge page and flushes its pmd.
        const double pmds = pmds_per_chunk(m);
        sim.charge_sys(by_cpu, pages * static_cast<double>(m.scan_ns_per_page));
        for (int k = 0; k < static_cast<int>(pmds); ++k)
            flush_tlb_range(sim, p, by_cpu);
        a.thp_splits += static_cast<std::int64_t>(pmds);
    }
    sim.place_chunk(proc, chunk, node);
    ++sim.page_migrations_;
    // One TLB shootdown per page unmapped: each other PU running the process
    // takes `pages` IPIs; the migrating PU waits for each round (shootdown()).
    const Shootdown s = shootdown(sim, p, by_cpu, pages);
    sim.charge_sys(by_cpu, copy_ns(sim, static_cast<double>(m.chunk_bytes), from, node, by_cpu) + s.wait_ns);
    a.tlb_shootdown_ipis += static_cast<std::int64_t>(pages) * s.targets;
    a.pages_migrated += static_cast<std::int64_t>(pages);
    sim.log(DecisionKind::PageMigrate, -1, from, node, reason);
    return true;
}

void PolicyActions::collapse_huge_pages(PolicyContext ctx, ProcId p, int chunk, int by_cpu)
{
    Simulation &sim = ctx.sim();
    if (p < 0 || p >= static_cast<ProcId>(sim.processes().size()) || !placed(sim.processes()[p], chunk))
        return;
    const ModelParams &m = sim.model();
    const int node = sim.processes()[p].chunk_node[chunk];
    const double pmds = pmds_per_chunk(m);
    sim.charge_sys(by_cpu, copy_ns(sim, static_cast<double>(m.chunk_bytes), node, node, by_cpu));
    // collapse_huge_page(): pmdp_clear_flush() on each pmd it replaces.
    for (int k = 0; k < static_cast<int>(pmds); ++k)
        flush_tlb_range(sim, p, by_cpu);
    sim.numa_activity_.thp_collapses += static_cast<std::int64_t>(pmds);
}

} // namespace schedscope
