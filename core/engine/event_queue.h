#pragma once
// Events ordered by (time, sequence number): two events at the same time run
// in the order they were scheduled, so runs are reproducible. Events are
// plain data (no closures), so the queue copies into checkpoints.

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace schedscope {

enum class EventType : std::uint8_t {
    Tick,      // global scheduler tick
    Sample,    // metrics sample
    Arrive,    // a: task; fork/exec of a new task
    BurstEnd,  // a: cpu, b: burst sequence; the current task's compute op ends
    TimerWake, // a: task, b: wake sequence; a Sleep op ends
    WakeIpi,   // a: cpu; the IPI for queued remote wakeups arrives
    PostWake,  // a: pending post slot; the waker wakes the next waiter of its post
};

struct Event {
    std::int64_t time_ns = 0;
    std::uint64_t seq = 0;
    EventType type = EventType::Tick;
    std::int32_t a = 0;
    std::uint64_t b = 0;
};

// A radix heap (Ahuja, Mehlhorn, Orlin and Tarjan, "Faster algorithms for
// the shortest path problem", J. ACM 1990). The engine never schedules an
// event before the last one it ran, so every time in the queue is at least
// last_, the time of the last event popped. An event whose time equals
// last_ sits in bucket 0; any other in bucket k, where bit k - 1 is the
// highest bit in which its time differs from last_. A push appends to a
// bucket. A pop takes bucket 0's front; when bucket 0 is empty, the lowest
// other bucket's earliest time becomes last_ and that bucket's events move
// down to the buckets the new last_ puts them in.
//
// Why not a binary heap (what this was until BENCHMARKS.md's sixteenth
// round): in a wakeup storm nearly every event is a burst end some
// microseconds ahead, and a heap's pop compared its way down eight levels
// with a branch the host's predictor often missed. Here an event moves
// down a bucket about seven times in its life, each move a plain append:
// a few more instructions, fewer mispredictions (the storm alone runs
// about 4 % faster; the round has the figures).
//
// The order is exactly a heap's on (time, sequence): events with equal
// times always share a bucket (the bucket depends on the time and last_
// only), are appended in the order they were pushed, and every move takes
// a whole bucket in order, so equal times come out in push order.
class EventQueue {
public:
    void push(std::int64_t time_ns, EventType type, std::int32_t a = 0, std::uint64_t b = 0)
    {
        const auto key = static_cast<std::uint64_t>(time_ns);
        if (time_ns < 0 || key < last_)
            throw std::logic_error("event scheduled before the last event run");
        const int k = bucket_of(key);
        buckets_[static_cast<std::size_t>(k)].push_back(Event{time_ns, next_seq_++, type, a, b});
        if (k > 0)
            occupied_ |= std::uint64_t{1} << (k - 1);
        ++size_;
        min_bucket_ = -1;
    }
    bool empty() const { return size_ == 0; }
    std::size_t size() const { return size_; }
    // The earliest event, the first pushed of equal times. Not const: it
    // remembers where it found it for the pop that usually follows.
    const Event &top()
    {
        if (front_ < buckets_[0].size())
            return buckets_[0][front_];
        find_min();
        return buckets_[static_cast<std::size_t>(min_bucket_)][min_index_];
    }
    Event pop()
    {
        if (front_ >= buckets_[0].size())
            spread_lowest();
        std::vector<Event> &zero = buckets_[0];
        const Event out = zero[front_++];
        if (front_ == zero.size()) {
            zero.clear();
            front_ = 0;
        }
        --size_;
        min_bucket_ = -1;
        return out;
    }

private:
    static constexpr std::size_t kBuckets = 65; // bucket 0, and one per bit of a 64-bit time

    int bucket_of(std::uint64_t key) const { return key == last_ ? 0 : 64 - std::countl_zero(key ^ last_); }
    // With bucket 0 empty and the queue not: the lowest non-empty bucket and
    // the index of its earliest event (the first of equal times).
    void find_min()
    {
        if (min_bucket_ >= 0)
            return;
        if (occupied_ == 0)
            throw std::logic_error("the event queue is empty");
        const int k = std::countr_zero(occupied_) + 1;
        const std::vector<Event> &v = buckets_[static_cast<std::size_t>(k)];
        std::size_t best = 0;
        for (std::size_t i = 1; i < v.size(); ++i)
            if (v[i].time_ns < v[best].time_ns)
                best = i;
        min_bucket_ = k;
        min_index_ = best;
    }
    // Bucket 0 is empty: the lowest other bucket's earliest time becomes
    // last_, and that bucket's events move, in order, to the lower buckets
    // (all of them: they agree with the new last_ above bit k - 1).
    void spread_lowest()
    {
        find_min();
        const auto k = static_cast<std::size_t>(min_bucket_);
        last_ = static_cast<std::uint64_t>(buckets_[k][min_index_].time_ns);
        std::vector<Event> moving;
        moving.swap(buckets_[k]);
        occupied_ &= ~(std::uint64_t{1} << (k - 1));
        for (const Event &e : moving) {
            const int to = bucket_of(static_cast<std::uint64_t>(e.time_ns));
            buckets_[static_cast<std::size_t>(to)].push_back(e);
            if (to > 0)
                occupied_ |= std::uint64_t{1} << (to - 1);
        }
        // Bucket k is empty now; it gets its storage back for next time.
        moving.clear();
        buckets_[k].swap(moving);
        min_bucket_ = -1;
    }

    std::array<std::vector<Event>, kBuckets> buckets_;
    std::size_t front_ = 0;      // bucket 0 is taken from here
    std::uint64_t occupied_ = 0; // bit k - 1 set: bucket k (1..64) holds events
    std::uint64_t last_ = 0;     // time of the last event popped
    std::size_t size_ = 0;
    std::uint64_t next_seq_ = 0;
    int min_bucket_ = -1; // find_min()'s answer until the queue changes
    std::size_t min_index_ = 0;
};

} // namespace schedscope
