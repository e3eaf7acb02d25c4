#pragma once
// Events ordered by (time, sequence number): two events at the same time run
// in the order they were scheduled, so runs are reproducible. Events are
// plain data (no closures), so the queue copies into checkpoints.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace schedscope {

enum class EventType : std::uint8_t {
    Tick,      // global scheduler tick
    Sample,    // metrics sample
    Arrive,    // a: task; fork/exec of a new task
    BurstEnd,  // a: cpu, b: burst sequence; the current task's compute op ends
    TimerWake, // a: task, b: wake sequence; a Sleep op ends
    WakeIpi,   // a: cpu; the IPI for queued remote wakeups arrives
};

struct Event {
    std::int64_t time_ns = 0;
    std::uint64_t seq = 0;
    EventType type = EventType::Tick;
    std::int32_t a = 0;
    std::uint64_t b = 0;
};

class EventQueue {
public:
    void push(std::int64_t time_ns, EventType type, std::int32_t a = 0, std::uint64_t b = 0)
    {
        // A binary min-heap on (time, seq), sifted through a hole: (time,
        // seq) is a total order, so the pop order is the same as with any
        // other correct heap; this one just moves each element once.
        const Event e{time_ns, next_seq_++, type, a, b};
        heap_.push_back(e);
        rise(heap_.data(), heap_.size() - 1, e);
    }
    bool empty() const { return heap_.empty(); }
    std::size_t size() const { return heap_.size(); }
    const Event &top() const { return heap_.front(); }
    Event pop()
    {
        // Bottom-up: the hole left by the front sinks to a leaf along the
        // earlier child of each pair (one comparison per level), then the
        // last element rises from there, which it seldom does: it came from
        // the bottom. The pop order is that of any correct heap, (time, seq)
        // being a total order; this one compares about half as often.
        const Event out = heap_.front();
        const Event last = heap_.back();
        heap_.pop_back();
        const std::size_t n = heap_.size();
        if (n > 0) {
            Event *h = heap_.data();
            std::size_t hole = 0;
            for (std::size_t child = 1; child < n; child = 2 * hole + 1) {
                if (child + 1 < n && earlier(h[child + 1], h[child]))
                    ++child;
                h[hole] = h[child];
                hole = child;
            }
            rise(h, hole, last);
        }
        return out;
    }

private:
    // Puts e into the hole at h[hole], moving the later parents down.
    static void rise(Event *h, std::size_t hole, const Event &e)
    {
        while (hole > 0) {
            const std::size_t parent = (hole - 1) / 2;
            if (!earlier(e, h[parent]))
                break;
            h[hole] = h[parent];
            hole = parent;
        }
        h[hole] = e;
    }
    static bool earlier(const Event &x, const Event &y)
    {
        if (x.time_ns != y.time_ns)
            return x.time_ns < y.time_ns;
        return x.seq < y.seq;
    }
    std::vector<Event> heap_;
    std::uint64_t next_seq_ = 0;
};

} // namespace schedscope
