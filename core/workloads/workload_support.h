#pragma once
// Small helpers the built-in workloads share: sizes in chunks, the work a
// streaming pass over memory represents, binding as the autonuma-benchmark
// does it, and the hackbench groups that numa_test reuses.

#include "engine/simulation.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace schedscope {

// A loop that streams through memory (bzero, STREAM kernels) issues a new
// cache line about every 5 ns of instruction work when it is not stalled:
// 200 accesses per us. Order of magnitude for an unrolled store loop on a
// 2010s core; the model then adds the memory latency it pays per line.
inline constexpr double kStreamAccessesPerUs = 200.0;

// The lines a loop of ordinary stores writes back per line it misses. A
// store to a line not in cache on a write-back memory type first reads the
// line for ownership (RFO) and, once evicted, writes it back: two memory
// transfers a line, the read from the memory's node to the writer's, the
// write-back the other way (Intel 64 and IA-32 Architectures Optimization
// Reference Manual, 2009, "non-temporal stores" and the RFO it avoids;
// McCalpin's STREAM counts leave this write-allocate traffic out). bzero()
// in the autonuma-benchmark is taken to use ordinary stores. That is not
// what the 2012 benchmark ran: glibc 2.11-2.17 on Intel parts ran a
// memset above the cache's share per thread as a loop of movntdq
// non-temporal stores (sysdeps/x86_64/memset.S and cacheinfo.c), which
// read nothing and leave nothing in a cache, so the source's value is 0.
// It stays 1 while the machine files give a node one bandwidth for reads
// and writes alike: with 0, every autonuma-benchmark pass runs twice as
// fast as measured (docs/CALIBRATION.md, eighth round: two errors that
// cancel, and the write-side bandwidth it lacks).
inline constexpr double kStoreLoopWritebackShare = 1.0;

// Share of the misses of pointer-chasing code (database index walks, JVM
// object graphs, kernel socket and task structures) that wait for the one
// before. Chou, Fahs and Abraham ("Microarchitecture optimizations for
// exploiting memory-level parallelism", ISCA 2004) measured 1.3-1.5 misses
// overlapped on average for OLTP and SPECjbb on an out-of-order core; with
// 10 in flight for the rest, 1 / (f + (1 - f) / 10) = 1.4 gives f = 0.7.
// Streaming loops (STREAM, the autonuma-benchmark's bzero passes) have 0.
inline constexpr double kPointerChasingDependentFraction = 0.7;

// Workload parameters give times in us and access rates per us of compute;
// the engine counts in ns.
inline constexpr std::int64_t kNsPerUs = 1'000;
// An access rate per us of compute as the engine takes it, per ns
// (Simulation::TaskSpec::mem_intensity).
inline constexpr double accesses_per_ns(double accesses_per_us) { return accesses_per_us / kNsPerUs; }

// Whole chunks needed for `bytes` (at least one).
int chunks_for_bytes(const Simulation &sim, std::int64_t bytes);

// Compute ns one pass over `bytes` represents at `accesses_per_us`: one
// access per cache line, each access preceded by 1/intensity ns of work.
std::int64_t pass_work_ns(const Simulation &sim, double bytes, double accesses_per_us);

// An autonuma-benchmark thread: `loops` passes, each writing chunks
// [chunk_begin, chunk_end) of its process's memory once with bzero()
// (ordinary stores: kStoreLoopWritebackShare).
Simulation::TaskSpec bench_writer_task(const Simulation &sim, std::string name, int chunk_begin, int chunk_end,
                                       std::int64_t loops, double accesses_per_us);

// Chunks [begin, end) of slice `i` of `n` equal slices of `chunks`.
std::pair<int, int> slice_chunks(int chunks, int i, int n);

