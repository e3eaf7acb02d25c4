// The reasons' numbers read as printf("%.1f") writes them: the fast path
// of append_fixed1 (tenths as a rounded integer) must agree with the exact
// conversion everywhere, ties and signs included.

#include "policies/policy_text.h"
#include "util/prng.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

using namespace schedscope;

namespace {
std::string printf_fixed1(double v)
{
    char buf[512];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}
std::string ours(double v)
{
    std::string s;
    append_fixed1(s, v);
    return s;
}
} // namespace

TEST_CASE("one-decimal numbers are written as printf writes them", "[policies][text]")
{
    // Ties and near-ties of binary fractions, signs, zeros and the edges of
    // the fast path.
    for (double v : {0.0,
                     -0.0,
                     0.04,
                     -0.04,
                     0.05,
                     -0.05,
                     0.15,
                     0.25,
                     0.35,
                     2.5,
                     1.25,
                     1.35,
                     0.95,
                     9.95,
                     99.95,
                     125.0,
                     1e11,
                     99999999999.95,
                     1e12,
                     1e13,
                     1.5e15,
                     std::numeric_limits<double>::min(),
                     std::numeric_limits<double>::denorm_min()})
        CHECK(ours(v) == printf_fixed1(v));
    CHECK(ours(std::nan("")) == printf_fixed1(std::nan("")));
    CHECK(ours(INFINITY) == printf_fixed1(INFINITY));
    // Load averages, milliseconds and percentages as the balancers print
    // them, and values a hair either side of each tie.
    Prng rng(12345);
    for (int i = 0; i < 200000; ++i) {
        const double scale = std::pow(10.0, rng.uniform(-3.0, 9.0));
        double v = rng.uniform(-1.0, 1.0) * scale;
        if (i % 3 == 0) // on a tie between two tenths, nudged by a few ulps
            v = std::nextafter(std::round(v * 10.0) / 10.0 + 0.05, i % 2 ? INFINITY : -INFINITY);
        REQUIRE(ours(v) == printf_fixed1(v));
    }
}
