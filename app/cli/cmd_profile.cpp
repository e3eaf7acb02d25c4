// `schedscope-cli profile`: the migration-cost profiler (core/profiler) from
// the command line. Measures the running machine or models an imported
// topology, prints the matrix as the 2.6 kernels' boot log did and writes
// the profile as JSON for the sched-domains policy.

#include "command.h"

#include "profiler/migration_profiler.h"
#include "profiler/profile_store.h"
#include "topology/import.h"
#include "util/input_error.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>

#include <unistd.h>

namespace schedscope::cli {

namespace {

// The shell's convention for "stopped by SIGINT" (128 + 2).
constexpr int kExitInterrupted = 130;
// Progress lines when stderr is not a terminal: one per this many percent.
constexpr int kProgressStepPercent = 10;

std::atomic<bool> g_cancel{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the SIGINT handler needs a lock-free flag");

extern "C" void on_sigint(int) { g_cancel.store(true); }

// Installs the Ctrl-C handler for a run and the writing of its outputs. Further Ctrl-Cs
// are absorbed too (no SA_RESETHAND): the run checks the flag before every
// sample, so it stops within one sample anyway, and a signal sent twice (by
// `timeout`, to the child and to its group) must not kill it half-way.
class SigintGuard {
public:
    SigintGuard()
    {
        struct sigaction sa {};
        sa.sa_handler = on_sigint;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = 0;
        sigaction(SIGINT, &sa, &previous_);
    }
    ~SigintGuard() { sigaction(SIGINT, &previous_, nullptr); }

private:
    struct sigaction previous_ {};
};

// Fail before a long measurement, not after it, when an output cannot be
// written; the file itself is only ever replaced atomically at the end.
void check_writable(const std::string &path, const char *option)
{
    if (path.empty())
        return;
    std::filesystem::path dir = std::filesystem::path(path).parent_path();
    if (dir.empty())
        dir = ".";
    if (!std::filesystem::is_directory(dir))
        throw InputError(option, "directory '" + dir.string() + "' does not exist");
    if (::access(dir.c_str(), W_OK) != 0)
        throw InputError(option, "directory '" + dir.string() + "' is not writable");
    if (std::filesystem::is_directory(path))
        throw InputError(option, "'" + path + "' is a directory");
}

class ProgressPrinter {
public:
    explicit ProgressPrinter(bool tty) : tty_(tty) {}
    void operator()(int done, int total)
    {
        if (total <= 0)
            return;
        const int percent = done * 100 / total;
        if (tty_) {
            if (percent != last_percent_ || done == total)
                std::fprintf(stderr, "\rprofile: %d/%d pairs (%d%%)%s", done, total, percent,
                             done == total ? "\n" : "");
        } else if (done == total || percent / kProgressStepPercent != last_percent_ / kProgressStepPercent) {
            std::fprintf(stderr, "profile: %d/%d pairs\n", done, total);
        }
        last_percent_ = percent;
    }

private:
    bool tty_;
    int last_percent_ = -1;
};

struct ProfileArgs {
    std::string topology = "detect";
    std::string mode;
    std::string pairs = "all";
    std::string level = "LLC";
    double factor = 5.0 / 3.0;
    int reps = 20;
    std::string json_path;
    std::string save_path;
};

int run_profile(const ProfileArgs &args)
{
    ProfilerOptions options;
    // Only the running machine can be measured; anything imported is modelled.
    options.mode = parse_profile_mode(args.mode.empty() ? (args.topology == "detect" ? "measure" : "model") : args.mode,
                                      "--mode");
    if (options.mode == ProfileMode::Measure && args.topology != "detect")
        throw InputError("--mode", "measure mode needs --topology detect (the running machine); '" + args.topology +
                                       "' can only be modelled (--mode model)");
    options.pairs = parse_pair_selection(args.pairs, "--pairs");
    options.level = args.level;
    options.factor = args.factor;
    options.reps = args.reps;
    check_writable(args.json_path, "--json");
    check_writable(args.save_path, "--save");

    Topology topology = load_topology(args.topology);
    MigrationProfiler profiler(topology, options);

    g_cancel.store(false);
    // Held until the outputs are written, not only for the measurement.
    SigintGuard guard;
    MigrationProfile profile;
    {
        ProgressPrinter printer(::isatty(STDERR_FILENO) != 0);
        const bool show_progress = options.mode == ProfileMode::Measure;
        profile = profiler.run(&g_cancel, [&](int done, int total) {
            if (show_progress)
                printer(done, total);
        });
    }
    if (!profile.complete)
        std::fprintf(stderr, "\nprofile: interrupted, showing what was measured so far\n");
    std::cout << format_boot_log(profile) << std::flush;

    if (!args.json_path.empty())
        save_profile(profile, args.json_path);
    if (!args.save_path.empty()) {
        // A partial profile would hand the policy made-up gaps.
        if (profile.complete)
            save_profile(profile, args.save_path);
        else
            std::fprintf(stderr, "profile: not saving an interrupted profile to %s\n", args.save_path.c_str());
    }
    return profile.complete ? kExitOk : kExitInterrupted;
}

const CommandRegistrar registrar{Command{
    "profile", [](CLI::App &app) -> std::function<int()> {
        auto args = std::make_shared<ProfileArgs>();
        auto *sub = app.add_subcommand("profile", "Profile task-migration costs between CPUs (measure or model)");
        sub->add_option("--topology", args->topology,
                        "detect | synthetic:STRING | sample:NAME | FILE (default: detect)");
        sub->add_option("--mode", args->mode,
                        "measure (running machine) | model (default: measure for detect, "
                        "model otherwise)");
        sub->add_option("--pairs", args->pairs, "all | classes: one representative pair per distance class");
        sub->add_option("--level", args->level, "cache sizing the buffer: L2 | L3 | LLC (default LLC)");
        sub->add_option("--factor", args->factor, "buffer size as a multiple of the cache size (default 5/3)");
        sub->add_option("--reps", args->reps, "samples per pair in measure mode; the cost is their maximum (20)");
        sub->add_option("--json", args->json_path, "write the profile as JSON to FILE");
        sub->add_option("--save", args->save_path,
                        "save the profile to FILE for sched-domains autotune=profile (same format as --json)");
        return [args] { return run_profile(*args); };
    }}};

} // namespace

} // namespace schedscope::cli
