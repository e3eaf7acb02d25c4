#pragma once
// Nice levels as load weights, for fair-share scheduling. Each nice step is
// about 10 % of CPU time against a nice-0 task (a factor of about 1.25 in
// weight). Values: Linux 3.6 kernel/sched/sched.h prio_to_weight[], nice -20
// first; NICE_0_LOAD is include/linux/sched.h's SCHED_LOAD_SCALE (1024).

#include <array>
#include <cstdint>

namespace schedscope {

inline constexpr int kNiceMin = -20;
inline constexpr int kNiceMax = 19;
inline constexpr std::int64_t kNice0Load = 1024; // weight of a nice-0 task (NICE_0_LOAD)

inline constexpr std::array<std::int64_t, 40> kPrioToWeight{
    88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916, // -20 .. -11
    9548,  7620,  6100,  4904,  3906,  3121,  2501,  1991,  1586,  1277,  // -10 .. -1
    1024,  820,   655,   526,   423,   335,   272,   215,   172,   137,   //   0 .. 9
    110,   87,    70,    56,    45,    36,    29,    23,    18,    15,    //  10 .. 19
};

inline std::int64_t nice_weight(int nice) { return kPrioToWeight[static_cast<std::size_t>(nice - kNiceMin)]; }

// Linux 3.6 kernel/sched/fair.c: calc_delta_fair(): wall time `delta_ns`
// as virtual time for a task of weight `weight` (delta * NICE_0_LOAD / w).
inline std::int64_t calc_delta_fair(std::int64_t delta_ns, std::int64_t weight)
{
    return weight == kNice0Load ? delta_ns : delta_ns * kNice0Load / weight;
}

} // namespace schedscope
