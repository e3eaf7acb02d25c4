#include "util/parallel.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace schedscope {

void run_parallel(std::size_t count, unsigned threads, const std::function<void(std::size_t)> &job,
                  const std::function<void(std::size_t)> &on_done)
{
    if (count == 0)
        return;
    if (threads == 0)
        threads = std::max(1u, std::thread::hardware_concurrency());
    threads = static_cast<unsigned>(std::min<std::size_t>(threads, count));

    std::vector<std::exception_ptr> errors(count);
    std::atomic<std::size_t> next{0};
    std::mutex mu;
    std::condition_variable cv;
    std::size_t done = 0;
    auto worker = [&] {
        for (std::size_t i; (i = next.fetch_add(1)) < count;) {
            try {
                job(i);
            } catch (...) {
                errors[i] = std::current_exception();
            }
            {
                std::lock_guard lock(mu);
                ++done;
            }
            cv.notify_one();
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back(worker);
    {
        std::unique_lock lock(mu);
        std::size_t reported = 0;
        while (reported < count) {
            cv.wait(lock, [&] { return done > reported; });
            const std::size_t now_done = done;
            lock.unlock();
            if (on_done)
                for (std::size_t d = reported + 1; d <= now_done; ++d)
                    on_done(d);
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
