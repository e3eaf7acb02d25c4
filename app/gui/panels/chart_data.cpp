#include "panels/chart_data.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace schedscope::gui {

namespace {

constexpr double kNsPerS = 1e9;
constexpr double kBytesPerMiB = 1024.0 * 1024.0;

double seconds(SimTime t_ns) { return static_cast<double>(t_ns) / kNsPerS; }

// The previous sample's cumulative counters; a run starts from zero, so the
// first window covers [0, first sample].
const MetricsSample &zero_sample()
{
    static const MetricsSample zero{};
    return zero;
}

void push(ChartLine &line, double t_s, double y)
{
    line.t_s.push_back(t_s);
    line.y.push_back(y);
}

double node_bytes_of(const MetricsSample &m, int process, int node)
{
    double sum = 0;
    for (std::size_t p = 0; p < m.proc_node_bytes.size(); ++p) {
        if (process != kAllProcesses && static_cast<int>(p) != process)
            continue;
        for (const NodeBytes &nb : m.proc_node_bytes[p])
            if (nb.node == node)
                sum += nb.bytes;
    }
    return sum;
}

int node_count_of(std::span<const MetricsSample> samples)
{
    int n = 0;
    for (const MetricsSample &m : samples)
        for (const auto &per_proc : m.proc_node_bytes)
            for (const NodeBytes &nb : per_proc)
                n = std::max(n, nb.node + 1);
    return n;
}

std::optional<double> local_pct_of(const MetricsSample &m, int process)
{
    if (process != kAllProcesses) {
        if (process >= static_cast<int>(m.proc_local_pct.size()) || m.proc_local_pct[process] < 0)
            return std::nullopt;
        return m.proc_local_pct[process];
    }
    double sum = 0;
    int n = 0;
    for (float v : m.proc_local_pct)
        if (v >= 0) {
            sum += v;
            ++n;
        }
    if (n == 0)
        return std::nullopt;
    return sum / n;
}

void derive_node_memory(ChartData &out, const RunSamples &run, int r, int process, int nodes)
{
    for (int node = 0; node < nodes; ++node) {
        ChartLine line{run.name + " node " + std::to_string(node), r, node, {}, {}};
        for (const MetricsSample &m : run.samples)
            push(line, seconds(m.time_ns), node_bytes_of(m, process, node) / kBytesPerMiB);
        out.lines.push_back(std::move(line));
    }
}

void derive_migration_rates(ChartData &out, const RunSamples &run, int r)
{
    for (int c = 0; c < kDistanceClassCount; ++c) {
        if (c == static_cast<int>(DistanceClass::Self))
            continue; // never a migration
        ChartLine line{run.name + " " + distance_class_name(static_cast<DistanceClass>(c)), r, c, {}, {}};
        const MetricsSample *prev = &zero_sample();
        bool any = false;
        for (const MetricsSample &m : run.samples) {
            const double dt = seconds(m.time_ns - prev->time_ns);
            const auto moved = m.migrations_by_class[c] - prev->migrations_by_class[c];
            any = any || moved != 0;
            if (dt > 0)
                push(line, seconds(m.time_ns), static_cast<double>(moved) / dt);
            prev = &m;
        }
        // A class the run never used only clutters the legend.
        if (any)
            out.lines.push_back(std::move(line));
    }
}

void derive_simple(ChartData &out, ChartKind kind, const RunSamples &run, int r, int process)
{
    ChartLine line{run.name, r, -1, {}, {}};
    const MetricsSample *prev = &zero_sample();
    for (const MetricsSample &m : run.samples) {
        const double t = seconds(m.time_ns);
        const double dt = seconds(m.time_ns - prev->time_ns);
        switch (kind) {
        case ChartKind::LocalAccess:
            if (auto v = local_pct_of(m, process))
                push(line, t, *v);
            break;
        case ChartKind::Throughput:
            if (dt > 0)
                push(line, t, static_cast<double>(m.ops - prev->ops) / dt);
            break;
        case ChartKind::Progress: push(line, t, m.progress * 100.0); break;
        case ChartKind::IdlePct: {
            const double busy = (m.user_ns - prev->user_ns) + (m.sys_ns - prev->sys_ns);
            const double idle = m.idle_ns - prev->idle_ns;
            if (busy + idle > 0)
                push(line, t, 100.0 * idle / (busy + idle));
            break;
        }
        case ChartKind::SystemTime: push(line, t, m.sys_ns / kNsPerS); break;
        default: break;
        }
        prev = &m;
    }
    // A finished fixed-work run is 100 % done when it ends, which falls
    // between samples: without this point its line stops at 97 % while the
    // pane header says "done". A sample taken at the end itself (the
    // GUI's runs, played to their end) can still read the work as it was
    // before the last jobs completed in that instant: it reads 100 % too.
    if (kind == ChartKind::Progress && run.end_s >= 0) {
        if (line.t_s.empty() || line.t_s.back() < run.end_s)
            push(line, run.end_s, 100.0);
        else
            line.y.back() = 100.0;
    }
    out.lines.push_back(std::move(line));
}

} // namespace

const char *chart_title(ChartKind kind)
{
    switch (kind) {
    case ChartKind::NodeMemory: return "Memory per node";
    case ChartKind::LocalAccess: return "Local memory accesses";
    case ChartKind::Throughput: return "Throughput";
    case ChartKind::Progress: return "Progress";
    case ChartKind::IdlePct: return "Idle time";
    case ChartKind::SystemTime: return "System time";
    case ChartKind::MigrationRate: return "Task migrations by distance";
    }
    return "";
}

