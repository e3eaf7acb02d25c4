// CpuSet keeps up to 128 PUs inside the object and more on the heap: every
// operation must give the same set on either side of that boundary, and
// across it while a set grows, is copied or is moved.

#include "topology/cpuset.h"
#include "util/prng.h"

#include <catch2/catch.hpp>

#include <set>
#include <utility>
#include <vector>

using namespace schedscope;

namespace {

std::vector<int> reference_members(const std::set<int> &s) { return {s.begin(), s.end()}; }

CpuSet from(const std::set<int> &s)
{
    CpuSet c;
    for (int p : s)
        c.set(p);
    return c;
}

} // namespace

TEST_CASE("cpuset: a set growing past 128 PUs keeps the members it had", "[topology][cpuset]")
{
    // In ascending order: every word boundary is crossed by set() alone,
    // the third word moving the words from inside the object to the heap.
    CpuSet c;
    std::set<int> ref;
    for (int p : {0, 5, 63, 64, 100, 127, 128, 191, 192, 300, 511, 1023}) {
        c.set(p);
        ref.insert(p);
        REQUIRE(c.members() == reference_members(ref));
    }
    CHECK(c.count() == static_cast<int>(ref.size()));
    CHECK(c.to_list_string() == "0,5,63-64,100,127-128,191-192,300,511,1023");
    // A width given up front holds nothing.
    CHECK(CpuSet(1024).empty());
    CHECK(CpuSet(1024) == CpuSet());
}

TEST_CASE("cpuset: copies and moves are independent sets, inline and on the heap", "[topology][cpuset]")
{
    for (const int top : {7, 127, 128, 1000}) {
        INFO("highest PU " << top);
        const std::set<int> ref{1, top / 2, top};
        CpuSet a = from(ref);
        CpuSet copy = a;
        copy.set(top + 1);
        CHECK(a.members() == reference_members(ref));
        CHECK_FALSE(a.test(top + 1));
        CHECK(copy.test(top + 1));

        CpuSet assigned(2048);
        assigned = a; // a wide set assigned a narrow one
        CHECK(assigned == a);
        assigned = assigned; // self-assignment leaves it as it is
        CHECK(assigned == a);

        CpuSet moved = std::move(copy);
        CHECK(moved.test(top + 1));
        CHECK(moved.count() == static_cast<int>(ref.size()) + 1);
        CpuSet move_assigned;
        move_assigned.set(5);
        move_assigned = std::move(moved);
        CHECK(move_assigned.count() == static_cast<int>(ref.size()) + 1);
        CHECK(move_assigned.test(top));
    }
}

TEST_CASE("cpuset: random operations agree with a std::set", "[topology][cpuset]")
{
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        INFO("seed " << seed);
        Prng rng(seed);
        const int width = seed % 2 == 0 ? 128 : 1024; // inline only, or across the boundary
        std::set<int> ra, rb;
        CpuSet a, b;
        for (int step = 0; step < 400; ++step) {
            const int p = static_cast<int>(rng.below(static_cast<std::uint64_t>(width)));
            switch (rng.below(6)) {
            case 0:
            case 1:
                a.set(p);
                ra.insert(p);
                break;
            case 2:
                a.reset(p);
                ra.erase(p);
                break;
            case 3:
                b.set(p);
                rb.insert(p);
                break;
            case 4: {
                CpuSet u = a;
                u |= b;
                std::set<int> ru = ra;
                ru.insert(rb.begin(), rb.end());
                REQUIRE(u.members() == reference_members(ru));
                CpuSet i = a;
                i &= b;
                std::set<int> ri;
                for (int x : ra)
                    if (rb.count(x))
                        ri.insert(x);
                REQUIRE(i.members() == reference_members(ri));
                REQUIRE(a.intersects(b) == !ri.empty());
                REQUIRE(u.contains(a));
                REQUIRE(u.contains(b));
                break;
            }
            default: {
                CpuSet c = b; // a copy, then b replaced by a moved-from temporary
                b = std::move(c);
                break;
            }
            }
            REQUIRE(a.test(p) == (ra.count(p) > 0));
            REQUIRE(a.count() == static_cast<int>(ra.size()));
            REQUIRE(b.members() == reference_members(rb));
            REQUIRE((a == b) == (ra == rb));
            const int after = static_cast<int>(rng.below(static_cast<std::uint64_t>(width) + 1)) - 1;
            const auto it = ra.upper_bound(after);
            REQUIRE(a.next(after) == (it == ra.end() ? -1 : *it));
        }
    }
}
