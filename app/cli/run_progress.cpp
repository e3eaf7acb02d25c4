#include "run_progress.h"

#include "util/duration_text.h"
#include "util/input_error.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <unistd.h>

namespace schedscope::cli {

namespace {
std::atomic<bool> g_interrupted{false};
struct sigaction g_previous;

void on_sigint(int) { g_interrupted.store(true); }

constexpr auto kQuietPeriod = std::chrono::seconds(1);
constexpr auto kPrintInterval = std::chrono::milliseconds(200);
} // namespace

double parse_duration_s(const std::string &text, const std::string &source)
{
    const std::int64_t ns = parse_duration_ns(text, source);
    constexpr std::int64_t kMaxDurationNs = 86'400'000'000'000; // a day
    if (ns <= 0 || ns > kMaxDurationNs)
        throw InputError(source, "duration '" + text + "' must be above 0 and at most a day");
    // The double nearest the exact figure: build_simulation's seconds_as_ns
    // gets the same nanoseconds back.
    return static_cast<double>(ns) / 1e9;
}

bool interrupted() { return g_interrupted.load(); }

SigintStop::SigintStop()
{
    g_interrupted.store(false);
    struct sigaction sa {};
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &g_previous);
}

SigintStop::~SigintStop() { sigaction(SIGINT, &g_previous, nullptr); }

ProgressBoard::ProgressBoard(size_t jobs)
    : done_(jobs, 0.0), start_(std::chrono::steady_clock::now()), last_print_(start_)
{
}

void ProgressBoard::update(size_t job, double fraction)
{
    std::lock_guard lock(mu_);
    done_.at(job) = std::clamp(fraction, 0.0, 1.0);
    const auto now = std::chrono::steady_clock::now();
    if (now - start_ < kQuietPeriod || now - last_print_ < kPrintInterval)
        return;
    last_print_ = now;
    double sum = 0;
    size_t complete = 0;
    for (double d : done_) {
        sum += d;
        complete += d >= 1.0;
    }
    std::fprintf(stderr, "\r  %5.1f%%  (%zu of %zu runs done)   ", 100.0 * sum / static_cast<double>(done_.size()),
                 complete, done_.size());
    std::fflush(stderr);
    printed_ = true;
}

void ProgressBoard::finish()
{
    std::lock_guard lock(mu_);
    if (printed_)
        std::fprintf(stderr, "\r%60s\r", "");
}

} // namespace schedscope::cli
