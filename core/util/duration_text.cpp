#include "util/duration_text.h"

#include "util/input_error.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace schedscope {

namespace {

using Wide = unsigned __int128;

struct Unit {
    const char *name;
    std::int64_t ns;
};
constexpr Unit kUnits[] = {{"ns", 1},
                           {"us", 1'000},
                           {"ms", 1'000'000},
                           {"", 1'000'000'000},
                           {"s", 1'000'000'000},
                           {"m", 60'000'000'000},
                           {"min", 60'000'000'000},
                           {"h", 3'600'000'000'000}};

// Beyond these the value cannot fit in 64 bits of nanoseconds anyway (whole
// part) or must have a nonzero digit below 1 ns whatever the unit (fraction:
// an hour is 2^13 3^2 5^11 ns, so 10^k divides f * 1 h only for k <= 13 when
// f does not end in 0; 24 leaves margin). Both keep the arithmetic in 128 bits.
constexpr int kMaxWholeDigits = 20;
constexpr int kMaxFractionDigits = 24;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

} // namespace

std::int64_t parse_duration_ns(const std::string &text, const std::string &source)
{
    const auto not_a_duration = [&] {
        return InputError(source, "'" + text + "' is not a duration (e.g. 10s, 500ms, 2m)");
    };
    const auto too_long = [&] { return InputError(source, "'" + text + "' is too long a duration"); };
    std::size_t i = 0;
    bool any_digit = false;
    Wide whole = 0;
    int whole_digits = 0;
    for (; i < text.size() && is_digit(text[i]); ++i) {
        any_digit = true;
        if (whole == 0 && text[i] == '0')
            continue; // leading zeros
        if (++whole_digits > kMaxWholeDigits)
            throw too_long();
        whole = whole * 10 + static_cast<unsigned>(text[i] - '0');
    }
    Wide fraction = 0, fraction_scale = 1;
    if (i < text.size() && text[i] == '.') {
        const std::size_t from = ++i;
        while (i < text.size() && is_digit(text[i]))
            ++i;
        std::size_t to = i;
        any_digit = any_digit || to > from;
        while (to > from && text[to - 1] == '0')
            --to; // trailing zeros say nothing
        if (to - from > static_cast<std::size_t>(kMaxFractionDigits))
            throw InputError(source, "'" + text + "' is finer than a nanosecond");
        for (std::size_t k = from; k < to; ++k) {
            fraction = fraction * 10 + static_cast<unsigned>(text[k] - '0');
            fraction_scale *= 10;
        }
    }
    if (!any_digit)
        throw not_a_duration();
    const std::string unit = text.substr(i);
    const Unit *u = nullptr;
    for (const Unit &c : kUnits)
        if (unit == c.name)
            u = &c;
    if (!u) {
        // Letters alone read as a unit ("5d"); anything else ("1e3s", "2.5.1s") is no number.
        const bool letters = std::all_of(unit.begin(), unit.end(),
                                         [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); });
        if (!letters)
            throw not_a_duration();
        throw InputError(source, "unknown unit '" + unit + "' in '" + text + "' (ns, us, ms, s, m, h)");
    }
    const Wide fraction_ns = fraction * static_cast<Wide>(u->ns);
    if (fraction_ns % fraction_scale != 0)
        throw InputError(source, "'" + text + "' is finer than a nanosecond");
    const Wide ns = whole * static_cast<Wide>(u->ns) + fraction_ns / fraction_scale;
    if (ns > static_cast<Wide>(std::numeric_limits<std::int64_t>::max()))
        throw too_long();
    return static_cast<std::int64_t>(ns);
}

std::int64_t seconds_as_ns(double seconds) { return static_cast<std::int64_t>(std::llround(seconds * 1e9)); }

} // namespace schedscope
