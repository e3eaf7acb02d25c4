#pragma once
// The outer shape of a Trace Event JSON file, written as a stream:
// {"traceEvents":[ event, event, ... ],"displayTimeUnit":"ns",...}.
// "traceEvents" comes first because Perfetto recognises a JSON trace by its
// opening bytes; the rest follows the array.

#include "export/output_file.h"

#include <string>
#include <string_view>

namespace schedscope {

class ChromeTraceDoc {
public:
    explicit ChromeTraceDoc(OutputFile &out) : out_(out) {}
    void begin() { out_.write("{\"traceEvents\":[\n"); }
    // One complete event object, e.g. {"ph":"X",...}.
    void event(std::string_view object)
    {
        if (!first_)
            out_.write(",\n");
        first_ = false;
        out_.write(object);
    }
    // Two JSON objects about the whole file: `metadata`, which Perfetto
    // imports (into its metadata table), and `other_data`, which
    // chrome://tracing shows in its Metadata dialog and Perfetto skips.
    void end(std::string_view metadata, std::string_view other_data)
    {
        out_.write("\n],\"displayTimeUnit\":\"ns\",\"metadata\":");
        out_.write(metadata);
        out_.write(",\"otherData\":");
        out_.write(other_data);
        out_.write("}\n");
    }
    std::uint64_t bytes() const { return out_.bytes(); }

private:
    OutputFile &out_;
    bool first_ = true;
};

// Shared by the trace writers.
// A JSON string literal, quotes included; invalid UTF-8 is replaced, not thrown.
std::string json_quote(std::string_view text);
// Nanoseconds as the microseconds Trace Event timestamps use, exactly
// ("1234.567"): no floating-point rounding.
std::string ns_as_us(std::int64_t ns);

} // namespace schedscope
