#pragma once
// The numbers behind the analysis charts, derived from the engine's metric
// samples without any Qt: rates from cumulative counters, shares from
// per-window sums, bytes per node from the sparse per-process lists. The
// charts widget only turns these into series, so what a chart shows is
// tested here, without a display (hotspot's TimeLineData habit).

#include "engine/recording.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace schedscope::gui {

enum class ChartKind {
    NodeMemory,    // one process's resident memory per node, MiB (autonuma-benchmark's chart)
    LocalAccess,   // one process's share of local memory accesses per window, %
    Throughput,    // CountOps per second per window
    Progress,      // fixed work done, %
    IdlePct,       // idle share of all PU time per window, %
    SystemTime,    // cumulative system time summed over PUs, s
    MigrationRate, // task migrations per second per window, one line per distance class
};
inline constexpr int kChartKindCount = 7;

const char *chart_title(ChartKind kind);
const char *chart_unit(ChartKind kind); // "MiB", "%", "ops/s", "s", "migrations/s"

// One policy's run as the charts see it.
struct RunSamples {
    std::string name; // the pane's policy label
    std::span<const MetricsSample> samples;
    // When the run finished (s), or < 0: the last sample comes up to one
    // interval before the end, so Progress ends at 100 % here instead.
    double end_s = -1;
};

struct ChartLine {
    std::string label;          // "autonuma node 1", "simple remote-node"
    int run = 0;                // index into the runs: the line's colour
    int group = -1;             // node (NodeMemory) or DistanceClass (MigrationRate): the line's style
    std::vector<double> t_s, y; // same length; gaps are simply missing points
};

// A published figure drawn on a chart as a dashed reference line (the
// published experiments, app/gui/published/): horizontal at a value, or
// vertical at a time (an elapsed time on the progress chart).
struct ReferenceMark {
    ChartKind kind = ChartKind::Throughput;
    bool vertical = false;
    double value = 0;  // in the chart's unit (vertical: simulated seconds)
    std::string label; // "Gorman 2012, numa01 elapsed, 3.6.0: 1520 s"
    int run = -1;      // the pane it belongs to (its colour); -1: none
    friend bool operator==(const ReferenceMark &, const ReferenceMark &) = default;
};

struct ChartData {
    ChartKind kind = ChartKind::IdlePct;
    std::vector<ChartLine> lines;
    double t_max_s = 0;               // the latest sample time over all runs
    double y_max = 0;                 // the largest value over all lines (0 if none)
    std::vector<ReferenceMark> marks; // of this kind; horizontal ones count in y_max
};

inline constexpr int kAllProcesses = -1;

// `process` selects whose memory and local-access % are shown (NodeMemory,
// LocalAccess); kAllProcesses sums memory over processes and averages the
// local-access % over the processes that accessed memory in that window.
ChartData derive_chart(ChartKind kind, const std::vector<RunSamples> &runs, int process = kAllProcesses);

// Throughput when any run counts operations (sembench, specjbb, OLTP),
// progress otherwise (fixed-work workloads such as numa01).
ChartKind work_chart_kind(const std::vector<RunSamples> &runs);

// The value a line shows at time t: the last sample at or before t (samples
// are window figures, so the value holds until the next one), nullopt before
// its first point.
std::optional<double> value_at(const ChartLine &line, double t_s);

// A value axis from 0: its top, a round tick step (1, 2 or 5 x 10^n) giving
// about four to six ticks, and as many decimals as the step needs, so no
// two tick labels read the same (0.002, 0.004... rather than 0.00, 0.00).
// Percentages zoom in when the data stay low (a 0.4 % idle share is not a
// flat line on a 0-100 axis) and leave headroom above 100 %, so a line at
// 100 % does not hide under the plot's frame.
struct AxisScale {
    double top = 1;
    double step = 0.2;
    int decimals = 1;
};
AxisScale value_axis_scale(double y_max, bool percent);
// A small multiple's axis: its top a round value a few per cent above the
// data (a multiple of about a twentieth of it: a 520 MiB peak reads 0-550,
// 1010 MiB 0-1050, 384 MiB 0-400), its labelled ticks the finest round step
// with at most `max_intervals` of them up to the top, which need not be a
// tick itself (0-550 is labelled 0, 100 ... 500).
AxisScale tight_axis_scale(double y_max, int max_intervals);

// The fewest decimals that print `step` and its multiples exactly (up to 6).
int decimals_for_step(double step);

// A round step (1, 2 or 5 x 10^n) near span / ticks.
double nice_step(double span, double ticks);

// "12.5 ms", "1.250 s": how the views print simulated time.
std::string format_time_s(double t_s);

} // namespace schedscope::gui
