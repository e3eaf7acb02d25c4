// ftrace text export: every line parses with a strict pattern of the kernel's
// sched_switch / sched_wakeup format, and the per-CPU switch sequence is one a
// kernel could have produced (a task never runs on two CPUs at once).

#include "test_export_support.h"

#include "export/ftrace_sink.h"
#include "export/trace_export.h"

#include <catch2/catch.hpp>

#include <map>
#include <regex>

using namespace schedscope;
using namespace schedscope::export_test;

namespace {

// "<comm>-<pid> (<tgid>) [<cpu>] <sec>.<usec>: <event>: <args>"
const std::regex kLine(R"(^ *(\S+)-(\d+) +\( *(\d+|-+)\) \[(\d{3})\] +(\d+)\.(\d{6}): ([a-z_]+): (.*)$)");
const std::regex kSwitch(R"(^prev_comm=(\S+) prev_pid=(\d+) prev_prio=(\d+) prev_state=(R\+?|S|D|X) ==> )"
                         R"(next_comm=(\S+) next_pid=(\d+) next_prio=(\d+)$)");
const std::regex kWakeup(R"(^comm=(\S+) pid=(\d+) prio=(\d+) target_cpu=(\d{3})$)");
const std::regex kMigrate(R"(^comm=(\S+) pid=(\d+) prio=(\d+) orig_cpu=(\d+) dest_cpu=(\d+)$)");

struct Stats {
    int switches = 0, wakeups = 0, news = 0, migrations = 0;
    long long first_us = -1, last_us = -1;
};

// Parses every line strictly and replays the switches per CPU.
Stats check_ftrace(const std::string &text, int ncpu)
{
    Stats st;
    std::istringstream in(text);
    std::string line;
    std::map<int, int> cur;     // cpu -> pid running, once known
    std::map<int, int> running; // pid -> cpu it runs on
    long long prev_ts = -1;
    bool header = false;
    while (std::getline(in, line)) {
        if (line.rfind("#", 0) == 0) {
            header = header || line == "# tracer: nop";
            continue;
        }
        INFO(line);
        REQUIRE(header); // Perfetto looks for it before the first event
        std::smatch m;
        REQUIRE(std::regex_match(line, m, kLine));
        const int line_pid = std::stoi(m[2]);
        const int cpu = std::stoi(m[4]);
        REQUIRE(cpu < ncpu);
        const long long ts = std::stoll(m[5]) * 1'000'000 + std::stoll(m[6]);
        CHECK(ts >= prev_ts); // time order
        prev_ts = ts;
        if (st.first_us < 0)
            st.first_us = ts;
        st.last_us = ts;
        const std::string event = m[7], args = m[8];
        std::smatch a;
        if (event == "sched_switch") {
            REQUIRE(std::regex_match(args, a, kSwitch));
            ++st.switches;
            const int prev = std::stoi(a[2]), next = std::stoi(a[6]);
            CHECK(line_pid == prev); // written in the context of the task leaving
            CHECK(prev != next);
            if (prev == 0)
                CHECK(a[1].str().rfind("swapper/", 0) == 0);
            if (cur.count(cpu))
                CHECK(cur[cpu] == prev);
            if (prev != 0) {
                // Known elsewhere would mean it ran on two CPUs.
                if (running.count(prev))
                    CHECK(running[prev] == cpu);
                running.erase(prev);
            }
            if (next != 0) {
                CHECK(running.count(next) == 0);
                running[next] = cpu;
            }
            cur[cpu] = next;
        } else if (event == "sched_waking" || event == "sched_wakeup" || event == "sched_wakeup_new") {
            REQUIRE(std::regex_match(args, a, kWakeup));
            CHECK(std::stoi(a[4]) < ncpu);
            CHECK(running.count(std::stoi(a[2])) == 0); // a woken task is not running
            if (event == "sched_wakeup")
                ++st.wakeups;
            if (event == "sched_wakeup_new")
                ++st.news;
        } else if (event == "sched_migrate_task") {
            REQUIRE(std::regex_match(args, a, kMigrate));
            CHECK(a[4] != a[5]);
            ++st.migrations;
        } else {
            FAIL("unexpected event " << event);
        }
    }
    return st;
}

std::string export_ftrace(const Simulation &sim, const TempDir &dir, TraceOptions o = {})
{
    o.format = TraceFormat::Ftrace;
    const auto r = export_trace({&sim}, {"policy under test"}, dir.file("trace.txt"), o);
    REQUIRE(r.files.size() == 1);
    return read_file(r.files.front());
}

} // namespace

