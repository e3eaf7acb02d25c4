#pragma once
// Small formatting helpers for the plain-language reasons every decision
// carries (the explain view shows them verbatim).

#include <charconv>
#include <cstdio>
#include <string>

namespace schedscope {

// "1.2" — one decimal is what a reader compares against a threshold.
// std::to_chars with a precision is specified to print as printf("%.1f")
// does, at a fraction of the cost (balancing reasons are written hundreds
// of thousands of times a run); what does not fit goes through snprintf.
inline std::string fixed1_text(double v)
{
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf - 1, v, std::chars_format::fixed, 1);
    if (r.ec != std::errc())
        std::snprintf(buf, sizeof buf, "%.1f", v);
    else
        *r.ptr = '\0';
    return buf;
}

// Shortest exact-enough form, for parameter values that must read back equal.
inline std::string num_text(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

inline std::string ms_text(double ms) { return fixed1_text(ms) + " ms"; }
inline std::string cpu_text(int cpu) { return "CPU " + std::to_string(cpu); }
inline std::string task_text(int task) { return "task " + std::to_string(task); }
inline std::string node_text(int node) { return "node " + std::to_string(node); }

} // namespace schedscope
