#pragma once
// The NUMA hinting-fault scanner of autonuma, after AutoNUMA27's knuma_scand
// (mm/autonuma.c knuma_scand(), knumad_do_scan(), knuma_scand_pmd(), 2012):
// one daemon walks the processes one after another, in the order they were
// created (the mm list), arming hinting faults on pages_to_scan pages per
// wakeup and flushing the TLBs of each range it armed; it sleeps
// scan_sleep_ms between wakeups, and scan_sleep_pass_ms once it has walked
// every process (a full pass). Every pte is walked either way (it counts where the pages
// are for the per-process statistics); with pmd on, only the pmd is marked,
// so a 2 MiB range takes one fault that handles its 512 ptes, and a
// transparent huge page is one entry and one fault. With THP on, memory
// starts in huge pages; migrating one splits it and khugepaged builds it
// again later. All of it is charged page by page (engine/policy_actions.h)
// on a CPU that runs the process.

#include "engine/policy_actions.h"
#include "engine/policy_context.h"
#include "engine/sim_types.h"
#include "params/param_table.h"
#include "params/params.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace schedscope {

// knuma_scand defaults (AutoNUMA27 PATCH 19/33, 4 October 2012,
// mm/autonuma.c, read by knuma_scand(); the values match): pages_to_scan =
// 128 MiB of 4 KiB pages every scan_sleep_millisecs = 100 ms, a pause of
// scan_sleep_pass_millisecs = 10 s after each full pass, pmd scanning on
// (AUTONUMA_SCAN_PMD_FLAG in the default autonuma_flags).
inline constexpr double kDefaultScanSleepMs = 100.0;
inline constexpr double kDefaultScanSleepPassMs = 10'000.0;
inline constexpr std::int64_t kDefaultPagesToScan = 128 * 1024 * 1024 / 4096;
inline constexpr bool kDefaultPmdScan = true;
// /sys/kernel/mm/transparent_hugepage/enabled: "always". No kernel function
// decides this; it is the build's choice. In Linux 3.6 mm/huge_memory.c the
// initial transparent_hugepage_flags has TRANSPARENT_HUGEPAGE_FLAG
// ("always") only with CONFIG_TRANSPARENT_HUGEPAGE_ALWAYS, and the
// MADVISE flag ("madvise") with CONFIG_TRANSPARENT_HUGEPAGE_MADVISE. The
// model assumes "always", which we take to be what the distribution kernels
// in the 2012 comparisons were built with (Mel Gorman's vmstat output shows
// THP splits). That is an assumption, not a checked config.
inline constexpr bool kDefaultThp = true;

struct NumaScanParams {
    double scan_sleep_ms = kDefaultScanSleepMs;
    double scan_sleep_pass_ms = kDefaultScanSleepPassMs;
    std::int64_t pages_to_scan = kDefaultPagesToScan;
    bool pmd = kDefaultPmdScan;
    bool thp = kDefaultThp;
    // When knuma_scand's first pass and khugepaged's first wakeup come, in
    // ms after the run starts; kDrawnPhase: after a part of each daemon's
    // own sleep drawn from the run's seed (the daemons were asleep when the
    // run began, at no particular point of their sleep).
    static constexpr double kDrawnPhase = -1;
    double daemon_start_ms = kDrawnPhase;

    // The scanner's knobs, declared once.
    static const ParamTable<NumaScanParams> &table();
    void add_to(ParamMap &out) const { table().write(*this, out); }
};

class NumaScanner {
public:
    explicit NumaScanner(NumaScanParams p = {}) : p_(p) {}
    const NumaScanParams &params() const { return p_; }

    // Once per tick. `on_walk_start(proc)` runs as the scanner starts on a
    // process's memory (its mm's new pass), `on_full_pass(proc)` once it has
    // walked all of it (the per-process statistics are then complete).
    void tick(PolicyContext sim, const std::function<void(ProcId)> &on_walk_start,
              const std::function<void(ProcId)> &on_full_pass);
    // A hinting fault the engine took on a chunk: charges the rest of its
    // pages (PolicyActions::take_hinting_fault) and, without pmd scanning,
    // re-arms the chunk so that it may report a few more samples this pass.
    void on_fault(PolicyContext sim, TaskId t, int chunk);
    // How the chunk is mapped now.
    PageGrain grain(ProcId p, int chunk) const;
    // The chunk migrated: a huge page there was split.
    void note_migrated(ProcId p, int chunk);

private:
    // On the first tick: where in their sleeps knuma_scand and khugepaged
    // are as the run starts (daemon_start_ms, or drawn from the seed).
    void draw_daemon_phases(PolicyContext sim);
    void khugepaged(PolicyContext sim);

    NumaScanParams p_;
    SimTime next_wake_ns_ = 0;
    double carry_chunks_ = 0;                       // fractional chunks owed to the next wakeup
    ProcId cursor_ = -1;                            // the process being walked; -1 between passes
    int scan_offset_ = 0;                           // its next chunk to arm
    std::vector<std::vector<std::uint8_t>> faults_; // per process and chunk: faults taken this pass
    std::vector<std::vector<std::uint8_t>> split_;  // per process and chunk: THP on, its huge pages split
    SimTime next_khugepaged_ns_ = 0;
    bool phased_ = false;        // the daemons' first wakeups drawn (first tick)
    ProcId khugepaged_proc_ = 0; // khugepaged's cursor: process and chunk
    int khugepaged_chunk_ = 0;
};

} // namespace schedscope