// The autonuma-benchmark's static placements, as its own source does them:
// thread (or process) i of `count` goes to node i / (count / nodes) (hard)
// or (count - 1 - i) / (count / nodes) (inverse).
enum class BenchBind { None, Hard, Inverse };
// The `bind` parameter's names for them.
std::vector<std::pair<std::string, BenchBind>> bench_bind_choices();
int bench_bind_node(BenchBind b, int i, int count, int nodes);

// hackbench's groups: 20 senders and 20 receivers per group; each sender
// sends `loops` messages to every receiver of its group, each message one
// Post on the receiver's channel (a wakeup when the receiver waits). With a
// bounded buffer a sender first takes a free slot of the receiver's socket
// (blocking while it is full) and the receiver frees one per message read.
struct HackbenchShape {
    std::int64_t groups = 10;
    std::int64_t loops = 100;
    SimTime start_ns = 0;
    std::int64_t send_ns = 0;    // work to write one message
    std::int64_t receive_ns = 0; // work to read one message
    std::int64_t working_set_bytes = 0;
    // Messages a receiver's socket holds before its senders block in
    // write(); 0 = unbounded (senders never block).
    std::int64_t buffer_messages = 0;
    // hackbench.c's main() forks every group's senders and receivers itself
    // (fork(), no exec): all groups are then one Process here, so a policy
    // that starts forked children on their creator's CPU starts all of them
    // on one. false: one Process per group.
    bool one_parent = false;
    // Run in the background of a timed command that does not wait for it
    // (TaskSpec::untimed).
    bool untimed = false;
};

// The socket buffer of hackbench's era: a receiver's socket, shared by the
// 20 senders of its group, accepts writes while the memory charged to it is
// below sk_sndbuf. Linux 2.4/2.5 include/linux/skbuff.h: SK_WMEM_MAX 65535,
// which net/core/sock.c gives every socket as sysctl_wmem_default.
inline constexpr std::int64_t kHackbenchSocketBufferBytes = 65535;
// Bytes charged per message: hackbench's 100-byte DATASIZE rounded to a
// 128-byte cache line (alloc_skb's SKB_DATA_ALIGN on ia64) plus the struct
// sk_buff itself, taken as 256 bytes on a 64-bit kernel (an assumption of
// that order; the struct's exact size depends on the configuration).
inline constexpr std::int64_t kHackbenchMessageChargeBytes = 128 + 256;
// Messages a buffer of `bytes` holds (at least one; 0 bytes = unbounded).
inline std::int64_t hackbench_buffer_messages(std::int64_t bytes)
{
    return bytes <= 0 ? 0 : std::max<std::int64_t>(1, bytes / kHackbenchMessageChargeBytes);
}
// A message's way through an AF_UNIX stream socket, as cache lines (2.6.9
// net/unix/af_unix.c, the same path as 2.4/2.5's): unix_stream_sendmsg()
// takes the receiving socket's state lock, skb_queue_tail() its receive
// queue's lock and head, and sk_data_ready() the wait-queue head's lock,
// one after the other; unix_stream_recvmsg()'s skb_dequeue() takes the
// queue's lock and head again, reads the sk_buff the sender filled, copies
// the data out, and kfree_skb()'s destructor sock_wfree() decrements the
// sender's sk_wmem_alloc. The data is hackbench.c's DATASIZE, 100 bytes.
inline constexpr std::int64_t kHackbenchDataBytes = 100;
inline constexpr int kUnixSendSharedLines = 3;       // the receiver's state lock, queue lock and head, wait-queue head
inline constexpr int kUnixRecvSharedLines = 1;       // the queue's lock and head
inline constexpr int kUnixRecvSenderLines = 2;       // the sk_buff, the sender's sk_wmem_alloc
inline constexpr int kHackbenchSendersPerGroup = 20; // hackbench's fixed group shape
inline constexpr int kHackbenchReceiversPerGroup = 20; // (num_fds = 20 by default)
void add_hackbench_groups(Simulation &sim, const HackbenchShape &shape, const std::string &name_prefix);

} // namespace schedscope
