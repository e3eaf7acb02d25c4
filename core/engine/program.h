#pragma once
// What a simulated task does, as data: a short list of operations run in a
// loop. Workloads build programs; the engine interprets them. Being plain
// data, programs copy into checkpoints and compare in tests.

#include <cstdint>
#include <vector>

namespace schedscope {

struct Op {
    enum class Kind {
        Compute, // a CPU burst of `a` ns of work at full speed (b > a: uniform in [a, b])
        Sleep,   // block for `a` ns (b > a: exponential with mean (a + b) / 2), e.g. an I/O;
                 // channel >= 0: the wakeup comes from PU `channel` (an I/O completion
                 // interrupt handled there), else from the task's own PU
        Wait,    // take a token from channel `channel`, blocking while it has none
        Post, // add `a` tokens to channel `channel`, waking as many waiters (b = 1: at most those waiting now, no token
              // kept)
        CountOp, // one unit of the workload's throughput (a transaction, a burn, a message)
    };
    Kind kind = Kind::Compute;
    std::int64_t a = 0;
    std::int64_t b = 0;
    int channel = -1;
};

struct Program {
    std::vector<Op> ops;
    // How many times the ops run; 0 = forever (throughput workloads).
    std::int64_t iterations = 1;
};

} // namespace schedscope
