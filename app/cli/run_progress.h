#pragma once
// Progress of long CLI work on stderr, Ctrl-C as a polite stop, and the
// duration syntax shared by the commands that run simulations.

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <vector>

namespace schedscope::cli {

// "10s", "500ms", "2m", "1h" or a plain number of seconds, read exactly
// (parse_duration_ns), above 0 and at most a day. Throws InputError naming
// `source`.
double parse_duration_s(const std::string &text, const std::string &source);

// True once SIGINT arrived while a SigintStop was alive.
bool interrupted();

// Installs a SIGINT handler that only sets the flag, restoring the previous
// one on destruction, so a second Ctrl-C after the work ends kills as usual.
class SigintStop {
public:
    SigintStop();
    ~SigintStop();
    SigintStop(const SigintStop &) = delete;
    SigintStop &operator=(const SigintStop &) = delete;
};

// Fractions of N jobs; prints an aggregate line on stderr at most every
// 200 ms, and only once the work has taken more than a second.
class ProgressBoard {
public:
    explicit ProgressBoard(size_t jobs);
    void update(size_t job, double fraction);
    void finish();

private:
    std::mutex mu_;
    std::vector<double> done_;
    std::chrono::steady_clock::time_point start_, last_print_;
    bool printed_ = false;
};

} // namespace schedscope::cli
