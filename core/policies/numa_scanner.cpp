#include "policies/numa_scanner.h"

#include "engine/simulation.h"
#include "policies/policy_text.h"
#include "util/prng.h"

#include <algorithm>

namespace schedscope {

namespace {
// Without pmd scanning, how many faults one chunk may report per pass. This
// is a modelling choice with no kernel source. In AutoNUMA27 (PATCH 19/33,
// linux-mm, 4 October 2012, mm/autonuma.c) knuma_scand with scan_pmd off
// marks every pte, and each touched page takes its own hinting fault
// (pte_numa_fixup() -> numa_hinting_fault(page, 1)): up to 1024 faults for
// one 4 MiB chunk. The model does not simulate all of them: each fault is
// an engine event, and a few samples per chunk are enough to tell which
// nodes access it, so the chunk is re-armed after a fault until it has
// reported 4 in the pass. The cost of all its pages' faults is charged with
// the first (every page traps).
constexpr int kPteFaultsPerChunkPass = 4;
constexpr double kMaxScanSleepMs = 3'600'000;
constexpr std::int64_t kMaxPagesToScan = std::int64_t{1} << 40;
// khugepaged defaults, Linux 3.6 mm/huge_memory.c (the values match):
// khugepaged_scan_sleep_millisecs = 10 s and khugepaged_pages_to_scan =
// HPAGE_PMD_NR * 8. khugepaged_do_scan() walks that many pages of address
// space per round, collapsing what it can, then khugepaged_loop() sleeps
// khugepaged_scan_sleep_millisecs. Not verified for AutoNUMA27: the
// AutoNUMA patches found touch khugepaged only to keep the pages' last_nid
// when it collapses them ("autonuma: retain page last_nid information in
// khugepaged"), but not every AutoNUMA27 patch was read, so a changed
// default there cannot be ruled out.
constexpr SimTime kKhugepagedScanSleepNs = 10'000'000'000;
constexpr std::int64_t kKhugepagedPagesToScan = std::int64_t{512} * 8;
// The stream the daemons' phases come from: the run's seed mixed with this,
// so that it is the scanner's own and the engine's draws do not move.
constexpr std::uint64_t kDaemonPhaseStream = 0x6b6e756d615f7363; // "knuma_sc"

// A CPU running one of the process's live tasks, or kNoCpu.
int cpu_of_process(PolicyView sim, const Process &proc)
{
    for (TaskId t : proc.tasks) {
        const Task &task = sim.task(t);
        if (task.state != TaskState::Exited && task.state != TaskState::NotStarted && task.cpu >= 0)
            return task.cpu;
    }
    return kNoCpu;
}
} // namespace

const ParamTable<NumaScanParams> &NumaScanParams::table()
{
    static const ParamTable<NumaScanParams> t = [] {
        ParamTable<NumaScanParams> t;
        t.real("scan_sleep_ms", &NumaScanParams::scan_sleep_ms, 1, kMaxScanSleepMs, "ms",
               "knuma_scand wakes this often to arm pages_to_scan more pages");
        t.real("scan_sleep_pass_ms", &NumaScanParams::scan_sleep_pass_ms, 0, kMaxScanSleepMs, "ms",
               "knuma_scand's pause after each full pass over every process");
        t.integer("pages_to_scan", &NumaScanParams::pages_to_scan, 1, kMaxPagesToScan, "pages",
                  "pages knuma_scand arms per wakeup, process after process");
        t.on_off("pmd", &NumaScanParams::pmd,
                 "on: mark 2 MiB pmd entries (one fault per range handles its 512 ptes); off: every pte faults");
        t.choice("transparent_hugepage", &NumaScanParams::thp, {{"always", true}, {"never", false}},
                 "always: memory starts in 2 MiB huge pages (one entry, one fault each; split to migrate, collapsed "
                 "again by khugepaged); never: 4 KiB pages");
        t.real("daemon_start_ms", &NumaScanParams::daemon_start_ms, NumaScanParams::kDrawnPhase, kMaxScanSleepMs, "ms",
               "when knuma_scand's first pass and khugepaged's first wakeup come after the run starts; -1: after a "
               "part of each one's sleep drawn from the seed (the daemons were asleep when the run began)");
        return t;
    }();
    return t;
}

PageGrain NumaScanner::grain(ProcId p, int chunk) const
{
    // AutoNUMA27 knuma_scand_pmd(): a huge pmd is marked whatever the pmd knob.
    const bool split = p >= 0 && p < static_cast<ProcId>(split_.size()) && chunk >= 0 &&
                       chunk < static_cast<int>(split_[p].size()) && split_[p][chunk] != 0;
    if (p_.thp && !split)
        return PageGrain::Huge;
    return p_.pmd ? PageGrain::Pmd : PageGrain::Pte;
}

void NumaScanner::note_migrated(ProcId p, int chunk)
{
    if (!p_.thp || p < 0 || p >= static_cast<ProcId>(split_.size()) || chunk < 0 ||
        chunk >= static_cast<int>(split_[p].size()))
        return;
    split_[p][chunk] = 1;
}

// A modelling choice with no kernel source: where in their sleeps
// the daemons are when the run starts. knuma_scand and khugepaged
// are kernel daemons that run from boot, each sleeping between
// passes (AutoNUMA27 mm/autonuma.c knuma_scand():
// scan_sleep_pass_millisecs after a pass over every mm; Linux 3.6
// mm/huge_memory.c khugepaged_loop(): khugepaged_scan_sleep_millisecs
// after each round; khugepaged_wait_work() took that sleep over in a
// cleanup posted in August 2012, after 3.6's merge window). A
// benchmark starts at some point of those sleeps, not as a pass
// begins: with no other process to walk, knuma_scand is nearly always
// in its pause, so its first pass over a new process comes after a
// part of the pause drawn at random from the run's seed, and
// khugepaged's first wakeup the same way. daemon_start_ms fixes the
// phase instead.
void NumaScanner::draw_daemon_phases(PolicyContext sim)
{
    phased_ = true;
    if (p_.daemon_start_ms >= 0) {
        next_wake_ns_ = next_khugepaged_ns_ = sim.now() + static_cast<SimTime>(p_.daemon_start_ms * 1e6);
    } else {
        Prng phase(sim.seed() ^ kDaemonPhaseStream);
        next_wake_ns_ = sim.now() + static_cast<SimTime>(phase.uniform() * p_.scan_sleep_pass_ms * 1e6);
        next_khugepaged_ns_ = sim.now() +
                              static_cast<SimTime>(phase.uniform() * static_cast<double>(kKhugepagedScanSleepNs));
    }
}

void NumaScanner::tick(PolicyContext sim, const std::function<void(ProcId)> &on_walk_start,
                       const std::function<void(ProcId)> &on_full_pass)
{
    const int nproc = static_cast<int>(sim.processes().size());
    if (split_.size() != static_cast<size_t>(nproc)) {
        split_.resize(nproc);
        for (ProcId pid = 0; pid < nproc; ++pid)
            split_[pid].resize(sim.processes()[pid].chunk_node.size(), 0);
    }
    if (!phased_)
        draw_daemon_phases(sim);
    if (p_.thp && sim.now() >= next_khugepaged_ns_) {
        next_khugepaged_ns_ = sim.now() + kKhugepagedScanSleepNs;
        khugepaged(sim);
    }
    if (sim.now() < next_wake_ns_ || nproc == 0)
        return;
    next_wake_ns_ = sim.now() + static_cast<SimTime>(p_.scan_sleep_ms * 1e6);
    const auto &model = sim.model();
    faults_.resize(nproc);
    // AutoNUMA27 knuma_scand(): one daemon, pages_to_scan pages per wakeup
    // whichever processes they belong to; knumad_do_scan() walks one mm to
    // its end, then the next on the list.
    carry_chunks_ += static_cast<double>(p_.pages_to_scan) * static_cast<double>(model.page_bytes) /
                     static_cast<double>(model.chunk_bytes);
    if (cursor_ < 0) {
        cursor_ = 0;
        scan_offset_ = 0;
    }
    // Every step arms a chunk or passes on to the next process.
    while (carry_chunks_ >= 1.0 && cursor_ < nproc) {
        const ProcId pid = cursor_;
        const Process &proc = sim.processes()[pid];
        // The scanner's work is charged where the process runs; a process
        // with no live task has no mm to walk and is passed over.
        const int cpu = cpu_of_process(sim, proc);
        const int nchunks = static_cast<int>(proc.chunk_node.size());
        if (cpu == kNoCpu || nchunks == 0 || scan_offset_ >= nchunks) {
            ++cursor_;
            scan_offset_ = 0;
            continue;
        }
        faults_[pid].resize(nchunks, 0);
        // knumad_do_scan(): mm_numa_fault_pass++ as the walk of an mm begins.
        if (scan_offset_ == 0)
            on_walk_start(pid);
        bool armed = false;
        while (carry_chunks_ >= 1.0 && scan_offset_ < nchunks) {
            const int c = scan_offset_++;
            carry_chunks_ -= 1.0;
            faults_[pid][c] = 0;
            armed = PolicyActions::arm_hinting(sim, pid, c, cpu, grain(pid, c)) || armed;
        }
        // knumad_do_scan(): flush_tlb_range() over the part of the vma just
        // scanned, so that the next accesses fault.
        if (armed)
            PolicyActions::flush_tlb_range(sim, pid, cpu);
        if (scan_offset_ >= nchunks) {
            // mm_numa_fault_tmp_flush(): the process's statistics are where
            // this walk found its pages.
            on_full_pass(pid);
            ++cursor_;
            scan_offset_ = 0;
        }
    }
    if (cursor_ >= nproc) {
        // A full pass over every process: AutoNUMA27 mm/autonuma.c
        // knuma_scand() sleeps scan_sleep_pass_millisecs before the next one
        // starts. The model differs in one detail: it drops the unused
        // budget of this wakeup (carry_chunks_ = 0), so the next pass starts
        // with a full pages_to_scan. knuma_scand() does not reset its
        // progress count at the end of a pass (only total_progress); it
        // resets it only once progress exceeds pages_to_scan, when it takes
        // its scan_sleep_millisecs nap. So in the kernel the first wakeup of
        // the next pass scans only what was left of pages_to_scan before
        // that nap.
        cursor_ = -1;
        carry_chunks_ = 0;
        next_wake_ns_ = sim.now() + static_cast<SimTime>(p_.scan_sleep_pass_ms * 1e6);
    }
}

void NumaScanner::on_fault(PolicyContext sim, TaskId t, int chunk)
{
    const ProcId p = sim.task(t).proc;
    const bool tracked = p < static_cast<ProcId>(faults_.size()) && chunk < static_cast<int>(faults_[p].size());
    const bool first = !tracked || faults_[p][chunk] == 0;
    const PageGrain g = grain(p, chunk);
    PolicyActions::take_hinting_fault(sim, t, g, first);
    if (!tracked || g != PageGrain::Pte)
        return;
    if (++faults_[p][chunk] < kPteFaultsPerChunkPass)
        sim.arm_chunk(p, chunk, kNoCpu, 0); // already paid for at scan time
}

void NumaScanner::khugepaged(PolicyContext sim)
{
    const int nproc = static_cast<int>(sim.processes().size());
    if (nproc == 0)
        return;
    const auto &model = sim.model();
    int budget = std::max<int>(1, static_cast<int>(kKhugepagedPagesToScan * model.page_bytes / model.chunk_bytes));
    // Visits at most every process once per wakeup, so that an empty system
    // does not spin.
    for (int visited = 0; budget > 0 && visited <= nproc;) {
        const ProcId pid = khugepaged_proc_ % nproc;
        const Process &proc = sim.processes()[pid];
        const int nchunks = static_cast<int>(proc.chunk_node.size());
        const int cpu = cpu_of_process(sim, proc);
        if (cpu == kNoCpu || khugepaged_chunk_ >= nchunks) {
            khugepaged_proc_ = (pid + 1) % nproc;
            khugepaged_chunk_ = 0;
            ++visited;
            continue;
        }
        const int c = khugepaged_chunk_++;
        --budget;
        if (split_[pid][c] != 0 && proc.chunk_node[c] != kNoNode) {
            PolicyActions::collapse_huge_pages(sim, pid, c, cpu);
            split_[pid][c] = 0;
        }
    }
}

} // namespace schedscope
