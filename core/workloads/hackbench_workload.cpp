// `hackbench`: N groups of 20 senders and 20 receivers passing small
// messages (Rusty Russell's scheduler stress test, 2001). Every message can
// wake its receiver, so the run is dominated by wakeups, runqueue locks and
// where woken tasks are put. Fixed work: elapsed time, reported for
// N = 10, 25, 50, 100.
//
// A receiver's socket holds socket_buffer_bytes (the era's 64 KiB default)
// of messages; a sender writing to a full one sleeps until the receiver
// reads. Not modelled: the process-per-task address spaces.

#include "engine/simulation.h"
#include "workloads/factories.h"
#include "workloads/workload_support.h"

namespace schedscope {

namespace {

constexpr std::int64_t kHackbenchGroups = 10;        // hackbench's default group count
constexpr std::int64_t kHackbenchLoops = 100;        // hackbench's default messages per sender per receiver
constexpr std::int64_t kHackbenchSendNs = 2'000;     // a 100-byte write() on a socket pair, ~2 us
constexpr std::int64_t kHackbenchRecvNs = 2'000;     // the matching read(), ~2 us
constexpr std::int64_t kHackbenchWorkingSetKiB = 64; // stack, socket buffers, task struct

const std::vector<ParamInfo> &hackbench_params()
{
    static const std::vector<ParamInfo> params = {
        {"groups", std::to_string(kHackbenchGroups), "groups of 20 senders + 20 receivers"},
        {"loops", std::to_string(kHackbenchLoops), "messages each sender sends to each receiver of its group"},
        {"send_us", "2", "work to send one message, us"},
        {"receive_us", "2", "work to receive one message, us"},
        {"socket_buffer_bytes", std::to_string(kHackbenchSocketBufferBytes),
         "a receiver's socket buffer; senders block when it is full (0 = never block)"},
    };
    return params;
}

void build_hackbench(Simulation &sim, const ParamMap &p, const std::string &source)
{
    HackbenchShape shape;
    shape.groups = param_int(p, "groups", kHackbenchGroups, 1, 100'000, source);
    shape.loops = param_int(p, "loops", kHackbenchLoops, 1, 1'000'000, source);
    shape.send_ns = static_cast<std::int64_t>(param_double(p, "send_us", kHackbenchSendNs / 1e3, 0.001, 1e6, source) *
                                              1e3);
    shape.receive_ns = static_cast<std::int64_t>(
        param_double(p, "receive_us", kHackbenchRecvNs / 1e3, 0.001, 1e6, source) * 1e3);
    shape.working_set_bytes = kHackbenchWorkingSetKiB * 1024;
    shape.buffer_messages = hackbench_buffer_messages(
        param_int(p, "socket_buffer_bytes", kHackbenchSocketBufferBytes, 0, std::int64_t(1) << 40, source));
    add_hackbench_groups(sim, shape, "hackbench");
}

} // namespace

WorkloadInfo hackbench_workload_info()
{
    WorkloadInfo w;
    w.name = "hackbench";
    w.description = "hackbench: N groups of 20 senders and 20 receivers; every sender sends `loops` messages to "
                    "each receiver of its group, each a possible wakeup. Elapsed time.";
    w.params = hackbench_params();
    w.build = build_hackbench;
    return w;
}

} // namespace schedscope
