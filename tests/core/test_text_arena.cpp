// Decision reasons live in shared chunks (engine/text_arena.h): each reason
// reads back as written, stays readable after its arena, its Recording or a
// restore has moved on, and is never written over by a copy of the arena.

#include "catalog/catalog.h"
#include "engine/simulation.h"
#include "engine/text_arena.h"
#include "topology/import.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

using namespace schedscope;

namespace {

std::string numbered(int i) { return "reason number " + std::to_string(i) + " with some words after it"; }

Simulation busy_sim()
{
    SimConfig cfg;
    cfg.seed = 3;
    cfg.sample_interval_ns = 1'000'000;
    Simulation sim(std::make_shared<const Topology>(import_synthetic("pack:2 l3:1 core:2 pu:1")),
                   make_policy("sched-domains", {}, "t"), cfg);
    auto [name, params] = parse_name_params("hackbench:groups=1,loops=20", "t");
    find_workload(name, "t").build(sim, params, "t");
    return sim;
}

} // namespace

TEST_CASE("reasons read back as written, across chunk boundaries", "[engine][recording]")
{
    TextArena arena;
    std::vector<ReasonText> kept;
    std::size_t bytes = 0;
    // More than two chunks' worth, so some reasons start a new chunk.
    int n = 0;
    while (bytes < 2 * TextArena::kChunkBytes + 1000) {
        kept.push_back(arena.store(numbered(n)));
        bytes += kept.back().size();
        ++n;
    }
    for (int i = 0; i < n; ++i)
        REQUIRE(kept[static_cast<std::size_t>(i)] == numbered(i));
    CHECK(arena.store("").empty());
    CHECK(arena.store("").data() == nullptr);
}

TEST_CASE("a reason outlives its arena and is copied as a reference", "[engine][recording]")
{
    ReasonText r;
    {
        TextArena arena;
        arena.store("first");
        r = arena.store("second reason");
    }
    CHECK(r == "second reason");
    const ReasonText copy = r;
    CHECK(copy.data() == r.data());
    CHECK(copy.find("reason") == 7);
    CHECK(copy.str() == "second reason");
}

TEST_CASE("a reason longer than a quarter chunk gets storage of its own", "[engine][recording]")
{
    TextArena arena;
    const ReasonText small = arena.store("small");
    const std::string long_text(TextArena::kChunkBytes / 2, 'x');
    const ReasonText big = arena.store(long_text);
    const ReasonText after = arena.store("after");
    CHECK(big == long_text);
    // The chunk the small ones share was not used up by the long one.
    CHECK(after.data() == small.data() + small.size());
    CHECK(small == "small");
    CHECK(after == "after");
}

TEST_CASE("a copied arena never writes over the text its original handed out", "[engine][recording]")
{
    TextArena original;
    const ReasonText a = original.store("written before the copy");
    TextArena copy = original;
    const ReasonText b = copy.store("written by the copy");
    const ReasonText c = original.store("written by the original after the copy");
    CHECK(a == "written before the copy");
    CHECK(b == "written by the copy");
    CHECK(c == "written by the original after the copy");
    // The copy writes into a chunk of its own (a is the first text of its 64 KiB chunk).
    CHECK((b.data() < a.data() || b.data() >= a.data() + TextArena::kFirstChunkBytes));
    TextArena assigned;
    assigned.store("something");
    assigned = original;
    const ReasonText d = assigned.store("written by the assigned one");
    CHECK(c == "written by the original after the copy");
    CHECK(d == "written by the assigned one");
}

TEST_CASE("decisions copied out of a run keep their words after a restore and after the run is gone",
          "[engine][recording][checkpoint]")
{
    std::vector<Decision> held; // as the GUI holds them, in frames
    std::vector<std::string> words;
    {
        Simulation sim = busy_sim();
        sim.run_until(5'000'000);
        const Simulation::Checkpoint cp = sim.checkpoint();
        sim.run_until(20'000'000);
        REQUIRE(sim.recording().decisions.size() > cp.mark.decisions);
        for (const Decision &d : sim.recording().decisions) {
            held.push_back(d);
            words.push_back(d.reason.str());
        }
        // Back to 5 ms and on again: what is written after the restore
        // must not land on the text of the decisions held above.
        sim.restore(cp);
        CHECK(sim.recording().decisions.size() == cp.mark.decisions);
        sim.run_until(20'000'000);
        CHECK(sim.recording().decisions.size() == held.size());
        for (std::size_t i = 0; i < held.size(); ++i)
            REQUIRE(sim.recording().decisions[i].reason == words[i]);
    }
    REQUIRE(!held.empty());
    for (std::size_t i = 0; i < held.size(); ++i)
        REQUIRE(held[i].reason == words[i]);
}

TEST_CASE("big arrays are whole huge pages and aligned, small ones come from the heap", "[engine][recording]")
{
    std::vector<std::uint64_t, BigArrayAllocator<std::uint64_t>> big;
    big.reserve(big_memory::kHugePageBytes / sizeof(std::uint64_t) + 1);
    CHECK(reinterpret_cast<std::uintptr_t>(big.data()) % big_memory::kHugePageBytes == 0);
    big.assign(big.capacity(), 7);
    CHECK(big.back() == 7);
    std::vector<int, BigArrayAllocator<int>> small(10, 3);
    CHECK(small[9] == 3);
}
