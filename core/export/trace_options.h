#pragma once
// What a trace export covers and how it is written; shared by the CLI
// (`run --trace`) and the GUI (File > Export trace).

#include "engine/sim_types.h"

#include <functional>
#include <string>

namespace schedscope {

enum class TraceFormat {
    Chrome, // Trace Event JSON for Perfetto UI and chrome://tracing
    Ftrace, // kernel ftrace text: sched_switch / sched_wakeup lines
};
const char *trace_format_name(TraceFormat f);
// "chrome" | "ftrace"; throws InputError naming `source`.
TraceFormat parse_trace_format(const std::string &text, const std::string &source);

// Simulated time kept in the trace: [start_ns, end_ns). end_ns < 0 means to
// the end of the run.
struct TraceWindow {
    SimTime start_ns = 0;
    SimTime end_ns = -1;
    bool contains(SimTime t) const { return t >= start_ns && (end_ns < 0 || t < end_ns); }
    bool open_ended() const { return end_ns < 0; }
};
// "START:END" with durations such as 1.5s, 200ms, 50us, 1000ns or 2m (a bare
// number is seconds; read exactly, parse_duration_ns); either side may be
// empty ("2s:" = from 2 s to the end).
TraceWindow parse_trace_window(const std::string &text, const std::string &source);

// Fraction done 0..1; return false to cancel (nothing is written then).
using TraceProgress = std::function<bool(double)>;

struct TraceOptions {
    TraceFormat format = TraceFormat::Chrome;
    TraceWindow window;
    // Chrome only: besides one track per task, one track per CPU showing the
    // task it runs (doubles the slices, handy to read a CPU's timeline).
    bool cpu_tracks = false;
    // A fixed-work run with no duration and an open window stops here, as
    // run_policy does (kDefaultMaxSimulatedS).
    double max_simulated_s = 3600.0;
    TraceProgress progress;
};

} // namespace schedscope
