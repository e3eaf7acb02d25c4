#pragma once
// schedscope's own PRNG: xoshiro256** seeded through SplitMix64. Identical
// sequences on every platform and standard library, which std::
// distributions do not promise. Plain data, so simulations copy it into
// checkpoints.

#include <cstdint>

namespace schedscope {

class Prng {
public:
    explicit Prng(std::uint64_t seed = 1) { reseed(seed); }

    void reseed(std::uint64_t seed)
    {
        std::uint64_t x = seed;
        for (auto &w : s_)
            w = splitmix64(x);
    }

    std::uint64_t next_u64()
    {
        const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
        const std::uint64_t t = s_[1] << 17;
        s_[2] ^= s_[0];
        s_[3] ^= s_[1];
        s_[1] ^= s_[2];
        s_[0] ^= s_[3];
        s_[2] ^= t;
        s_[3] = rotl(s_[3], 45);
        return result;
    }

    // Uniform in [0, 1), 53 bits.
    double uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }

    // Uniform integer in [0, n); n > 0. Lemire's multiply-shift with rejection.
    std::uint64_t below(std::uint64_t n)
    {
        for (;;) {
            std::uint64_t x = next_u64();
            __uint128_t m = static_cast<__uint128_t>(x) * n;
            auto low = static_cast<std::uint64_t>(m);
            if (low >= n || low >= (-n) % n)
                return static_cast<std::uint64_t>(m >> 64);
        }
    }

    // Exponential with the given mean, for arrival and I/O times.
    double exponential(double mean);

    static std::uint64_t splitmix64(std::uint64_t &x)
    {
        std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }

    friend bool operator==(const Prng &, const Prng &) = default;

private:
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    std::uint64_t s_[4]{};
};

} // namespace schedscope
