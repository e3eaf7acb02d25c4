#include "workloads/workload_support.h"

#include "params/params.h"

#include <algorithm>
#include <cmath>

namespace schedscope {

int chunks_for_bytes(const Simulation &sim, std::int64_t bytes)
{
    const std::int64_t chunk = sim.model().chunk_bytes;
    return static_cast<int>(std::max<std::int64_t>(1, (bytes + chunk - 1) / chunk));
}

Simulation::TaskSpec bench_writer_task(const Simulation &sim, std::string name, int chunk_begin, int chunk_end,
                                       std::int64_t loops, double accesses_per_us)
{
    Simulation::TaskSpec s;
    s.name = std::move(name);
    const double touched = (chunk_end - chunk_begin) * static_cast<double>(sim.model().chunk_bytes);
    s.program.ops = {Op{Op::Kind::Compute, pass_work_ns(sim, touched, accesses_per_us), 0, -1}};
    s.program.iterations = loops;
    s.segments = {AccessSegment{chunk_begin, chunk_end, 1.0}};
    s.mem_intensity = accesses_per_ns(accesses_per_us);
    s.working_set_bytes = touched;
    s.writeback_share = kStoreLoopWritebackShare;
    return s;
}

std::int64_t pass_work_ns(const Simulation &sim, double bytes, double accesses_per_us)
{
    const double lines = bytes / sim.model().cache_line_bytes;
    const double ns_per_line = kNsPerUs / std::max(accesses_per_us, 1e-6);
    return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::llround(lines * ns_per_line)));
}

std::pair<int, int> slice_chunks(int chunks, int i, int n)
{
    const int begin = static_cast<int>(static_cast<std::int64_t>(chunks) * i / n);
    int end = static_cast<int>(static_cast<std::int64_t>(chunks) * (i + 1) / n);
    return {begin, std::max(end, begin + 1)};
}

std::vector<std::pair<std::string, BenchBind>> bench_bind_choices()
{
    return {{"none", BenchBind::None}, {"hard", BenchBind::Hard}, {"inverse", BenchBind::Inverse}};
}

int bench_bind_node(BenchBind b, int i, int count, int nodes)
{
    // count / nodes as integer division, like the benchmark; at least 1 so
    // fewer threads than nodes still map somewhere.
    const int per_node = std::max(1, count / std::max(1, nodes));
    const int idx = b == BenchBind::Inverse ? count - 1 - i : i;
    return std::clamp(idx / per_node, 0, std::max(1, nodes) - 1);
}

void add_hackbench_groups(Simulation &sim, const HackbenchShape &shape, const std::string &name_prefix)
{
    ProcId parent = -1;
    for (std::int64_t g = 0; g < shape.groups; ++g) {
        // hackbench's default mode forks processes; one simulated process per
        // group (or one for all, one_parent) is enough since nothing here
        // depends on address spaces.
        if (!shape.one_parent || parent < 0)
            parent = sim.add_process(shape.one_parent ? name_prefix : name_prefix + std::to_string(g),
                                     sim.model().chunk_bytes);
        const ProcId proc = parent;
        const bool bounded = shape.buffer_messages > 0;
        int channels[kHackbenchReceiversPerGroup];
        int space[kHackbenchReceiversPerGroup]; // free slots of each receiver's socket
        for (int r = 0; r < kHackbenchReceiversPerGroup; ++r) {
            channels[r] = sim.add_channel();
            sim.set_channel_message(channels[r], ChannelMessage{kHackbenchDataBytes, kUnixSendSharedLines,
                                                                kUnixRecvSharedLines, kUnixRecvSenderLines});
            space[r] = bounded ? sim.add_channel(shape.buffer_messages) : -1;
        }
        for (int r = 0; r < kHackbenchReceiversPerGroup; ++r) {
            Simulation::TaskSpec s;
            s.name = name_prefix + std::to_string(g) + "/recv" + std::to_string(r);
            s.program.ops = {Op{Op::Kind::Wait, 0, 0, channels[r]}, Op{Op::Kind::Compute, shape.receive_ns, 0, -1}};
            if (bounded) // the read frees the message's slot, waking a blocked writer
                s.program.ops.push_back(Op{Op::Kind::Post, 1, 0, space[r]});
            s.program.iterations = kHackbenchSendersPerGroup * shape.loops;
            s.start_ns = shape.start_ns;
            s.untimed = shape.untimed;
            s.working_set_bytes = static_cast<double>(shape.working_set_bytes);
            s.dependent_fraction = kPointerChasingDependentFraction; // socket buffers, wait queues
            sim.add_task(proc, std::move(s));
        }
        for (int snd = 0; snd < kHackbenchSendersPerGroup; ++snd) {
            Simulation::TaskSpec s;
            s.name = name_prefix + std::to_string(g) + "/send" + std::to_string(snd);
            for (int r = 0; r < kHackbenchReceiversPerGroup; ++r) {
                if (bounded) // write() sleeps in sock_alloc_send_skb while the socket is full
                    s.program.ops.push_back(Op{Op::Kind::Wait, 0, 0, space[r]});
                s.program.ops.push_back(Op{Op::Kind::Compute, shape.send_ns, 0, -1});
                s.program.ops.push_back(Op{Op::Kind::Post, 1, 0, channels[r]});
            }
            s.program.iterations = shape.loops;
            s.start_ns = shape.start_ns;
            s.untimed = shape.untimed;
            s.working_set_bytes = static_cast<double>(shape.working_set_bytes);
            s.dependent_fraction = kPointerChasingDependentFraction; // socket buffers, wait queues
            sim.add_task(proc, std::move(s));
        }
    }
}

} // namespace schedscope
