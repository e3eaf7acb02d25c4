#pragma once
// Small formatting helpers for the plain-language reasons every decision
// carries (the explain view shows them verbatim).

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <string>
#include <utility>

namespace schedscope {

// "1.2" — one decimal is what a reader compares against a threshold.
// std::to_chars with a precision is specified to print as printf("%.1f")
// does, at a fraction of the cost (balancing reasons are written hundreds
// of thousands of times a run); what does not fit goes through snprintf.
// The balancers print the same few load averages over and over, so the
// last texts are remembered per thread, keyed by the value's exact bits.
inline void append_fixed1(std::string &out, double v)
{
    struct Memo {
        std::uint64_t bits = 0;
        unsigned char len = 0; // 0 = empty
        char text[23];
    };
    thread_local std::array<Memo, 64> memo{};
    const auto bits = std::bit_cast<std::uint64_t>(v);
    Memo &m = memo[static_cast<std::size_t>(((bits >> 32) ^ bits) * 0x9E3779B97F4A7C15ull >> 58)];
    if (m.len > 0 && m.bits == bits) {
        out.append(m.text, m.len);
        return;
    }
    char buf[32];
    // Most values are far from a tie between two tenths: their tenths are
    // v x 10 rounded to the nearest integer, whatever the rounding error of
    // the product (at most half an ulp, far below the 0.4999 margin for
    // values under 1e12), written as an integer with the point put in.
    // Near a tie, or for large values, the exact conversion below decides.
    const double tenths = v * 10.0;
    if (std::fabs(tenths) < 1e12) {
        const double r = std::nearbyint(tenths);
        if (std::fabs(tenths - r) < 0.4999) {
            const auto n = static_cast<long long>(std::fabs(r));
            char *p = buf;
            if (std::signbit(v)) // "-0.0" as printf writes it, for -0.04 too
                *p++ = '-';
            p = std::to_chars(p, buf + sizeof buf, n / 10).ptr;
            *p++ = '.';
            *p++ = static_cast<char>('0' + n % 10);
            out.append(buf, static_cast<std::size_t>(p - buf));
            return;
        }
    }
    const auto r = std::to_chars(buf, buf + sizeof buf - 1, v, std::chars_format::fixed, 1);
    std::size_t len = 0;
    if (r.ec != std::errc())
        len = static_cast<std::size_t>(std::max(0, std::snprintf(buf, sizeof buf, "%.1f", v)));
    else
        len = static_cast<std::size_t>(r.ptr - buf);
    len = std::min(len, sizeof buf - 1); // what snprintf kept
    if (len > 0 && len <= sizeof m.text) {
        m.bits = bits;
        m.len = static_cast<unsigned char>(len);
        std::memcpy(m.text, buf, len);
    }
    out.append(buf, len);
}

inline std::string fixed1_text(double v)
{
    std::string s;
    append_fixed1(s, v);
    return s;
}

// Decimal, as std::to_string writes it, appended without a temporary.
inline void append_int(std::string &out, long long v)
{
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, static_cast<std::size_t>(r.ptr - buf));
}

// Shortest exact-enough form, for parameter values that must read back equal.
inline std::string num_text(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

// "newidle|exec|wake-affine": the names of the flags that are set, in the
// order given, or "none" (a sched domain's one-line description).
inline std::string flag_list(std::initializer_list<std::pair<bool, const char *>> flags)
{
    std::string f;
    for (const auto &[set, name] : flags)
        if (set) {
            if (!f.empty())
                f += '|';
            f += name;
        }
    return f.empty() ? "none" : f;
}

// "2.5 ms", appended without a temporary.
inline void append_ms(std::string &out, double ms)
{
    append_fixed1(out, ms);
    out += " ms";
}

inline std::string ms_text(double ms)
{
    std::string s;
    append_ms(s, ms);
    return s;
}
inline std::string cpu_text(int cpu) { return "CPU " + std::to_string(cpu); }
inline std::string task_text(int task) { return "task " + std::to_string(task); }
inline std::string node_text(int node) { return "node " + std::to_string(node); }

} // namespace schedscope
