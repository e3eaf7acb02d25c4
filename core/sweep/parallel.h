#pragma once
// The pool behind sweeps and `reproduce`: independent jobs 0..total-1 on up
// to `threads` threads. Each job writes only its own result slot, so results
// do not depend on the number of threads or the order jobs finish in.

#include <functional>

namespace schedscope {

// Runs job(i) for every i in [0, total) on up to `threads` threads (0 = the
// hardware's concurrency). `progress(done, total)` is called from the calling
// thread whenever a job completes, so callers need no locking for it. Every
// job runs even if another throws; then the first failing job's exception
// (by index) is rethrown. `job` must be safe to call concurrently.
void run_parallel(int total, unsigned threads, const std::function<void(int job)> &job,
                  const std::function<void(int done, int total)> &progress = {});

} // namespace schedscope
