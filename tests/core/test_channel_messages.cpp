// Messages through a socket as cache lines moved between the two ends'
// caches (core/engine/channel_messages.cpp): free on one CPU, dearer across
// packages, dearer again across nodes; the same channel without a message
// costs neither end anything more.

#include "engine/invariants.h"
#include "hand_built.h"
#include "workloads/workload_support.h"

#include <catch2/catch.hpp>

using namespace schedscope;
using namespace schedscope::hand_built;

namespace {

constexpr int kMessages = 200;

struct Run {
    double sender_sys_ns = 0, receiver_sys_ns = 0;
    SimTime end_ns = 0;
    double line_ns = 0; // one line's transfer between the two CPUs
};

// One sender pinned on `send_cpu` posting kMessages to one receiver pinned
// on `recv_cpu`, each after 20 us of work.
Run ping(int send_cpu, int recv_cpu, bool message)
{
    Simulation sim = make_sim("group:2 [numa] pack:2 core:1 pu:1", "simple"); // CPUs 0-1 node 0, 2-3 node 1
    const ProcId p = sim.add_process("p", 4 << 20);
    const int ch = sim.add_channel();
    if (message)
        sim.set_channel_message(
            ch, ChannelMessage{kHackbenchDataBytes, kUnixSendSharedLines, kUnixRecvSharedLines, kUnixRecvSenderLines});
    Simulation::TaskSpec send;
    send.program.ops = {Op{Op::Kind::Compute, 20'000, 0, -1}, Op{Op::Kind::Post, 1, 0, ch}};
    send.program.iterations = kMessages;
    send.cpus_allowed = cpus({send_cpu});
    Simulation::TaskSpec recv;
    recv.program.ops = {Op{Op::Kind::Wait, 0, 0, ch}, Op{Op::Kind::Compute, 2'000, 0, -1}};
    recv.program.iterations = kMessages;
    recv.cpus_allowed = cpus({recv_cpu});
    const TaskId sender = sim.add_task(p, std::move(send));
    const TaskId receiver = sim.add_task(p, std::move(recv));
    sim.run_to_end();
    CHECK(check_invariants(sim).empty());
    Run r;
    r.sender_sys_ns = static_cast<double>(sim.task(sender).stats.sys_ns);
    r.receiver_sys_ns = static_cast<double>(sim.task(receiver).stats.sys_ns);
    r.end_ns = sim.end_time();
    r.line_ns = EngineTestAccess::lock_transfer_ns(sim, send_cpu, recv_cpu);
    return r;
}

} // namespace

TEST_CASE("a socket message costs its lines' transfers between the two ends' caches, none on one CPU",
          "[engine][messages]")
{
    // The receiver blocks before each message arrives (the sender works 20 us
    // per message, the receiver 2): every message wakes it and is handed over
    // with the wakeup.
    const Run same_with = ping(0, 0, true), same_without = ping(0, 0, false);
    CHECK(same_with.sender_sys_ns == same_without.sender_sys_ns);
    CHECK(same_with.receiver_sys_ns == same_without.receiver_sys_ns);
    CHECK(same_with.end_ns == same_without.end_ns);

    // Per message the sender takes the socket's lines back from the
    // receiver's cache; the receiver takes the queue head, the sk_buff, the
    // sender's counter and the data's first line from the sender's (100
    // bytes: two 64-byte lines, the second overlapping the first). The
    // receiver's CPU also waits, as lock wait, for the sender's lines that
    // come before the wakeup.
    const double send_lines = kUnixSendSharedLines;
    const double recv_lines = kUnixRecvSharedLines + kUnixRecvSenderLines + 1 +
                              1.0 / ModelParams{}.mem_misses_in_flight;
    double extra_recv[2] = {0, 0};
    int i = 0;
    for (int recv_cpu : {1, 2}) { // another package on the node, then the other node
        INFO("receiver on CPU " << recv_cpu);
        const Run with = ping(0, recv_cpu, true), without = ping(0, recv_cpu, false);
        CHECK(with.sender_sys_ns - without.sender_sys_ns ==
              Approx(kMessages * send_lines * with.line_ns).epsilon(0.01));
        extra_recv[i] = with.receiver_sys_ns - without.receiver_sys_ns;
        CHECK(extra_recv[i] >= 0.99 * kMessages * recv_lines * with.line_ns);
        CHECK(extra_recv[i] <= 1.01 * kMessages * (recv_lines + send_lines) * with.line_ns);
        CHECK(with.end_ns > without.end_ns);
        ++i;
    }
    CHECK(extra_recv[1] > extra_recv[0]);
}
