// Export plumbing: size estimates, the time-window syntax, atomic writes
// (an existing file is never truncated by a failed or cancelled export), the
// engine's event sink staying out of checkpoints, and the CLI flags.

#include "test_export_support.h"
#include "topology_test_support.h"

#include "export/output_file.h"
#include "export/trace_export.h"
#include "util/input_error.h"

#include <catch2/catch.hpp>

using namespace schedscope;
using namespace schedscope::export_test;

namespace {
struct CountingSink : SchedEventSink {
    int switches = 0;
    void on_switch_in(SimTime, int, TaskId) override { ++switches; }
};
} // namespace

TEST_CASE("trace window and format parse, with errors naming the option", "[export]")
{
    auto w = parse_trace_window("1.5s:2000ms", "--trace-window");
    CHECK(w.start_ns == 1'500'000'000);
    CHECK(w.end_ns == 2'000'000'000);
    w = parse_trace_window("250us:", "--trace-window");
    CHECK(w.start_ns == 250'000);
    CHECK(w.open_ended());
    w = parse_trace_window(":3", "--trace-window");
    CHECK(w.start_ns == 0);
    CHECK(w.end_ns == 3'000'000'000);
    CHECK_THROWS_AS(parse_trace_window("2s", "--trace-window"), InputError);
    CHECK_THROWS_AS(parse_trace_window("2s:1s", "--trace-window"), InputError);
    CHECK_THROWS_AS(parse_trace_window("1x:2s", "--trace-window"), InputError);
    CHECK_THROWS_WITH(parse_trace_window("abc:", "--trace-window"), Catch::Contains("--trace-window"));
    CHECK(parse_trace_format("ftrace", "f") == TraceFormat::Ftrace);
    CHECK(parse_trace_format("chrome", "f") == TraceFormat::Chrome);
    CHECK_THROWS_AS(parse_trace_format("perf", "f"), InputError);
}

TEST_CASE("size estimate is exact when the pre-run covers the run, close otherwise", "[export]")
{
    TempDir dir;
    for (TraceFormat f : {TraceFormat::Chrome, TraceFormat::Ftrace}) {
        INFO(trace_format_name(f));
        // hackbench here lasts a few ms: the pre-run formats all of it.
        Simulation shortrun = small_sim(hackbench(), "simple");
        TraceOptions o;
        o.format = f;
        const auto est = estimate_trace_size({&shortrun}, {"simple"}, o);
        CHECK(est.exact);
        const auto r = export_trace({&shortrun}, {"simple"}, dir.file("short"), o);
        CHECK(est.bytes == r.bytes);

        // A throughput run over 2 s, few enough events to be formatted whole.
        Simulation longrun = small_sim(small_scenario("oltp", {{"processes", "16"}}, 2.0), "sched-domains");
        const auto est2 = estimate_trace_size({&longrun}, {"x"}, o);
        CHECK(est2.covered_s == Approx(2.0));
        CHECK(est2.events > 0);
        const auto r2 = export_trace({&longrun}, {"x"}, dir.file("long"), o);
        CHECK(static_cast<double>(est2.bytes) == Approx(static_cast<double>(r2.bytes)).epsilon(0.1));
        if (est2.exact)
            CHECK(est2.bytes == r2.bytes);
        // A window shrinks it in proportion; what lies before it is counted,
        // not written, so the figure is an estimate.
        o.window = parse_trace_window("0.5s:1s", "test");
        const auto est3 = estimate_trace_size({&longrun}, {"x"}, o);
        CHECK(!est3.exact);
        CHECK(est3.covered_s == Approx(0.5));
        CHECK(est3.bytes < est2.bytes / 2);
        const auto r3 = export_trace({&longrun}, {"x"}, dir.file("window"), o);
        CHECK(static_cast<double>(est3.bytes) == Approx(static_cast<double>(r3.bytes)).epsilon(0.1));
    }
}

TEST_CASE("size estimate stops when its progress callback says so", "[export]")
{
    // The GUI's estimate of a closed dialog, or of options changed since.
    Simulation run = small_sim(small_scenario("oltp", {{"processes", "16"}}, 2.0), "sched-domains");
    TraceOptions o;
    int calls = 0;
    o.progress = [&](double f) {
        CHECK(f >= 0.0);
        CHECK(f <= 1.0);
        return ++calls < 3;
    };
    const auto stopped = estimate_trace_size({&run}, {"x"}, o);
    CHECK(stopped.cancelled);
    CHECK(calls == 3); // asked after each slice, stopped at the first "no"
    CHECK(stopped.covered_s < 2.0);
    // The run it was given is a copy's start: a full estimate still covers it all.
    o.progress = [](double) { return true; };
    const auto full = estimate_trace_size({&run}, {"x"}, o);
    CHECK_FALSE(full.cancelled);
    CHECK(full.covered_s == Approx(2.0));
}

TEST_CASE("size estimate follows an event rate that changes after the start", "[export]")
{
    // Fixed work with no end given, and phases of different rates: hackbench
    // starts with its fork burst and then passes messages for a long while;
    // numa01 forks, faults its memory in, then computes with few switches.
    // A prefix scaled by time got these wrong by 3-4x either way.
    TempDir dir;
    const std::vector<std::pair<Scenario, std::string>> cases = {
        {small_scenario("hackbench", {{"groups", "2"}, {"loops", "400"}}), "sched-domains"},
        {small_scenario("numa01", {{"memory_mb", "64"}, {"loops", "40"}, {"threads", "4"}}), "autonuma"},
    };
    for (const auto &[scenario, policy] : cases) {
        for (TraceFormat f : {TraceFormat::Chrome, TraceFormat::Ftrace}) {
            INFO(scenario.workload.name << ", " << trace_format_name(f));
            Simulation sim = small_sim(scenario, policy);
            TraceOptions o;
            o.format = f;
            const auto est = estimate_trace_size({&sim}, {policy}, o);
            const auto r = export_trace({&sim}, {policy}, dir.file("t"), o);
            INFO("estimated " << est.bytes << " B, wrote " << r.bytes << " B, exact " << est.exact);
            CHECK(static_cast<double>(est.bytes) == Approx(static_cast<double>(r.bytes)).epsilon(0.15));
            // Past the fork burst: the counted path (what precedes the
            // window is counted, not written), at the later rate.
            o.window = parse_trace_window("5ms:", "test");
            Simulation again = small_sim(scenario, policy);
            const auto est_w = estimate_trace_size({&again}, {policy}, o);
            const auto r_w = export_trace({&again}, {policy}, dir.file("w"), o);
            INFO("from 5 ms: estimated " << est_w.bytes << " B, wrote " << r_w.bytes << " B");
            CHECK_FALSE(est_w.exact);
            CHECK(static_cast<double>(est_w.bytes) == Approx(static_cast<double>(r_w.bytes)).epsilon(0.15));
        }
    }
}

TEST_CASE("a Chrome JSON past what the viewers open is warned about before writing", "[export]")
{
    TraceSizeEstimate est;
    est.bytes = kChromeViewerLimitBytes + 1;
    const std::string w = trace_size_warning(est, TraceFormat::Chrome);
    CHECK(w.find("256 MB") != std::string::npos);
    CHECK(w.find("Perfetto") != std::string::npos);
    CHECK(trace_size_warning(est, TraceFormat::Ftrace).empty()); // text traces load in pieces
    est.bytes = kChromeViewerLimitBytes;
    CHECK(trace_size_warning(est, TraceFormat::Chrome).empty());
    CHECK(kChromeViewerLimitBytes <= 256'000'000);
}

TEST_CASE("a failed or cancelled export leaves the existing file intact", "[export]")
{
    TempDir dir;
    const std::string path = dir.file("trace.json");
    {
        std::ofstream(path) << "keep me\n";
    }
    Simulation sim = small_sim(numa01(), "autonuma");
    TraceOptions o;
    int calls = 0;
    // Cancel at the first report: with streaming accesses overlapped, the
    // small numa01 run is over after a single slice.
    o.progress = [&](double) { return ++calls < 1; };
    auto r = export_trace({&sim}, {"autonuma"}, path, o);
    CHECK(r.cancelled);
    CHECK(r.files.empty());
    CHECK(read_file(path) == "keep me\n");
    CHECK(dir.entries() == std::vector<std::string>{"trace.json"}); // no temporary left behind

    o.progress = [&](double) -> bool { throw std::runtime_error("disk on fire"); };
    CHECK_THROWS_WITH(export_trace({&sim}, {"autonuma"}, path, o), "disk on fire");
    CHECK(read_file(path) == "keep me\n");
    CHECK(dir.entries() == std::vector<std::string>{"trace.json"});

    // A target that cannot be replaced: the error names it.
    std::filesystem::create_directory(dir.file("adir"));
    o.progress = nullptr;
    CHECK_THROWS_AS(export_trace({&sim}, {"autonuma"}, dir.file("adir"), o), InputError);
    CHECK(dir.entries() == std::vector<std::string>{"adir", "trace.json"});
    CHECK_THROWS_AS(export_trace({&sim}, {"autonuma"}, dir.file("missing/dir/t.json"), o), InputError);

    // And a successful export replaces it whole.
    r = export_trace({&sim}, {"autonuma"}, path, o);
    CHECK(read_file(path).rfind("{\"traceEvents\":[", 0) == 0);
}

TEST_CASE("OutputFile counts without a path and discards what it does not commit", "[export]")
{
    OutputFile counter;
    counter.write("abc");
    counter.commit();
    CHECK(counter.bytes() == 3);
    TempDir dir;
    {
        OutputFile f(dir.file("x"));
        f.write("partial");
    }
    CHECK(dir.entries().empty());
}

TEST_CASE("the event sink is not copied into checkpoints and costs nothing detached", "[export]")
{
    Simulation sim = small_sim(hackbench(), "simple");
    CountingSink sink;
    sim.set_event_sink(&sink);
    sim.run_until(1'000'000);
    const auto cp = sim.checkpoint();
    CHECK(cp.state->event_sink() == nullptr);
    Simulation copy = sim;
    CHECK(copy.event_sink() == nullptr);
    const int seen = sink.switches;
    CHECK(seen > 0);
    copy.run_to_end();
    CHECK(sink.switches == seen);
    // Observed or not, the run is the same.
    sim.run_to_end();
    CHECK(sim.end_time() == copy.end_time());
    CHECK(sim.events_processed() == copy.events_processed());
}

TEST_CASE("run --trace, --csv and the size limit from the CLI", "[export][cli]")
{
    using namespace schedscope::testing;
    TempDir dir;
    const std::string base = shell_quote(SCHEDSCOPE_CLI_PATH) +
                             " run --topology 'synthetic:pack:2 [numa] core:2 pu:1' --workload "
                             "hackbench:groups=1,loops=5 --policy simple --policy sched-domains --jobs 1";
    auto r = run_command(base + " --trace " + shell_quote(dir.file("t.json")) + " --csv " +
                         shell_quote(dir.file("csv")) + " 2>&1");
    INFO(r.out);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("trace: ") != std::string::npos);
    auto doc = nlohmann::json::parse(export_test::read_file(dir.file("t.json")));
    CHECK(doc["traceEvents"].size() > 10);
    CHECK(std::filesystem::exists(dir.file("csv/summary.csv")));
    CHECK(std::filesystem::exists(dir.file("csv/1-simple-seed1.csv")));
    CHECK(std::filesystem::exists(dir.file("csv/2-sched-domains-seed1.csv")));

    // Over the limit: refused before any run, nothing written.
    r = run_command(base + " --trace " + shell_quote(dir.file("big.json")) + " --trace-max-mb 0.000001 2>&1");
    CHECK(r.exit_code == 2);
    CHECK(r.out.find("--trace-force") != std::string::npos);
    CHECK(!std::filesystem::exists(dir.file("big.json")));
    r = run_command(base + " --trace " + shell_quote(dir.file("big.json")) +
                    " --trace-max-mb 0.000001 --trace-force 2>&1");
    CHECK(r.exit_code == 0);
    CHECK(std::filesystem::exists(dir.file("big.json")));

    r = run_command(base + " --trace " + shell_quote(dir.file("w.txt")) +
                    " --trace-format ftrace --trace-window 2s:1s 2>&1");
    CHECK(r.exit_code == 2);
    CHECK(r.out.find("--trace-window") != std::string::npos);

    // The default limit is a file the trace viewers still open.
    r = run_command(shell_quote(SCHEDSCOPE_CLI_PATH) + " run --help");
    const auto opt = r.out.find("--trace-max-mb");
    REQUIRE(opt != std::string::npos);
    const std::string line = r.out.substr(opt, r.out.find('\n', opt) - opt);
    INFO(line);
    // CLI11 shows the default after '=': "--trace-max-mb FLOAT:POSITIVE=256".
    const auto eq = line.find('=');
    REQUIRE(eq != std::string::npos);
    const double default_mb = std::stod(line.substr(eq + 1));
    CHECK(default_mb > 0);
    CHECK(default_mb <= 256);
}

TEST_CASE("every CLI command answers --help", "[export][cli]")
{
    using namespace schedscope::testing;
    auto top = run_command(shell_quote(SCHEDSCOPE_CLI_PATH) + " --help");
    REQUIRE(top.exit_code == 0);
    // The commands are whatever the top-level help lists.
    const auto pos = top.out.find("Subcommands:");
    REQUIRE(pos != std::string::npos);
    std::istringstream in(top.out.substr(pos));
    std::string line;
    std::getline(in, line);
    int commands = 0;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string name;
        if (!(words >> name))
            continue;
        INFO(name);
        auto r = run_command(shell_quote(SCHEDSCOPE_CLI_PATH) + " " + name + " --help");
        CHECK(r.exit_code == 0);
        CHECK(r.out.find("--help") != std::string::npos);
        ++commands;
    }
    CHECK(commands >= 4);
}
