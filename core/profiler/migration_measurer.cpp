#include "profiler/migration_measurer.h"

#include "topology/hwloc_convert.h" // load_hwloc: no snapshot's HWLOC_FSROOT during this load

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <new>
#include <stdexcept>

namespace schedscope {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Buffers are line-aligned so that every write touches exactly one line.
constexpr std::size_t kBufferAlignmentBytes = 64;
// Two buffers beyond half of the machine's memory would push the system into
// swap and measure the disk, not the caches: refuse instead.
constexpr double kMaxMemoryShare = 0.5;

struct AlignedFree {
    void operator()(std::byte *p) const { ::operator delete[](p, std::align_val_t{kBufferAlignmentBytes}); }
};
using Buffer = std::unique_ptr<std::byte[], AlignedFree>;

// Untouched on purpose: the first writer places the pages on its own node,
// as a task's memory would be.
Buffer allocate(std::size_t bytes)
{
    auto *p = static_cast<std::byte *>(::operator new[](bytes, std::align_val_t{kBufferAlignmentBytes}, std::nothrow));
    if (!p)
        throw std::runtime_error("out of memory: cannot allocate a " + std::to_string(bytes >> 20) +
                                 " MiB profiling buffer; lower --factor or profile a smaller cache --level");
    return Buffer(p);
}

double elapsed_ms(std::chrono::steady_clock::time_point from, std::chrono::steady_clock::time_point to)
{
    return std::chrono::duration<double, std::milli>(to - from).count();
}

} // namespace

MigrationMeasurer::MigrationMeasurer(const Topology &topology, std::uint64_t buffer_bytes, std::size_t line_bytes,
                                     int reps, std::uint64_t seed)
    : topology_(topology), buffer_bytes_(static_cast<std::size_t>(buffer_bytes)), reps_(std::max(1, reps)),
      dirtier_(seed, line_bytes)
{
    const std::uint64_t memory = topology.total_memory_bytes();
    if (memory > 0 && 2.0 * static_cast<double>(buffer_bytes) > kMaxMemoryShare * static_cast<double>(memory))
        throw std::runtime_error("profiling buffers of 2 x " + std::to_string(buffer_bytes >> 20) +
                                 " MiB exceed half of this machine's " + std::to_string(memory >> 20) +
                                 " MiB of memory; lower --factor or profile a smaller cache --level");
    if (hwloc_topology_init(&hwloc_) != 0 || load_hwloc(hwloc_) != 0) {
        if (hwloc_)
            hwloc_topology_destroy(hwloc_);
        throw std::runtime_error("hwloc could not load this machine's topology for binding");
    }
    const auto *support = hwloc_topology_get_support(hwloc_);
    if (!support->cpubind->set_thisthread_cpubind) {
        hwloc_topology_destroy(hwloc_);
        throw std::runtime_error("this system does not let hwloc bind threads to CPUs; measure mode needs it "
                                 "(use --mode model)");
    }
}

MigrationMeasurer::~MigrationMeasurer()
{
    workers_.clear(); // threads first: they use the hwloc topology
    hwloc_topology_destroy(hwloc_);
}

std::vector<bool> MigrationMeasurer::usable_pus()
{
    // Cgroup restrictions shape the allowed set, taskset the process binding.
    hwloc_bitmap_t allowed = hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(hwloc_));
    hwloc_bitmap_t bound = hwloc_bitmap_alloc();
    if (hwloc_get_cpubind(hwloc_, bound, HWLOC_CPUBIND_PROCESS) == 0 && !hwloc_bitmap_iszero(bound))
        hwloc_bitmap_and(allowed, allowed, bound);
    std::vector<bool> usable(topology_.pu_count(), false);
    for (int pu = 0; pu < topology_.pu_count(); ++pu) {
        const int os = topology_.pu_os_index(pu);
        usable[pu] = os >= 0 && hwloc_bitmap_isset(allowed, static_cast<unsigned>(os)) &&
                     hwloc_get_pu_obj_by_os_index(hwloc_, static_cast<unsigned>(os)) != nullptr;
    }
    hwloc_bitmap_free(bound);
    hwloc_bitmap_free(allowed);
    return usable;
}

PinnedWorker *MigrationMeasurer::worker(int pu)
{
    auto it = workers_.find(pu);
    if (it == workers_.end()) {
        auto w = std::make_unique<PinnedWorker>(hwloc_, topology_.pu_os_index(pu));
        if (!w->bound()) {
            failed_.push_back(pu);
            notes_.push_back("PU " + std::to_string(topology_.pu_os_index(pu)) +
                             " skipped: binding a thread to it failed (" + w->bind_error() + ")");
            w.reset();
        }
        it = workers_.emplace(pu, std::move(w)).first;
    }
    return it->second.get();
}

double MigrationMeasurer::cost_ms(int source, int target, const std::atomic<bool> *cancel)
{
    PinnedWorker *src = worker(source);
    PinnedWorker *dst = worker(target);
    if (!src || !dst)
        return kNaN;
    Buffer shared = allocate(buffer_bytes_);
    Buffer local = source == target ? Buffer() : allocate(buffer_bytes_);

    double worst = kNaN;
    // Sample 0 is a warm-up: it takes the page faults of fresh buffers.
    for (int rep = 0; rep <= reps_; ++rep) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            return kNaN;
        src->run([&] { dirtier_.dirty(shared.get(), buffer_bytes_); });
        double sample = 0;
        dst->run([&] {
            if (local)
                dirtier_.dirty(local.get(), buffer_bytes_);
            const auto start = std::chrono::steady_clock::now();
            dirtier_.dirty(shared.get(), buffer_bytes_);
            sample = elapsed_ms(start, std::chrono::steady_clock::now());
        });
        if (rep > 0)
            worst = std::isfinite(worst) ? std::max(worst, sample) : sample;
    }
    return worst;
}

} // namespace schedscope
