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
    std::uint64_t bytes = 0; // the whole export, every file
    double sampled_s = 0;    // simulated time pre-run, summed over the simulations
    double covered_s = 0;    // simulated time the export covers, summed likewise
    bool exact = false;      // the pre-run covered everything: bytes is the size
};

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

// Size before writing: runs a short prefix of each simulation (max(200 ms,
// 2 % of the span the trace covers), simulated) through the same formatting
// into a byte counter, and scales the bytes per simulated second of that
// prefix to the whole span; for a fixed-work run with no end given, the span
// is projected from the progress the prefix made. A prefix that reaches the
// end makes the figure exact. Phases that change the event rate later on
// (a fork storm at the start, convergence later) make it approximate.
TraceSizeEstimate estimate_trace_size(const std::vector<const Simulation *> &sims,
                                      const std::vector<std::string> &names, const TraceOptions &options);

// `names` label each simulation (the policy and its parameters, say): the
// process name in a Chrome trace, the file name and header of ftrace files.
// Writes through temporaries renamed at the end: a failure (InputError naming
// the file) or a cancel leaves existing files as they were.
TraceExportResult export_trace(const std::vector<const Simulation *> &sims, const std::vector<std::string> &names,
                               const std::string &path, const TraceOptions &options);

} // namespace schedscope
