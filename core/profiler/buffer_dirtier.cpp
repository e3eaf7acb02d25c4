#include "profiler/buffer_dirtier.h"

#include <numeric>

namespace schedscope {

namespace {
// The x86 line size, for callers that do not know theirs.
constexpr std::size_t kDefaultLineBytes = 64;
// A buffer of fewer lines than this is walked in order: no stride to hide.
constexpr std::size_t kMinLinesForStride = 5;
} // namespace

std::uint64_t SplitMix64::next()
{
    // Constants of Steele, Lea and Flood's SplitMix64 finaliser.
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

BufferDirtier::BufferDirtier(std::uint64_t seed, std::size_t line_bytes)
    : rng_(seed), line_bytes_(line_bytes ? line_bytes : kDefaultLineBytes)
{
}

void BufferDirtier::dirty(std::byte *buffer, std::size_t bytes)
{
    const std::size_t lines = bytes / line_bytes_;
    if (lines == 0)
        return;
    // A stride between a quarter and three quarters of the buffer jumps many
    // pages at once: next-line and in-page stride prefetchers see no pattern.
    std::size_t stride = 1;
    if (lines >= kMinLinesForStride) {
        stride = lines / 4 + rng_.next() % (lines / 2);
        while (std::gcd(stride, lines) != 1)
            ++stride;
    }
    std::size_t index = rng_.next() % lines;
    const std::uint64_t value = ++pass_;
    for (std::size_t i = 0; i < lines; ++i) {
        // volatile: the compiler must not drop or merge writes nobody reads.
        *reinterpret_cast<volatile std::uint64_t *>(buffer + index * line_bytes_) = value;
        index += stride;
        if (index >= lines)
            index -= lines;
    }
}

} // namespace schedscope
