#include "profiler/pinned_worker.h"

#include <cerrno>
#include <cstring>
#include <utility>

namespace schedscope {

PinnedWorker::PinnedWorker(hwloc_topology_t topology, int pu_os_index)
{
    thread_ = std::thread([this, topology, pu_os_index] { loop(topology, pu_os_index); });
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [this] { return started_; });
}

PinnedWorker::~PinnedWorker()
{
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
}

void PinnedWorker::loop(hwloc_topology_t topology, int pu_os_index)
{
    {
        hwloc_bitmap_t set = hwloc_bitmap_alloc();
        hwloc_bitmap_only(set, static_cast<unsigned>(pu_os_index));
        const bool ok = hwloc_set_cpubind(topology, set, HWLOC_CPUBIND_THREAD) == 0;
        const std::string why = ok ? std::string() : std::strerror(errno);
        hwloc_bitmap_free(set);
        std::lock_guard lock(mutex_);
        bound_ = ok;
        bind_error_ = why;
        started_ = true;
    }
    cv_.notify_all();

    std::unique_lock lock(mutex_);
    for (;;) {
        cv_.wait(lock, [this] { return stop_ || job_ != nullptr; });
        if (stop_)
            return;
        const auto *job = job_;
        lock.unlock();
        std::exception_ptr error;
        try {
            (*job)();
        } catch (...) {
            error = std::current_exception();
        }
        lock.lock();
        job_ = nullptr;
        job_error_ = error;
        job_done_ = true;
        cv_.notify_all();
    }
}

void PinnedWorker::run(const std::function<void()> &job)
{
    std::unique_lock lock(mutex_);
    job_ = &job;
    job_done_ = false;
    cv_.notify_all();
    cv_.wait(lock, [this] { return job_done_; });
    if (job_error_)
        std::rethrow_exception(std::exchange(job_error_, nullptr));
}

} // namespace schedscope
