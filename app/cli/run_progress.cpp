#include "run_progress.h"

#include "util/input_error.h"

#include <algorithm>
#include <charconv>
#include <cmath>
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
    double value = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || ptr == text.data())
        throw InputError(source, "'" + text + "' is not a duration (e.g. 10s, 500ms, 2m)");
    const std::string unit(ptr, text.data() + text.size());
    double scale = 0;
    if (unit.empty() || unit == "s")
        scale = 1;
    else if (unit == "ms")
        scale = 1e-3;
    else if (unit == "us")
        scale = 1e-6;
    else if (unit == "m" || unit == "min")
        scale = 60;
    else if (unit == "h")
        scale = 3600;
    else
        throw InputError(source, "unknown unit '" + unit + "' in '" + text + "' (use ms, s, m or h)");
    const double s = value * scale;
    constexpr double kMaxDurationS = 86'400;
    if (!std::isfinite(s) || s <= 0 || s > kMaxDurationS)
        throw InputError(source, "duration '" + text + "' must be above 0 and at most a day");
    return s;
}

bool interrupted() { return g_interrupted.load(); }

SigintStop::SigintStop()
{
    g_interrupted.store(false);
    struct sigaction sa{};
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
