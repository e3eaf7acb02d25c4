#pragma once
// Writes one word into every cache line of a buffer, in an order hardware
// prefetchers cannot follow, so that the time taken is the time to bring
// every line into the writer's cache and not a streaming benchmark.
//
// Each pass walks the lines with a stride of many pages picked at random
// (from our own seeded generator, so runs are repeatable) and coprime with
// the line count, so every line is written exactly once per pass. A new
// stride per pass also keeps two passes from evicting lines in the same
// order, which would make an LRU cache lose everything every time.

#include <cstddef>
#include <cstdint>

namespace schedscope {

// SplitMix64: tiny, fast and good enough to pick strides; our own so that
// the sequence does not depend on the standard library's implementation.
class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next();

private:
    std::uint64_t state_;
};

class BufferDirtier {
public:
    BufferDirtier(std::uint64_t seed, std::size_t line_bytes);
    void dirty(std::byte *buffer, std::size_t bytes);
    std::size_t line_bytes() const { return line_bytes_; }

private:
    SplitMix64 rng_;
    std::size_t line_bytes_;
    std::uint64_t pass_ = 0;
};

} // namespace schedscope
