#pragma once
// The actions a policy may take besides those of its PolicyContext
// (migrate_task, migrate_chunk, arm_chunk, charge_sys, lock_rq, log). A
// policy reads the engine's state through the context's const queries and
// changes it only through these, so that every change goes through one
// place that checks it, charges it and tells the recording: policies never
// hold a mutable Task or Process.
//
// What a policy alone uses (a preferred node, a home node, fault
// statistics, a scanner's position) is not engine state at all: it lives in
// the policy, which clone() copies into checkpoints.

#include "engine/policy_context.h"
#include "engine/sim_types.h"

#include <cstdint>
#include <string>

namespace schedscope {

// How a chunk of memory is mapped when NUMA balancing arms it, which decides
// what arming it and faulting on it cost (x86-64: a pmd entry maps 2 MiB,
// 512 ptes of 4 KiB).
enum class PageGrain {
    Pte,  // small pages, every pte made a hinting fault: each page traps on its own
    Pmd,  // small pages, every pte walked but the pmd marked: one trap per 2 MiB, 512 ptes handled in it
    Huge, // a transparent huge page: one pmd walked and marked, one trap per 2 MiB for all 512 pages
};

// A 2 MiB pmd entry maps this many 4 KiB pages (x86-64 HPAGE_PMD_NR).
inline constexpr std::int64_t kPmdBytes = std::int64_t{2} * 1024 * 1024;
// Handling one pte inside a pmd-level hinting fault (AutoNUMA27
// mm/autonuma.c pmd_numa_fixup(): clear the pte's NUMA bit, look up the page,
// count it in numa_hinting_fault()): the scanner's walk of that pte (read,
// test, rewrite: ModelParams::scan_ns_per_page) twice, once for the pte and
// once for the page's statistics.
inline constexpr double kPmdFaultStepsPerPage = 2.0;

class PolicyActions {
public:
    // sched_setaffinity(): the PUs a task may run on. Before the run
    // (attach) any non-empty set; during it, only one that keeps the PU the
    // task is on (running or queued), since the engine would otherwise have
    // to move it. Returns false, changing nothing, when refused. Not charged:
    // a system call of the workload's setup, not the scheduler's work.
    static bool set_cpus_allowed(PolicyContext ctx, TaskId t, const CpuSet &cpus);

    // set_mempolicy()/mbind() for the memory a process touches from now on:
    // first touch, interleave over `nodes`, or bind to `nodes`. Memory
    // already placed stays where it is (Simulation::place_chunks moves it
    // before the run). Returns false for a node set naming no node of the
    // machine where one is needed.
    static bool set_memory_policy(PolicyContext ctx, ProcId p, AllocPolicy alloc, const CpuSet &nodes);

    // A fair-share policy places a task's virtual runtime when it joins a
    // runqueue (CFS place_entity()). The engine advances it as the task
    // runs (Simulation::put_prev), weighted by its nice level.
    static void set_vruntime(PolicyContext ctx, TaskId t, SimTime vruntime_ns);

    // --- NUMA balancing, page by page ---
    // Arms hinting faults on a chunk as a scanner does: walks its ptes (or,
    // for huge pages, its pmds) at ModelParams::scan_ns_per_page each,
    // charged to `by_cpu`. Counts the pages covered. False for a chunk not
    // yet placed.
    static bool arm_hinting(PolicyContext ctx, ProcId p, int chunk, int by_cpu, PageGrain grain);
    // The TLB flush after unmapping a range of process `p` (x86 Linux 3.6
    // arch/x86/mm/tlb.c flush_tlb_range() -> flush_tlb_others()): an IPI to
    // every other PU running one of its threads, ModelParams::ipi_ns on each,
    // and on `by_cpu` the wait for the last of them (shootdown()). Returns
    // the IPIs sent.
    static int flush_tlb_range(PolicyContext ctx, ProcId p, int by_cpu);
    // The rest of a hinting fault the engine has just taken (it charged and
    // counted one trap): every page of the chunk the task touches faults, so
    // a Pte chunk takes a trap per page, a Pmd or Huge chunk one per 2 MiB,
    // and a Pmd fault handles each of its 512 ptes (kPmdFaultStepsPerPage).
    // Charged to the task's PU. `first_of_pass` false: a further sample of a
    // chunk already paid for this pass (the scanner re-arms it), nothing more.
    static void take_hinting_fault(PolicyContext ctx, TaskId t, PageGrain grain, bool first_of_pass);
    // Migrates a chunk page by page (Linux 3.6 mm/migrate.c migrate_pages()
    // -> __unmap_and_move(); AutoNUMA's knuma_migrated and sched/numa's
    // migrate-on-fault both go through it): a Huge chunk is split first
    // (split_huge_page(), counted), then each page is unmapped, which flushes
    // the TLB of every other PU running the process (mm/rmap.c
    // try_to_unmap_one() -> ptep_clear_flush(), one IPI round per page), and
    // copied by `by_cpu` at the rate memory allows: one core's fill rate, the
    // nodes' bandwidth and the link's, slowed by their load (copy_ns). Refused (false)
    // as Simulation::migrate_chunk refuses.
    static bool migrate_pages(PolicyContext ctx, ProcId p, int chunk, int node, int by_cpu, PageGrain grain,
                              const std::string &reason);
    // khugepaged (Linux 3.6 mm/huge_memory.c collapse_huge_page()) builds the
    // chunk's huge pages again from its small ones: a copy of the chunk on its
    // node and one TLB flush per huge page, charged to `by_cpu`; counted.
    static void collapse_huge_pages(PolicyContext ctx, ProcId p, int chunk, int by_cpu);
    // One core copying from node `from` to node `to`: the slowest of its
    // cache fill rate, the nodes' memory bandwidth and the link between them
    // (per SLIT hop), all ModelParams.
    static double copy_bytes_per_ns(PolicyView view, int from, int to);
    // ns for `by_cpu` to copy `bytes` from node `from` to node `to` now: at
    // copy_bytes_per_ns, slowed by the waits the load of the moment puts on
    // the two nodes' controllers and links (a stream like any other).
    static double copy_ns(const Simulation &sim, double bytes, int from, int to, int by_cpu);

private:
    struct Shootdown {
        int targets = 0;    // PUs that took the IPIs
        double wait_ns = 0; // the sender's wait for the last acknowledgement
    };
    // `rounds` TLB shootdowns from `by_cpu` to every other PU running a
    // thread of `p`: each target handles them after the shootdowns already
    // queued there (Runqueue::shootdowns_done_ns), charged to it as
    // interrupt work; the sender waits until the last target is done.
    static Shootdown shootdown(Simulation &sim, ProcId p, int by_cpu, double rounds);
};

} // namespace schedscope
