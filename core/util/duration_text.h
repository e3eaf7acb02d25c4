#pragma once
// Durations as users write them ("2.05s", "500ms", "1.5m"), read exactly
// into whole nanoseconds: the decimal digits are scaled as integers, never
// through a double, so 2.05s is 2'050'000'000 ns and not one short.

#include <cstdint>
#include <string>

namespace schedscope {

// A decimal number ("12", "2.05", ".5") followed by a unit: ns, us, ms, s,
// m or min, h; no unit means seconds. No sign, exponent or spaces. Throws
// InputError naming `source` when the text is not such a duration, has a
// nonzero digit finer than a nanosecond, or exceeds what 64 bits hold
// (about 292 years); callers check their own, tighter limits.
std::int64_t parse_duration_ns(const std::string &text, const std::string &source);

// Seconds held as a double (a scenario's duration_s) to whole nanoseconds,
// rounded to nearest. For any duration written with at most nine decimals
// and up to months long, the double's error is far below half a nanosecond,
// so this gives the exact figure back; truncating would lose one ns for
// values such as 2.05 whose double lies just below.
std::int64_t seconds_as_ns(double seconds);

} // namespace schedscope
