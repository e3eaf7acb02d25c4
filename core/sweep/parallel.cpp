#include "sweep/parallel.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace schedscope {

void run_parallel(int total, unsigned threads, const std::function<void(int)> &job,
                  const std::function<void(int, int)> &progress)
{
    if (total <= 0)
        return;
    std::vector<std::exception_ptr> errors(static_cast<size_t>(total));
    if (threads == 0)
        threads = std::max(1u, std::thread::hardware_concurrency());
    threads = std::min<unsigned>(threads, static_cast<unsigned>(total));

    std::atomic<int> next{0};
    std::mutex mu;
    std::condition_variable cv;
    int done = 0;
    auto worker = [&] {
        for (;;) {
            const int j = next.fetch_add(1);
            if (j >= total)
                return;
            try {
                job(j);
            } catch (...) {
                errors[static_cast<size_t>(j)] = std::current_exception();
            }
            {
                std::lock_guard lock(mu);
                ++done;
            }
            cv.notify_one();
        }
    };
    std::vector<std::thread> pool;
    for (unsigned i = 0; i < threads; ++i)
        pool.emplace_back(worker);
    {
        std::unique_lock lock(mu);
        int reported = 0;
        while (reported < total) {
            cv.wait(lock, [&] { return done > reported; });
            const int now_done = done;
            lock.unlock();
            for (int d = reported + 1; d <= now_done; ++d)
                if (progress)
                    progress(d, total);
            reported = now_done;
            lock.lock();
        }
    }
    for (auto &t : pool)
        t.join();
    for (auto &e : errors)
        if (e)
            std::rethrow_exception(e);
}

} // namespace schedscope