const char *chart_unit(ChartKind kind)
{
    switch (kind) {
    case ChartKind::NodeMemory: return "MiB";
    case ChartKind::LocalAccess: return "%";
    case ChartKind::Throughput: return "ops/s";
    case ChartKind::Progress:
    case ChartKind::IdlePct: return "%";
    case ChartKind::SystemTime: return "s";
    case ChartKind::MigrationRate: return "migrations/s";
    }
    return "";
}

ChartData derive_chart(ChartKind kind, const std::vector<RunSamples> &runs, int process)
{
    ChartData out;
    out.kind = kind;
    // Every run gets a line for every node any run used: a policy that never
    // touches node 1 shows a flat zero there, which is the point of the chart.
    int nodes = 0;
    for (const RunSamples &run : runs)
        nodes = std::max(nodes, node_count_of(run.samples));
    for (int r = 0; r < static_cast<int>(runs.size()); ++r) {
        const RunSamples &run = runs[r];
        if (!run.samples.empty())
            out.t_max_s = std::max(out.t_max_s, seconds(run.samples.back().time_ns));
        if (kind == ChartKind::NodeMemory)
            derive_node_memory(out, run, r, process, nodes);
        else if (kind == ChartKind::MigrationRate)
            derive_migration_rates(out, run, r);
        else
            derive_simple(out, kind, run, r, process);
    }
    for (const ChartLine &line : out.lines)
        for (double y : line.y)
            out.y_max = std::max(out.y_max, y);
    return out;
}

ChartKind work_chart_kind(const std::vector<RunSamples> &runs)
{
    for (const RunSamples &run : runs)
        if (!run.samples.empty() && run.samples.back().ops > 0)
            return ChartKind::Throughput;
    return ChartKind::Progress;
}

std::optional<double> value_at(const ChartLine &line, double t_s)
{
    auto it = std::upper_bound(line.t_s.begin(), line.t_s.end(), t_s);
    if (it == line.t_s.begin())
        return std::nullopt;
    return line.y[static_cast<std::size_t>(it - line.t_s.begin()) - 1];
}

double nice_step(double span, double ticks)
{
    if (!(span > 0) || !(ticks > 0))
        return 1.0;
    const double raw = span / ticks;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0})
        if (m * magnitude >= raw * (1 - 1e-9))
            return m * magnitude;
    return 10.0 * magnitude;
}

int decimals_for_step(double step)
{
    constexpr int kMaxDecimals = 6;
    for (int d = 0; d < kMaxDecimals; ++d) {
        const double scaled = step * std::pow(10.0, d);
        if (std::abs(scaled - std::round(scaled)) < 1e-6 * std::max(1.0, scaled))
            return d;
    }
    return kMaxDecimals;
}

AxisScale value_axis_scale(double y_max, bool percent)
{
    // About this many intervals below the top: enough to read values off,
    // few enough for labels on a 200 px chart.
    constexpr double kTicks = 4;
    // Above this share the whole 0-100 % scale reads best.
    constexpr double kFullPercentScale = 50;
    // Headroom above the data (and above 100 %) so the top line is not drawn on the frame.
    constexpr double kHeadroom = 1.05;
    AxisScale a;
    if (percent && y_max >= kFullPercentScale) {
        a.step = 20;
        a.top = 100 * kHeadroom;
        a.decimals = 0;
        return a;
    }
    const double want = y_max > 0 ? y_max * kHeadroom : 1.0;
    a.step = nice_step(want, kTicks);
    a.top = std::ceil(want / a.step - 1e-9) * a.step;
    a.decimals = decimals_for_step(a.step);
    return a;
}

namespace {
// The round numbers axes are made of: 1, 2, 2.5 and 5 x 10^n.
constexpr double kRoundMantissas[] = {1.0, 2.0, 2.5, 5.0};

// The largest round number (kRoundMantissas) at or below `v` > 0.
double round_floor(double v)
{
    const double magnitude = std::pow(10.0, std::floor(std::log10(v)));
    double best = magnitude;
    for (double m : kRoundMantissas)
        if (m * magnitude <= v * (1 + 1e-9))
            best = m * magnitude;
    return best;
}
} // namespace

AxisScale tight_axis_scale(double y_max, int max_intervals)
{
    // Just enough headroom that a line at the peak is not drawn on the frame.
    constexpr double kTightHeadroom = 1.02;
    // The top is a multiple of a round grain about a twentieth of the data
    // (25 for a 520 MiB peak, 50 for 1010 MiB), so it ends a few per cent
    // above the highest line: 550 and 1050, not 600 and 1250 or 2000.
    constexpr double kTopGrains = 20;
    const double want = y_max > 0 ? y_max * kTightHeadroom : 1.0;
    const double grain = round_floor(want / kTopGrains);
    AxisScale a;
    a.top = std::ceil(want / grain - 1e-9) * grain;
    // Labelled ticks: the finest round step with at most max_intervals of
    // them up to the top (the top itself need not be one: 0-550 is
    // labelled 0, 100 ... 500).
    const int intervals = std::max(max_intervals, 1);
    const double magnitude = std::pow(10.0, std::floor(std::log10(a.top / intervals)));
    a.step = -1;
    for (double decade : {1.0, 10.0, 100.0}) {
        for (double m : kRoundMantissas) {
            const double step = m * magnitude * decade;
            if (std::floor(a.top / step + 1e-9) <= intervals) {
                a.step = step;
                break;
            }
        }
        if (a.step > 0)
            break;
    }
    a.decimals = decimals_for_step(a.step);
    return a;
}

std::string format_time_s(double t_s)
{
    char buf[32];
    if (std::abs(t_s) < 1.0)
        std::snprintf(buf, sizeof buf, "%.1f ms", t_s * 1e3);
    else
        std::snprintf(buf, sizeof buf, "%.3f s", t_s);
    return buf;
}

} // namespace schedscope::gui
