#include "export/trace_options.h"

#include "util/input_error.h"

#include <cmath>
#include <cstdlib>

namespace schedscope {

const char *trace_format_name(TraceFormat f)
{
    return f == TraceFormat::Chrome ? "chrome" : "ftrace";
}

TraceFormat parse_trace_format(const std::string &text, const std::string &source)
{
    if (text == "chrome" || text == "json")
        return TraceFormat::Chrome;
    if (text == "ftrace" || text == "text")
        return TraceFormat::Ftrace;
    throw InputError(source, "unknown trace format '" + text + "' (chrome or ftrace)");
}

namespace {

SimTime parse_time_ns(const std::string &text, const std::string &source)
{
    const char *begin = text.c_str();
    char *end = nullptr;
    const double v = std::strtod(begin, &end);
    if (end == begin || !std::isfinite(v) || v < 0)
        throw InputError(source, "'" + text + "' is not a time (e.g. 1.5s, 200ms)");
    const std::string unit(end);
    double scale = 0;
    if (unit.empty() || unit == "s")
        scale = 1e9;
    else if (unit == "ms")
        scale = 1e6;
    else if (unit == "us")
        scale = 1e3;
    else if (unit == "ns")
        scale = 1;
    else if (unit == "m")
        scale = 60e9;
    else
        throw InputError(source, "unknown time unit '" + unit + "' in '" + text + "' (ns, us, ms, s, m)");
    const double ns = v * scale;
    if (ns > 9.2e18)
        throw InputError(source, "'" + text + "' is too long a time");
    return static_cast<SimTime>(std::llround(ns));
}

} // namespace

TraceWindow parse_trace_window(const std::string &text, const std::string &source)
{
    const auto colon = text.find(':');
    if (colon == std::string::npos)
        throw InputError(source, "expected START:END, e.g. 1s:2s or 500ms: (got '" + text + "')");
    const std::string a = text.substr(0, colon), b = text.substr(colon + 1);
    TraceWindow w;
    if (!a.empty())
        w.start_ns = parse_time_ns(a, source);
    if (!b.empty())
        w.end_ns = parse_time_ns(b, source);
    if (!w.open_ended() && w.end_ns <= w.start_ns)
        throw InputError(source, "the window ends before it starts ('" + text + "')");
    return w;
}

} // namespace schedscope
