#pragma once
// A set of PUs, indexed by the PU's logical index in its Topology.
// Dynamic width so that a 1024-PU machine costs 16 words, a 2-PU one 1.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace schedscope {

namespace detail {

// The words of a CpuSet: up to two of them (128 PUs) inside the object,
// more on the heap. A task's allowed CPUs and a domain's span are tested
// on every wakeup and every pull; inside the Task or SchedDomain that is a
// load from a line already in use, where a std::vector's words were a
// separate allocation and often a cache miss of their own. Same size as
// the std::vector it replaces.
class CpuWords {
public:
    static constexpr std::size_t kInline = 2;

    CpuWords() = default;
    CpuWords(std::size_t n, std::uint64_t value) { resize(n, value); }
    CpuWords(const CpuWords &o) { assign(o); }
    CpuWords(CpuWords &&o) noexcept { take(o); }
    CpuWords &operator=(const CpuWords &o)
    {
        if (this != &o) {
            n_ = 0;
            assign(o);
        }
        return *this;
    }
    CpuWords &operator=(CpuWords &&o) noexcept
    {
        if (this != &o) {
            release();
            take(o);
        }
        return *this;
    }
    ~CpuWords() { release(); }

    std::size_t size() const { return n_; }
    const std::uint64_t *begin() const { return data(); }
    const std::uint64_t *end() const { return data() + n_; }
    std::uint64_t &operator[](std::size_t i) { return data()[i]; }
    std::uint64_t operator[](std::size_t i) const { return data()[i]; }
    // Grows (or shrinks) to n words; new words are `value`.
    void resize(std::size_t n, std::uint64_t value)
    {
        if (n > cap_) {
            const std::size_t cap = std::max<std::size_t>(n, 2 * std::size_t{cap_});
            auto *words = new std::uint64_t[cap];
            std::copy(data(), data() + n_, words);
            if (on_heap())
                delete[] u_.heap;
            u_.heap = words;
            cap_ = static_cast<std::uint32_t>(cap);
        }
        std::fill(data() + std::min<std::size_t>(n_, n), data() + n, value);
        n_ = static_cast<std::uint32_t>(n);
    }

private:
    bool on_heap() const { return cap_ > kInline; }
    std::uint64_t *data() { return on_heap() ? u_.heap : u_.in; }
    const std::uint64_t *data() const { return on_heap() ? u_.heap : u_.in; }
    void release() noexcept
    {
        if (on_heap())
            delete[] u_.heap;
        cap_ = kInline;
        n_ = 0;
    }
    // Into an empty store (n_ == 0).
    void assign(const CpuWords &o)
    {
        resize(o.n_, 0);
        std::copy(o.data(), o.data() + o.n_, data());
    }
    // From `o`, which is left empty; this store holds nothing on the heap.
    void take(CpuWords &o) noexcept
    {
        if (o.on_heap())
            u_.heap = o.u_.heap;
        else
            std::memcpy(u_.in, o.u_.in, sizeof u_.in);
        n_ = o.n_;
        cap_ = o.cap_;
        o.n_ = 0;
        o.cap_ = kInline;
    }

    union {
        std::uint64_t in[kInline] = {0, 0};
        std::uint64_t *heap;
    } u_;
    std::uint32_t n_ = 0;
    std::uint32_t cap_ = kInline;
};

} // namespace detail

class CpuSet {
public:
    CpuSet() = default;
    explicit CpuSet(int width) : words_(static_cast<std::size_t>((width + 63) / 64), 0) {}

    void set(int pu)
    {
        grow(pu + 1);
        words_[pu / 64] |= (std::uint64_t{1} << (pu % 64));
    }
    void reset(int pu)
    {
        if (pu / 64 < static_cast<int>(words_.size()))
            words_[pu / 64] &= ~(std::uint64_t{1} << (pu % 64));
    }
    bool test(int pu) const
    {
        if (pu < 0 || pu / 64 >= static_cast<int>(words_.size()))
            return false;
        return (words_[pu / 64] >> (pu % 64)) & 1u;
    }
    int count() const
    {
        int n = 0;
        for (auto w : words_)
            n += popcount64(w);
        return n;
    }
    // Any word set, not a count: a balancer tests hundreds of group
    // intersections per placement on a 1024-PU machine.
    bool empty() const
    {
        for (auto w : words_)
            if (w)
                return false;
        return true;
    }
    int first() const { return next(-1); }
    // The lowest member strictly greater than `pu`, or -1.
    int next(int pu) const
    {
        int start = pu + 1;
        for (int w = start / 64; w < static_cast<int>(words_.size()); ++w) {
            std::uint64_t bits = words_[w];
            if (w == start / 64)
                bits &= ~std::uint64_t{0} << (start % 64);
            if (bits)
                return w * 64 + std::countr_zero(bits);
        }
        return -1;
    }
    bool intersects(const CpuSet &o) const
    {
        auto n = std::min(words_.size(), o.words_.size());
        for (size_t i = 0; i < n; ++i)
            if (words_[i] & o.words_[i])
                return true;
        return false;
    }
    bool contains(const CpuSet &o) const
    {
        for (size_t i = 0; i < o.words_.size(); ++i) {
            std::uint64_t mine = i < words_.size() ? words_[i] : 0;
            if (o.words_[i] & ~mine)
                return false;
        }
        return true;
    }
    CpuSet &operator|=(const CpuSet &o)
    {
        grow(static_cast<int>(o.words_.size()) * 64);
        for (size_t i = 0; i < o.words_.size(); ++i)
            words_[i] |= o.words_[i];
        return *this;
    }
    CpuSet &operator&=(const CpuSet &o)
    {
        for (size_t i = 0; i < words_.size(); ++i)
            words_[i] &= i < o.words_.size() ? o.words_[i] : 0;
        return *this;
    }
    friend bool operator==(const CpuSet &a, const CpuSet &b)
    {
        auto n = std::max(a.words_.size(), b.words_.size());
        for (size_t i = 0; i < n; ++i) {
            std::uint64_t x = i < a.words_.size() ? a.words_[i] : 0;
            std::uint64_t y = i < b.words_.size() ? b.words_[i] : 0;
            if (x != y)
                return false;
        }
        return true;
    }
    std::vector<int> members() const
    {
        std::vector<int> out;
        for (int p = first(); p >= 0; p = next(p))
            out.push_back(p);
        return out;
    }
    // "0-3,8,10-11": the list syntax of taskset and numactl.
    std::string to_list_string() const
    {
        std::string s;
        int p = first();
        while (p >= 0) {
            int end = p;
            while (test(end + 1))
                ++end;
            if (!s.empty())
                s += ',';
            s += std::to_string(p);
            if (end > p)
                s += '-' + std::to_string(end);
            p = next(end);
        }
        return s;
    }

private:
    // Built for baseline x86-64 (no POPCNT instruction), std::popcount is a
    // call into libgcc's table loop; this bit-parallel sum is a dozen
    // inline instructions with the same result.
    static int popcount64(std::uint64_t w)
    {
        w -= (w >> 1) & 0x5555555555555555u;
        w = (w & 0x3333333333333333u) + ((w >> 2) & 0x3333333333333333u);
        w = (w + (w >> 4)) & 0x0f0f0f0f0f0f0f0fu;
        return static_cast<int>((w * 0x0101010101010101u) >> 56);
    }
    void grow(int width)
    {
        size_t need = static_cast<size_t>((width + 63) / 64);
        if (words_.size() < need)
            words_.resize(need, 0);
    }
    detail::CpuWords words_;
};

} // namespace schedscope
