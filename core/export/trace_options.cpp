#include "export/trace_options.h"

#include "util/duration_text.h"
#include "util/input_error.h"

namespace schedscope {

const char *trace_format_name(TraceFormat f) { return f == TraceFormat::Chrome ? "chrome" : "ftrace"; }

TraceFormat parse_trace_format(const std::string &text, const std::string &source)
{
    if (text == "chrome" || text == "json")
        return TraceFormat::Chrome;
    if (text == "ftrace" || text == "text")
        return TraceFormat::Ftrace;
    throw InputError(source, "unknown trace format '" + text + "' (chrome or ftrace)");
}

TraceWindow parse_trace_window(const std::string &text, const std::string &source)
{
    const auto colon = text.find(':');
    if (colon == std::string::npos)
        throw InputError(source, "expected START:END, e.g. 1s:2s or 500ms: (got '" + text + "')");
    const std::string a = text.substr(0, colon), b = text.substr(colon + 1);
    TraceWindow w;
    if (!a.empty())
        w.start_ns = parse_duration_ns(a, source);
    if (!b.empty())
        w.end_ns = parse_duration_ns(b, source);
    if (!w.open_ended() && w.end_ns <= w.start_ns)
        throw InputError(source, "the window ends before it starts ('" + text + "')");
    return w;
}

} // namespace schedscope
