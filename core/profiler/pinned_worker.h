#pragma once
// A thread bound to one PU (hwloc_set_cpubind, HWLOC_CPUBIND_THREAD) that
// runs jobs handed to it one at a time. The measurer needs work to happen on
// a given PU and nowhere else: the source's writes on the source, the
// target's on the target.

#include <hwloc.h>

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace schedscope {

class PinnedWorker {
public:
    // Starts the thread and waits until it has tried to bind itself.
    PinnedWorker(hwloc_topology_t topology, int pu_os_index);
    ~PinnedWorker();
    PinnedWorker(const PinnedWorker &) = delete;
    PinnedWorker &operator=(const PinnedWorker &) = delete;

    bool bound() const { return bound_; }
    const std::string &bind_error() const { return bind_error_; }

    // Runs `job` on the worker's PU and returns when it has finished;
    // exceptions thrown by the job are rethrown here.
    void run(const std::function<void()> &job);

private:
    void loop(hwloc_topology_t topology, int pu_os_index);

    std::mutex mutex_;
    std::condition_variable cv_;
    bool started_ = false;
    bool bound_ = false;
    std::string bind_error_;
    bool stop_ = false;
    const std::function<void()> *job_ = nullptr;
    bool job_done_ = false;
    std::exception_ptr job_error_;
    std::thread thread_;
};

} // namespace schedscope
