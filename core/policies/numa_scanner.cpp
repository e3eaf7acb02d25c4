#include "policies/numa_scanner.h"

#include "engine/simulation.h"
#include "policies/policy_text.h"

#include <algorithm>

namespace schedscope {

namespace {
// One pmd entry maps 2 MiB on x86-64 (512 ptes of 4 KiB).
constexpr std::int64_t kPmdBytes = 2 * 1024 * 1024;
// Without pmd scanning, how many faults one chunk may report per pass: the
// pages of a 4 MiB chunk fault one by one, and a few samples per chunk are
// what separates the accessing nodes (a modelling choice, not a kernel knob).
constexpr int kPteFaultsPerChunkPass = 4;
constexpr double kMaxScanSleepPassMs = 3'600'000;
constexpr std::int64_t kMaxPagesToScan = std::int64_t{1} << 40;
} // namespace

const ParamTable<NumaScanParams> &NumaScanParams::table()
{
    static const ParamTable<NumaScanParams> t = [] {
        ParamTable<NumaScanParams> t;
        t.real("scan_sleep_pass_ms", &NumaScanParams::scan_sleep_pass_ms, 1, kMaxScanSleepPassMs, "ms",
               "the scanner wakes this often to arm hinting faults");
        t.integer("pages_to_scan", &NumaScanParams::pages_to_scan, 1, kMaxPagesToScan, "pages",
                  "pages of each process armed per scanner wakeup");
        t.on_off("pmd", &NumaScanParams::pmd,
                 "on: scan 2 MiB pmd entries (cheap, one fault per range); off: every pte");
        return t;
    }();
    return t;
}

void NumaScanner::tick(Simulation &sim, const std::function<void(ProcId)> &on_full_pass)
{
    if (sim.now() < next_pass_ns_)
        return;
    next_pass_ns_ = sim.now() + static_cast<SimTime>(p_.scan_sleep_pass_ms * 1e6);
    const auto &model = sim.model();
    const double chunks_per_pass = static_cast<double>(p_.pages_to_scan) * static_cast<double>(model.page_bytes) /
                                   static_cast<double>(model.chunk_bytes);
    const int nproc = static_cast<int>(sim.processes().size());
    carry_chunks_.resize(nproc, 0.0);
    faults_.resize(nproc);
    for (ProcId pid = 0; pid < nproc; ++pid) {
        const Process &proc = sim.processes()[pid];
        // The scanner runs where the process runs; a process with no live task is skipped.
        int cpu = kNoCpu;
        for (TaskId t : proc.tasks) {
            const Task &task = sim.task(t);
            if (task.state != TaskState::Exited && task.state != TaskState::NotStarted && task.cpu >= 0) {
                cpu = task.cpu;
                break;
            }
        }
        const int nchunks = static_cast<int>(proc.chunk_node.size());
        if (cpu == kNoCpu || nchunks == 0)
            continue;
        faults_[pid].resize(nchunks, 0);
        carry_chunks_[pid] += chunks_per_pass;
        int todo = static_cast<int>(carry_chunks_[pid]);
        carry_chunks_[pid] -= todo;
        todo = std::min(todo, nchunks);
        for (int i = 0; i < todo; ++i) {
            Process &pm = sim.process_mut(pid);
            const int c = pm.scan_offset;
            pm.scan_offset = (c + 1) % nchunks;
            faults_[pid][c] = 0;
            if (pm.chunk_node[c] != kNoNode) {
                if (p_.pmd) {
                    // One entry per 2 MiB instead of one per page.
                    const double pmds = std::max<double>(1.0, static_cast<double>(model.chunk_bytes) / kPmdBytes);
                    sim.arm_chunk(pid, c, cpu, pmds * static_cast<double>(model.scan_ns_per_page));
                } else {
                    sim.arm_chunk(pid, c, cpu);
                }
            }
            if (pm.scan_offset == 0)
                on_full_pass(pid);
        }
    }
}

void NumaScanner::after_fault(Simulation &sim, ProcId p, int chunk)
{
    if (p_.pmd || p >= static_cast<ProcId>(faults_.size()) || chunk >= static_cast<int>(faults_[p].size()))
        return;
    if (++faults_[p][chunk] < kPteFaultsPerChunkPass)
        sim.arm_chunk(p, chunk, kNoCpu, 0); // already paid for at scan time
}

} // namespace schedscope
