#include "export/trace_export.h"

#include "export/chrome_trace_doc.h"
#include "export/chrome_trace_sink.h"
#include "export/ftrace_sink.h"
#include "export/output_file.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>

#ifndef SCHEDSCOPE_VERSION
#define SCHEDSCOPE_VERSION "dev"
#endif

namespace schedscope {

namespace {

// Runs advance in slices so counters stream out and a caller can cancel.
constexpr SimTime kSliceNs = 100'000'000;
// Sink events the size estimate formats before it only counts the rest:
// enough that the average line length settles (a few MB of text).
constexpr std::uint64_t kFormattedEvents = 20'000;

// Where a traced run stops: the window's end, the run's duration, or the
// safety limit for fixed work, whichever comes first.
SimTime run_limit(const Simulation &sim, const TraceOptions &o)
{
    SimTime lim = sim.config().duration_ns > 0 ? sim.config().duration_ns
                                               : static_cast<SimTime>(std::llround(o.max_simulated_s * 1e9));
    if (!o.window.open_ended())
        lim = std::min(lim, o.window.end_ns);
    return lim;
}

// Whether the run's end is known without running it.
bool end_known(const Simulation &sim, const TraceOptions &o)
{
    return sim.config().duration_ns > 0 || !o.window.open_ended();
}

void check_args(const std::vector<const Simulation *> &sims, const std::vector<std::string> &names)
{
    if (sims.empty())
        throw std::invalid_argument("trace export needs at least one simulation");
    if (names.size() != sims.size())
        throw std::invalid_argument("trace export needs one name per simulation");
    for (auto *s : sims)
        if (!s)
            throw std::invalid_argument("trace export got a null simulation");
}

std::string file_safe(const std::string &name)
{
    std::string out;
    for (char c : name)
        out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') ? c : '_';
    return out.empty() ? "run" : out;
}

std::string other_data(const std::vector<std::string> &names, const TraceOptions &o)
{
    std::string s = "{\"generator\":\"schedscope " SCHEDSCOPE_VERSION "\",\"policies\":[";
    for (size_t i = 0; i < names.size(); ++i)
        s += (i ? "," : "") + json_quote(names[i]);
    s += "],\"window_start_us\":" + ns_as_us(o.window.start_ns);
    if (!o.window.open_ended())
        s += ",\"window_end_us\":" + ns_as_us(o.window.end_ns);
    return s + "}";
}

// The top-level "metadata" object, the one a Perfetto import keeps: what
// wrote the file, the machine, and each process's policy with every
// parameter it ran with (defaults included). Invalid UTF-8 in a name is
// replaced, as json_quote does, rather than thrown.
std::string trace_metadata(const std::vector<const Simulation *> &sims, const std::vector<std::string> &names,
                           const TraceOptions &o)
{
    nlohmann::json m;
    m["generator"] = "schedscope";
    m["version"] = SCHEDSCOPE_VERSION;
    const Topology &topo = sims.front()->topology();
    m["topology"] = {{"name", topo.name()}, {"pus", topo.pu_count()}, {"numa_nodes", topo.numa_count()}};
    nlohmann::json procs = nlohmann::json::array();
    for (size_t i = 0; i < sims.size(); ++i) {
        nlohmann::json params = nlohmann::json::object();
        for (const auto &[k, v] : sims[i]->policy().params())
            params[k] = v;
        procs.push_back({{"pid", i + 1}, {"name", names[i]}, {"policy", sims[i]->policy().name()}, {"params", params}});
    }
    m["processes"] = std::move(procs);
    m["window_start_ns"] = o.window.start_ns;
    if (!o.window.open_ended())
        m["window_end_ns"] = o.window.end_ns;
    return m.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string ftrace_title(const std::string &name) { return "schedscope " SCHEDSCOPE_VERSION ": " + name; }

// One simulation's run with a sink attached. `after_slice` returns false to
// cancel.
template <class AfterSlice> bool run_traced(Simulation &sim, SimTime limit, AfterSlice &&after_slice)
{
    while (!sim.finished() && sim.now() < limit) {
        sim.run_until(std::min(limit, sim.now() + kSliceNs));
        if (!after_slice())
            return false;
    }
    return true;
}

// Passes the engine's events on to a formatting sink (`inner`, while there
// is one) and counts those that make lines: all of them, and those inside
// the trace window. Decisions only annotate later lines and are not counted.
class EventCounter : public SchedEventSink {
public:
    explicit EventCounter(TraceWindow window) : window_(window) {}
    SchedEventSink *inner = nullptr;
    std::uint64_t all = 0, in_window = 0;

    void on_task_new(SimTime now, TaskId t, int cpu) override
    {
        count(now);
        if (inner)
            inner->on_task_new(now, t, cpu);
    }
    void on_switch_in(SimTime now, int cpu, TaskId t) override
    {
        count(now);
        if (inner)
            inner->on_switch_in(now, cpu, t);
    }
    void on_switch_out(SimTime now, int cpu, TaskId t, TaskState as) override
    {
        count(now);
        if (inner)
            inner->on_switch_out(now, cpu, t, as);
    }
    void on_wakeup(SimTime now, TaskId t, int target, int waker) override
    {
        count(now);
        if (inner)
            inner->on_wakeup(now, t, target, waker);
    }
    void on_migration(const MigrationRecord &m, DecisionKind kind, const std::string &reason) override
    {
        count(m.time_ns);
        if (inner)
            inner->on_migration(m, kind, reason);
    }
    void on_decision(const Decision &d) override
    {
        if (inner)
            inner->on_decision(d);
    }

private:
    void count(SimTime t)
    {
        ++all;
        if (window_.contains(t))
            ++in_window;
    }
    TraceWindow window_;
};

// Samples taken since the last look (the Chrome counters' source), all of
// them and those inside the window.
class SampleCounter {
public:
    SampleCounter(const Simulation &sim, TraceWindow window) : sim_(sim), window_(window)
    {
        const auto &s = sim.recording().samples;
        last_ns_ = s.empty() ? SimTime{-1} : s.back().time_ns;
    }
    std::uint64_t all = 0, in_window = 0;
    void update()
    {
        const auto &s = sim_.recording().samples;
        auto next = std::upper_bound(s.begin(), s.end(), last_ns_,
                                     [](SimTime t, const MetricsSample &m) { return t < m.time_ns; });
        for (; next != s.end(); ++next) {
            last_ns_ = next->time_ns;
            ++all;
            if (window_.contains(last_ns_))
                ++in_window;
        }
    }

private:
    const Simulation &sim_;
    TraceWindow window_;
    SimTime last_ns_;
};

double fraction_done(const Simulation &sim, SimTime t0, SimTime limit, bool known)
{
    if (sim.finished())
        return 1.0;
    if (!known)
        return sim.progress();
    return limit > t0 ? std::clamp(static_cast<double>(sim.now() - t0) / static_cast<double>(limit - t0), 0.0, 1.0)
                      : 1.0;
}

// Tells options.progress how far the whole job is, run `run` of `runs`
// being `run_fraction` done; false once the caller asks to stop.
bool report_progress(const TraceOptions &o, std::size_t run, std::size_t runs, double run_fraction)
{
    return !o.progress || o.progress((static_cast<double>(run) + run_fraction) / static_cast<double>(runs));
}

} // namespace

std::vector<std::string> trace_output_paths(const std::string &path, const std::vector<std::string> &names,
                                            TraceFormat format)
{
    if (format == TraceFormat::Chrome || names.size() <= 1)
        return {path};
    const std::filesystem::path p(path);
    std::vector<std::string> out;
    for (size_t i = 0; i < names.size(); ++i) {
        std::filesystem::path q = p;
        q.replace_filename(p.stem().string() + "." + std::to_string(i + 1) + "-" + file_safe(names[i]) +
                           p.extension().string());
        out.push_back(q.string());
    }
    return out;
}

TraceSizeEstimate estimate_trace_size(const std::vector<const Simulation *> &sims,
                                      const std::vector<std::string> &names, const TraceOptions &o)
{
    check_args(sims, names);
    TraceSizeEstimate est;
    est.exact = true;
    double total = 0;
    for (size_t i = 0; i < sims.size(); ++i) {
        Simulation sim(*sims[i]);
        const SimTime t0 = sim.now();
        const SimTime limit = run_limit(sim, o);
        const bool known = end_known(sim, o);
        // False once the caller asks to stop (est.cancelled).
        const auto go_on = [&] {
            if (report_progress(o, i, sims.size(), fraction_done(sim, t0, limit, known)))
                return true;
            est.cancelled = true;
            return false;
        };
        const SimTime from = std::max(t0, o.window.start_ns);
        // Formatted from t0 on, whatever the window: the bytes per event are
        // what the first phase measures, and the window may start far ahead.
        const TraceWindow all{t0, -1};
        OutputFile counter;
        std::unique_ptr<ChromeTraceDoc> doc;
        std::unique_ptr<ChromeTraceSink> chrome;
        std::unique_ptr<FtraceSink> ftrace;
        EventCounter events(o.window);
        if (o.format == TraceFormat::Chrome) {
            doc = std::make_unique<ChromeTraceDoc>(counter);
            // Count the document's head once and separators as in one file.
            if (i == 0)
                doc->begin();
            else
                doc->event("");
            chrome = std::make_unique<ChromeTraceSink>(sim, names[i], static_cast<int>(i), *doc, all, o.cpu_tracks);
            chrome->begin();
            events.inner = chrome.get();
        } else {
            ftrace = std::make_unique<FtraceSink>(sim, counter, all);
            ftrace->begin(ftrace_title(names[i]));
            events.inner = ftrace.get();
        }
        sim.set_event_sink(&events);
        const std::uint64_t fixed = counter.bytes();
        SampleCounter samples(sim, o.window);
        std::uint64_t sample_bytes = 0;
        const auto at_end = [&] { return sim.finished() || sim.now() >= limit; };

        // Phase 1, formatted: into the byte counter until enough events (and,
        // for Chrome, a sample's counters) were written to know their size.
        run_traced(sim, limit, [&] {
            const std::uint64_t before = counter.bytes();
            if (chrome)
                chrome->emit_new_samples();
            sample_bytes += counter.bytes() - before;
            samples.update();
            return go_on() && (events.all < kFormattedEvents || (chrome && samples.all == 0));
        });
        if (est.cancelled)
            return est;
        if (chrome)
            chrome->finish();
        else
            ftrace->finish();
        const bool whole = at_end() && from <= t0;
        est.sampled_s += static_cast<double>(sim.now() - t0) / 1e9;
        const std::uint64_t formatted_events = events.all, formatted_samples = samples.all;
        const double event_bytes = static_cast<double>(counter.bytes() - fixed - sample_bytes);

        // Phase 2, counted only: the rest of the run with nothing formatted,
        // so the event rate of every phase of it is known, not guessed.
        events.inner = nullptr;
        if (!run_traced(sim, limit, [&] {
                samples.update();
                return go_on();
            }))
            return est;
        sim.set_event_sink(nullptr);
        est.covered_s += static_cast<double>(std::max<SimTime>(0, sim.now() - from)) / 1e9;
        est.events += events.in_window;
        double bytes = static_cast<double>(counter.bytes());
        if (!whole) {
            bytes = static_cast<double>(fixed);
            if (formatted_events > 0)
                bytes += event_bytes * static_cast<double>(events.in_window) / static_cast<double>(formatted_events);
            if (formatted_samples > 0)
                bytes += static_cast<double>(sample_bytes) * static_cast<double>(samples.in_window) /
                         static_cast<double>(formatted_samples);
        }
        est.exact = est.exact && whole;
        total += bytes;
    }
    if (o.format == TraceFormat::Chrome) {
        // The closing part of the document, measured by writing it.
        OutputFile tail;
        ChromeTraceDoc(tail).end(trace_metadata(sims, names, o), other_data(names, o));
        total += static_cast<double>(tail.bytes());
    }
    est.bytes = static_cast<std::uint64_t>(std::llround(total));
    return est;
}

std::string trace_size_warning(const TraceSizeEstimate &est, TraceFormat format)
{
    if (format != TraceFormat::Chrome || est.bytes <= kChromeViewerLimitBytes)
        return {};
    return "a Chrome JSON trace over " + std::to_string(kChromeViewerLimitBytes / 1'000'000) +
           " MB does not open in Perfetto UI or chrome://tracing: narrow the time window, or use the ftrace format";
}

TraceExportResult export_trace(const std::vector<const Simulation *> &sims, const std::vector<std::string> &names,
                               const std::string &path, const TraceOptions &o)
{
    check_args(sims, names);
    TraceExportResult result;
    const auto paths = trace_output_paths(path, names, o.format);
    std::vector<std::unique_ptr<OutputFile>> files;
    for (auto &p : paths)
        files.push_back(std::make_unique<OutputFile>(p));
    std::unique_ptr<ChromeTraceDoc> doc;
    if (o.format == TraceFormat::Chrome) {
        doc = std::make_unique<ChromeTraceDoc>(*files.front());
        doc->begin();
    }
    for (size_t i = 0; i < sims.size(); ++i) {
        Simulation sim(*sims[i]);
        const SimTime t0 = sim.now();
        const SimTime limit = run_limit(sim, o);
        const bool known = end_known(sim, o);
        std::unique_ptr<ChromeTraceSink> chrome;
        std::unique_ptr<FtraceSink> ftrace;
        if (doc) {
            chrome = std::make_unique<ChromeTraceSink>(sim, names[i], static_cast<int>(i), *doc, o.window,
                                                       o.cpu_tracks);
            chrome->begin();
            sim.set_event_sink(chrome.get());
        } else {
            ftrace = std::make_unique<FtraceSink>(sim, *files[i], o.window);
            ftrace->begin(ftrace_title(names[i]));
            sim.set_event_sink(ftrace.get());
        }
        const bool done = run_traced(sim, limit, [&] {
            if (chrome)
                chrome->emit_new_samples();
            return report_progress(o, i, sims.size(), fraction_done(sim, t0, limit, known));
        });
        if (!done) {
            result.cancelled = true;
            return result; // the OutputFiles discard their temporaries
        }
        if (chrome)
            chrome->finish();
        else
            ftrace->finish();
        sim.set_event_sink(nullptr);
    }
    if (doc)
        doc->end(trace_metadata(sims, names, o), other_data(names, o));
    for (auto &f : files) {
        f->commit();
        result.bytes += f->bytes();
        result.files.push_back(f->path());
    }
    if (o.progress)
        o.progress(1.0);
    return result;
}

} // namespace schedscope