TEST_CASE("ftrace text parses strictly and switches are consistent per CPU", "[export]")
{
    const Scenario s = hackbench();
    for (const char *policy : {"simple", "sched-domains", "linux-2.5-numa"}) {
        INFO(policy);
        Simulation sim = small_sim(s, policy);
        TempDir dir;
        const std::string text = export_ftrace(sim, dir);
        const Stats st = check_ftrace(text, sim.topology().pu_count());
        Simulation ref = sim;
        ref.run_to_end();
        // Every task that arrived (the OS's kernel threads arrive at a
        // random phase of their period, possibly after a short run ends).
        const auto arrived = std::count_if(ref.tasks().begin(), ref.tasks().end(),
                                           [](const Task &t) { return t.state != TaskState::NotStarted; });
        CHECK(st.news == static_cast<int>(arrived));
        CHECK(st.migrations == static_cast<int>(ref.recording().migrations.size()));
        CHECK(st.wakeups > 0);
        CHECK(st.switches > st.news);
        CHECK(st.last_us <= ref.end_time() / 1000);
    }
}

TEST_CASE("ftrace of a queued-wakeup policy and a NUMA policy stays consistent", "[export]")
{
    Simulation q = small_sim(hackbench(), "sched-domains", {{"wakeup", "queued"}});
    Simulation n = small_sim(numa01(), "autonuma");
    TempDir dir;
    check_ftrace(export_ftrace(q, dir), q.topology().pu_count());
    TempDir dir2;
    check_ftrace(export_ftrace(n, dir2), n.topology().pu_count());
}

TEST_CASE("ftrace time window keeps lines inside it only", "[export]")
{
    Simulation sim = small_sim(hackbench(), "simple");
    TraceOptions o;
    o.window = parse_trace_window("1ms:2ms", "test");
    TempDir dir;
    const Stats st = check_ftrace(export_ftrace(sim, dir, o), sim.topology().pu_count());
    CHECK(st.switches > 0);
    CHECK(st.first_us >= 1000);
    CHECK(st.last_us < 2000);
}

TEST_CASE("ftrace of several policies writes one file each", "[export]")
{
    const Scenario s = hackbench();
    Simulation a = small_sim(s, "simple"), b = small_sim(s, "sched-domains");
    TempDir dir;
    TraceOptions o;
    o.format = TraceFormat::Ftrace;
    const auto r = export_trace({&a, &b}, {"simple", "sched-domains:wakeup=queued"}, dir.file("t.txt"), o);
    CHECK(r.files ==
          std::vector<std::string>{dir.file("t.1-simple.txt"), dir.file("t.2-sched-domains_wakeup_queued.txt")});
    CHECK(r.files == trace_output_paths(dir.file("t.txt"), {"simple", "sched-domains:wakeup=queued"}, o.format));
    for (auto &f : r.files)
        check_ftrace(read_file(f), a.topology().pu_count());
    CHECK(dir.entries().size() == 2);
}

TEST_CASE("task names become kernel-style comms", "[export]")
{
    CHECK(FtraceSink::comm_of("numa01/3") == "numa01/3");
    CHECK(FtraceSink::comm_of("my task=1") == "my_task_1");
    CHECK(FtraceSink::comm_of("") == "task");
}
