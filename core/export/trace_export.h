#pragma once
// Trace export, the one entry point for the CLI (`run --trace`) and the GUI
// (File > Export trace).
//
// Each given Simulation is the state to trace from, usually a run freshly
// built by build_simulation() or a checkpoint taken at time 0: the exporter
// runs a private copy of it (the original is not touched) with a trace sink
// attached, streaming to the file as it goes. The engine is deterministic,
// so the copy replays exactly the run the caller has, or had, on screen.
//
// Both functions may take as long as the simulations themselves: call them
// off the GUI thread. They share no state, so several may run at once.

#include "engine/simulation.h"
#include "export/trace_options.h"

#include <cstdint>
#include <string>
#include <vector>

namespace schedscope {

struct TraceSizeEstimate {
    std::uint64_t bytes = 0;  // the whole export, every file
    double sampled_s = 0;     // simulated time formatted, summed over the simulations
    double covered_s = 0;     // simulated time the export covers, summed likewise
    std::uint64_t events = 0; // engine events in the window (switches, wakeups, ...), counted
    bool exact = false;       // everything was formatted: bytes is the size
    bool cancelled = false;   // options.progress returned false: the figures are incomplete
};

// Chrome JSON files larger than this do not load in the trace viewers
// (Perfetto UI and chrome://tracing hold the whole JSON text in the browser's
// memory and give up on larger ones), so --trace-max-mb defaults to it.
inline constexpr std::uint64_t kChromeViewerLimitBytes = 256'000'000;

struct TraceExportResult {
    std::vector<std::string> files; // written, empty if cancelled
    std::uint64_t bytes = 0;
    bool cancelled = false;
};

// Where export_trace writes: `path` itself, except for an ftrace export of
// several simulations, which writes one file each (a kernel trace has one set
// of CPUs): "<stem>.<n>-<name><ext>", n counting from 1.
std::vector<std::string> trace_output_paths(const std::string &path, const std::vector<std::string> &names,
                                            TraceFormat format);

// Size before writing, from a pre-run of a copy of each simulation to the
// end of what the trace covers: the first events (some 20 000, and one
// sample's counters) go through the same formatting into a byte counter;
// the rest are only counted, those in the window apart. The estimate is
// the measured bytes per event and per sample
// times those counts: every phase of the run is counted, so a rate that
// rises later (hackbench's fork burst, then its message storm) is not
// missed; what remains approximate is the length of a line. A run short
// enough to be formatted whole gives the exact size. Costs about one run of
// each simulation without the writing. options.progress, if set, is called
// after each slice of a pre-run; returning false stops the estimate there
// (cancelled), as it stops an export.
TraceSizeEstimate estimate_trace_size(const std::vector<const Simulation *> &sims,
                                      const std::vector<std::string> &names, const TraceOptions &options);

// A line to show before writing when the estimate is a Chrome JSON over
// kChromeViewerLimitBytes, saying what to do; empty otherwise.
std::string trace_size_warning(const TraceSizeEstimate &estimate, TraceFormat format);

// `names` label each simulation (the policy and its parameters, say): the
// process name in a Chrome trace, the file name and header of ftrace files.
// Writes through temporaries renamed at the end: a failure (InputError naming
// the file) or a cancel leaves existing files as they were.
TraceExportResult export_trace(const std::vector<const Simulation *> &sims, const std::vector<std::string> &names,
                               const std::string &path, const TraceOptions &options);

} // namespace schedscope
