// Messages through a kernel object (a socket, a pipe) as cache lines moved.
// A message written on one CPU and read on another is read out of the
// writer's cache: the taker waits for the lines the poster wrote (the
// buffer's header, the data), and each end waits for the object's own lines
// (its locks, its queue head) from whichever CPU wrote them last, the other
// end or another poster. Run on one CPU, or on CPUs sharing a cache, the
// same message costs no transfer. Each line is priced as the runqueue lock's
// line between the same two CPUs (lock_transfer_ns); lines on a dependent
// chain wait one after the other, the data's further lines stream
// (ModelParams::mem_misses_in_flight at a time).

#include "engine/simulation.h"

#include <cmath>

namespace schedscope {

void Simulation::set_channel_message(int channel, const ChannelMessage &message)
{
    channels_.at(static_cast<size_t>(channel)).message = message;
}

double Simulation::message_line_chain_ns(int lines, int owner_cpu, int by_cpu) const
{
    if (lines <= 0 || owner_cpu < 0 || by_cpu < 0 || owner_cpu == by_cpu)
        return 0.0;
    return static_cast<double>(lines) * lock_transfer_ns(owner_cpu, by_cpu);
}

void Simulation::message_posted(int channel, int poster_cpu, std::int64_t tokens)
{
    Channel &ch = channels_.at(static_cast<size_t>(channel));
    if (!ch.message.any() || tokens <= 0)
        return;
    // Every message takes the object's lines: from the last writer for the
    // first, then from this CPU's own cache.
    charge_sys(poster_cpu, message_line_chain_ns(ch.message.poster_shared_lines, ch.last_cpu, poster_cpu));
    if (poster_cpu >= 0)
        ch.last_cpu = poster_cpu;
    for (std::int64_t i = 0; i < tokens; ++i)
        ch.token_cpus.push_back(poster_cpu);
}

void Simulation::message_taken(int channel, int from_cpu, int taker_cpu)
{
    Channel &ch = channels_.at(static_cast<size_t>(channel));
    const ChannelMessage &m = ch.message;
    if (!m.any())
        return;
    double ns = message_line_chain_ns(m.taker_shared_lines, ch.last_cpu, taker_cpu);
    if (from_cpu >= 0 && from_cpu != taker_cpu) {
        const double line_bytes = std::max(1.0, model().cache_line_bytes);
        const double data_lines = std::ceil(static_cast<double>(m.bytes) / line_bytes);
        // The first data line waits on the header that points to it; the
        // rest are independent of each other and overlap.
        const double streamed = data_lines > 1 ? (data_lines - 1) / std::max(1.0, model().mem_misses_in_flight) : 0.0;
        const double chain = static_cast<double>(m.taker_poster_lines) + std::min(1.0, data_lines) + streamed;
        ns += chain * lock_transfer_ns(from_cpu, taker_cpu);
    }
    charge_sys(taker_cpu, ns);
    if (taker_cpu >= 0 && m.taker_shared_lines > 0)
        ch.last_cpu = taker_cpu;
}

} // namespace schedscope
