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

struct HackbenchParams {
    std::int64_t groups = kHackbenchGroups;
    std::int64_t loops = kHackbenchLoops;
    double send_us = static_cast<double>(kHackbenchSendNs) / kNsPerUs;
    double receive_us = static_cast<double>(kHackbenchRecvNs) / kNsPerUs;
    std::int64_t socket_buffer_bytes = kHackbenchSocketBufferBytes;
};

const ParamTable<HackbenchParams> &hackbench_table()
{
    static const ParamTable<HackbenchParams> t = [] {
        ParamTable<HackbenchParams> t;
        t.integer("groups", &HackbenchParams::groups, 1, 100'000, "", "groups of 20 senders + 20 receivers");
        t.integer("loops", &HackbenchParams::loops, 1, 1'000'000, "messages",
                  "messages each sender sends to each receiver of its group");
        t.real("send_us", &HackbenchParams::send_us, 0.001, 1e6, "us", "work to send one message, us");
        t.real("receive_us", &HackbenchParams::receive_us, 0.001, 1e6, "us", "work to receive one message, us");
        t.integer("socket_buffer_bytes", &HackbenchParams::socket_buffer_bytes, 0, std::int64_t(1) << 40, "bytes",
                  "a receiver's socket buffer; senders block when it is full (0 = never block)");
        return t;
    }();
    return t;
}

void build_hackbench(Simulation &sim, const HackbenchParams &p, const std::string &)
{
    HackbenchShape shape;
    shape.groups = p.groups;
    shape.loops = p.loops;
    shape.send_ns = static_cast<std::int64_t>(p.send_us * kNsPerUs);
    shape.receive_ns = static_cast<std::int64_t>(p.receive_us * kNsPerUs);
    shape.working_set_bytes = kHackbenchWorkingSetKiB * 1024;
    shape.buffer_messages = hackbench_buffer_messages(p.socket_buffer_bytes);
    shape.one_parent = true; // hackbench.c: main() forks every group's tasks itself
    add_hackbench_groups(sim, shape, "hackbench");
}

} // namespace

WorkloadInfo hackbench_workload_info()
{
    return workload_info<HackbenchParams>(
        "hackbench",
        "hackbench: N groups of 20 senders and 20 receivers; every sender sends `loops` messages to each receiver "
        "of its group, each a possible wakeup. Elapsed time.",
        hackbench_table(), build_hackbench);
}

} // namespace schedscope
