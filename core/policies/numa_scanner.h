#pragma once
// The NUMA hinting-fault scanner shared by autonuma and sched-numa, after
// AutoNUMA's knuma_scand (2012): every scan_sleep_pass_ms it walks the next
// pages_to_scan pages of each live process's memory and arms hinting
// faults on them. With pmd scanning one entry covers a whole 2 MiB range:
// scanning is 512x cheaper, but a chunk reports one fault per pass instead
// of several, so the statistics it feeds are coarser. The scanning cost
// lands in system time on a CPU that runs the process.

#include "engine/sim_types.h"
#include "params/param_table.h"
#include "params/params.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace schedscope {

class Simulation;

// knuma_scand defaults (mm/autonuma.c, 2012): pages_to_scan = 128 MiB of
// 4 KiB pages every scan_sleep_millisecs = 100 ms, pmd scanning on. The
// pause after a full pass (scan_sleep_pass_millisecs, 10 s) is not modelled.
inline constexpr double kDefaultScanSleepPassMs = 100.0;
inline constexpr std::int64_t kDefaultPagesToScan = 128 * 1024 * 1024 / 4096;
inline constexpr bool kDefaultPmdScan = true;

struct NumaScanParams {
    double scan_sleep_pass_ms = kDefaultScanSleepPassMs;
    std::int64_t pages_to_scan = kDefaultPagesToScan;
    bool pmd = kDefaultPmdScan;

    // The scanner's knobs, declared once.
    static const ParamTable<NumaScanParams> &table();
    void add_to(ParamMap &out) const { table().write(*this, out); }
};

class NumaScanner {
public:
    explicit NumaScanner(NumaScanParams p = {}) : p_(p) {}
    const NumaScanParams &params() const { return p_; }

    // Once per tick. `on_full_pass(proc)` runs when a process's whole memory
    // has been scanned once more (the statistics' decay period).
    void tick(Simulation &sim, const std::function<void(ProcId)> &on_full_pass);
    // After a hinting fault: without pmd scanning the other pages of the
    // chunk are still armed, so the chunk may fault again this pass.
    void after_fault(Simulation &sim, ProcId p, int chunk);

private:
    NumaScanParams p_;
    SimTime next_pass_ns_ = 0;
    std::vector<double> carry_chunks_;              // per process: fractional chunks owed
    std::vector<std::vector<std::uint8_t>> faults_; // per process and chunk: faults taken this pass
};

} // namespace schedscope
