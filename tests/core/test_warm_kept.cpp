// The memory model skips warming a task on a PU where its last warming
// changed nothing (engine/memory_model.h, WarmKept): the skip must stand only
// while none of the caches above that PU changed.

#include "engine/memory_model.h"
#include "topology/import.h"

#include <catch2/catch.hpp>

using namespace schedscope;

namespace {

Task task_with_set(TaskId id, double working_set)
{
    Task t;
    t.id = id;
    t.mem_intensity = 1.0; // one access past L1 per ns of work: 1 ms fills any share here
    t.dependent_fraction = 1.0;
    t.working_set_bytes = working_set;
    t.node_weight = {1.0};
    t.used_nodes = {0};
    t.unplaced_weight = 0;
    return t;
}

} // namespace

TEST_CASE("memory model: a task whose share is full is warmed again once another task evicts from it",
          "[memory_model][warm_kept]")
{
    // 1 MB of L2 shared by two PUs, a task of 0.6 MB on each: together they
    // overflow it. The skip is kept per PU, so only the cache's change
    // count tells PU 0 that PU 1's task evicted from its task's share. The
    // cache is shared, so the lines brought in go in at the settle that
    // ends each tick (settle_shared_caches).
    const auto topo = std::make_shared<const Topology>(import_synthetic("pack:1 l2:1(size=1MB) core:2 pu:1"));
    MemoryModel mm(topo, ModelParams{});
    std::vector<Task> ts{task_with_set(0, 0.6e6), task_with_set(1, 0.6e6)};
    Task &a = ts[0], &b = ts[1];
    const auto warm = [&](Task &t, int cpu) {
        mm.warm(t, cpu, 1e6, 1e6);
        mm.settle_shared_caches(ts);
    };
    // Filled, then warmed twice more at its target: nothing moves (the
    // third pass is the one skipped).
    for (int i = 0; i < 3; ++i)
        warm(a, 0);
    REQUIRE(mm.warmth_on(0, 0, 2) == Approx(0.6e6));
    REQUIRE(mm.caches().front().used_bytes == Approx(0.6e6));
    // b's warming on PU 1 evicts part of a's share.
    warm(b, 1);
    const double evicted = mm.warmth_on(0, 0, 2);
    REQUIRE(evicted < 0.6e6);
    // a runs again on PU 0: it must refill (the cache changed since its
    // last pass there), and now b's share gives way.
    warm(a, 0);
    CHECK(mm.warmth_on(0, 0, 2) == Approx(0.6e6));
    CHECK(mm.warmth_on(1, 0, 2) < 0.6e6);
    // And a full share stays full over passes with nothing between them.
    warm(a, 0);
    warm(a, 0);
    CHECK(mm.warmth_on(0, 0, 2) == Approx(0.6e6));
}
