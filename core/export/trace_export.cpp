#include "export/trace_export.h"

#include "export/chrome_trace_doc.h"
#include "export/chrome_trace_sink.h"
#include "export/ftrace_sink.h"
#include "export/output_file.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <stdexcept>

#ifndef SCHEDSCOPE_VERSION
#define SCHEDSCOPE_VERSION "dev"
#endif

namespace schedscope {

namespace {

// Runs advance in slices so counters stream out and a caller can cancel.
constexpr SimTime kSliceNs = 100'000'000;
constexpr SimTime kMinPrefixNs = 200'000'000;
constexpr double kPrefixShare = 0.02;

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

std::string ftrace_title(const std::string &name)
{
    return "schedscope " SCHEDSCOPE_VERSION ": " + name;
}

// One simulation's run with a sink attached. `after_slice` returns false to
// cancel.
template <class AfterSlice>
bool run_traced(Simulation &sim, SimTime limit, AfterSlice &&after_slice)
{
    while (!sim.finished() && sim.now() < limit) {
        sim.run_until(std::min(limit, sim.now() + kSliceNs));
        if (!after_slice())
            return false;
    }
    return true;
}

double fraction_done(const Simulation &sim, SimTime t0, SimTime limit, bool known)
{
    if (sim.finished())
        return 1.0;
    if (!known)
        return sim.progress();
    return limit > t0 ? std::clamp(static_cast<double>(sim.now() - t0) / static_cast<double>(limit - t0), 0.0, 1.0)
                      : 1.0;
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
        const SimTime from = std::max(t0, o.window.start_ns);
        // Every event from t0 on is counted, whatever the window: the rate
        // is what matters, and the start of the window may lie far ahead.
        TraceOptions sample = o;
        sample.window = TraceWindow{t0, -1};
        OutputFile counter;
        std::unique_ptr<ChromeTraceDoc> doc;
        std::unique_ptr<ChromeTraceSink> chrome;
        std::unique_ptr<FtraceSink> ftrace;
        if (o.format == TraceFormat::Chrome) {
            doc = std::make_unique<ChromeTraceDoc>(counter);
            // Count the document's head once and separators as in one file.
            if (i == 0)
                doc->begin();
            else
                doc->event("");
            chrome = std::make_unique<ChromeTraceSink>(sim, names[i], static_cast<int>(i), *doc, sample.window,
                                                       o.cpu_tracks);
            chrome->begin();
            sim.set_event_sink(chrome.get());
        } else {
            ftrace = std::make_unique<FtraceSink>(sim, counter, sample.window);
            ftrace->begin(ftrace_title(names[i]));
            sim.set_event_sink(ftrace.get());
        }
        const std::uint64_t fixed = counter.bytes();
        auto emit = [&] {
            if (chrome)
                chrome->emit_new_samples();
            return true;
        };
        SimTime span = known ? std::max<SimTime>(0, limit - from) : 0;
        SimTime prefix = std::max(kMinPrefixNs, static_cast<SimTime>(kPrefixShare * static_cast<double>(span)));
        run_traced(sim, std::min(limit, t0 + prefix), emit);
        if (!known && !sim.finished()) {
            // Project the end of fixed work from the progress made so far.
            const double p0 = sims[i]->progress(), p1 = sim.progress();
            SimTime end = limit;
            if (p1 > p0)
                end = std::min<SimTime>(limit, t0 + static_cast<SimTime>(static_cast<double>(sim.now() - t0) *
                                                                         (1.0 - p0) / (p1 - p0)));
            span = std::max<SimTime>(0, end - from);
            prefix = std::max(prefix, static_cast<SimTime>(kPrefixShare * static_cast<double>(span)));
            run_traced(sim, std::min(limit, t0 + prefix), emit);
        }
        if (chrome)
            chrome->finish();
        else
            ftrace->finish();
        sim.set_event_sink(nullptr);
        const SimTime sampled = sim.now() - t0;
        const bool whole = (sim.finished() || sim.now() >= limit) && from <= t0;
        if (sim.finished() || sim.now() >= limit)
            span = std::max<SimTime>(0, sim.now() - from);
        const double event_bytes = static_cast<double>(counter.bytes() - fixed);
        double bytes = static_cast<double>(fixed);
        if (whole)
            bytes = static_cast<double>(counter.bytes());
        else if (sampled > 0)
            bytes += event_bytes * static_cast<double>(span) / static_cast<double>(sampled);
        est.exact = est.exact && whole;
        total += bytes;
        est.sampled_s += static_cast<double>(sampled) / 1e9;
        est.covered_s += static_cast<double>(span) / 1e9;
    }
    if (o.format == TraceFormat::Chrome) {
        // The closing part of the document, measured by writing it.
        OutputFile tail;
        ChromeTraceDoc(tail).end(other_data(names, o));
        total += static_cast<double>(tail.bytes());
    }
    est.bytes = static_cast<std::uint64_t>(std::llround(total));
    return est;
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
    const double n = static_cast<double>(sims.size());
    for (size_t i = 0; i < sims.size(); ++i) {
        Simulation sim(*sims[i]);
        const SimTime t0 = sim.now();
        const SimTime limit = run_limit(sim, o);
        const bool known = end_known(sim, o);
        std::unique_ptr<ChromeTraceSink> chrome;
        std::unique_ptr<FtraceSink> ftrace;
        if (doc) {
            chrome = std::make_unique<ChromeTraceSink>(sim, names[i], static_cast<int>(i), *doc, o.window, o.cpu_tracks);
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
            return !o.progress || o.progress((static_cast<double>(i) + fraction_done(sim, t0, limit, known)) / n);
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
        doc->end(other_data(names, o));
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
