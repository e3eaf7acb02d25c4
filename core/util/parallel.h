#pragma once
// The one thread pool of schedscope: independent jobs (the runs of
// `schedscope-cli run`, the points of a sweep) spread over threads. Each job
// writes its own result slot, so what comes out does not depend on the
// number of threads or on the order jobs finish in.

#include <cstddef>
#include <functional>

namespace schedscope {

// Runs job(i) once for every i in [0, count) on up to `threads` threads
// (0 = one per hardware thread) and returns when all have run. After each
// job, on_done(jobs done so far) is called on the calling thread, so it
// needs no locking. A job that throws does not stop the others; once all
// have run, the exception of the lowest index is rethrown.
void run_parallel(std::size_t count, unsigned threads, const std::function<void(std::size_t index)> &job,
                  const std::function<void(std::size_t done)> &on_done = {});

} // namespace schedscope
