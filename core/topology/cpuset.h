#pragma once
// A set of PUs, indexed by the PU's logical index in its Topology.
// Dynamic width so that a 1024-PU machine costs 16 words, a 2-PU one 1.

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

namespace schedscope {

class CpuSet {
public:
    CpuSet() = default;
    explicit CpuSet(int width) : words_((width + 63) / 64, 0) {}

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
    std::vector<std::uint64_t> words_;
};

} // namespace schedscope
