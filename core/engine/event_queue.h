#pragma once
// Events ordered by (time, sequence number): two events at the same time run
// in the order they were scheduled, so runs are reproducible. Events are
// plain data (no closures), so the queue copies into checkpoints.

#include <algorithm>
#include <cstdint>
#include <vector>

namespace schedscope {

enum class EventType : std::uint8_t {
    Tick,       // global scheduler tick
    Sample,     // metrics sample
    Arrive,     // a: task; fork/exec of a new task
    BurstEnd,   // a: cpu, b: burst sequence; the current task's compute op ends
    TimerWake,  // a: task, b: wake sequence; a Sleep op ends
    WakeIpi,    // a: cpu; the IPI for queued remote wakeups arrives
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
        heap_.push_back(Event{time_ns, next_seq_++, type, a, b});
        std::push_heap(heap_.begin(), heap_.end(), later);
    }
    bool empty() const { return heap_.empty(); }
    std::size_t size() const { return heap_.size(); }
    const Event &top() const { return heap_.front(); }
    Event pop()
    {
        std::pop_heap(heap_.begin(), heap_.end(), later);
        Event e = heap_.back();
        heap_.pop_back();
        return e;
    }

private:
    // std heaps keep the "largest" on top; we want the earliest.
    static bool later(const Event &x, const Event &y)
    {
        if (x.time_ns != y.time_ns)
            return x.time_ns > y.time_ns;
        return x.seq > y.seq;
    }
    std::vector<Event> heap_;
    std::uint64_t next_seq_ = 0;
};

} // namespace schedscope
