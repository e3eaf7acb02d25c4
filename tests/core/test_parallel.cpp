// The thread pool shared by `run` and sweeps (util/parallel.h): every job
// once, progress on the calling thread, errors kept until all jobs ran.

#include "util/parallel.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace schedscope;

TEST_CASE("run_parallel runs every index once, whatever the thread count", "[parallel]")
{
    for (unsigned threads : {0u, 1u, 3u, 64u}) {
        std::vector<std::atomic<int>> runs(50);
        run_parallel(runs.size(), threads, [&](std::size_t i) { ++runs[i]; });
        for (auto &r : runs)
            CHECK(r.load() == 1);
    }
    bool called = false;
    run_parallel(0, 4, [&](std::size_t) { called = true; });
    CHECK_FALSE(called);
}

TEST_CASE("run_parallel reports progress on the calling thread, counting up to the total", "[parallel]")
{
    const auto caller = std::this_thread::get_id();
    std::vector<std::size_t> seen;
    bool all_on_caller = true;
    run_parallel(
        20, 4, [](std::size_t) {},
        [&](std::size_t done) {
            all_on_caller = all_on_caller && std::this_thread::get_id() == caller;
            seen.push_back(done);
        });
    CHECK(all_on_caller);
    REQUIRE(seen.size() == 20);
    for (std::size_t i = 0; i < seen.size(); ++i)
        CHECK(seen[i] == i + 1);
}

TEST_CASE("run_parallel finishes every job, then rethrows the error of the lowest index", "[parallel]")
{
    std::atomic<int> ran{0};
    auto job = [&](std::size_t i) {
        ++ran;
        if (i == 7 || i == 3)
            throw std::runtime_error("job " + std::to_string(i));
    };
    CHECK_THROWS_WITH(run_parallel(12, 3, job), "job 3");
    CHECK(ran.load() == 12);
}
