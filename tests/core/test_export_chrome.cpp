// Chrome Trace Event export: the file follows the format's rules that
// Perfetto UI and chrome://tracing rely on, and tells the same story as the
// engine (a CPU runs one task at a time, a task runs on one CPU at a time).

#include "test_export_support.h"

#include "export/trace_export.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <map>
#include <set>

using namespace schedscope;
using namespace schedscope::export_test;
using nlohmann::json;

namespace {

json export_chrome(const std::vector<const Simulation *> &sims, const std::vector<std::string> &names,
                   const TempDir &dir, TraceOptions o = {})
{
    o.format = TraceFormat::Chrome;
    const std::string path = dir.file("trace.json");
    const auto r = export_trace(sims, names, path, o);
    REQUIRE(r.files == std::vector<std::string>{path});
    const std::string text = read_file(path);
    REQUIRE(r.bytes == text.size());
    // Perfetto recognises JSON traces by their first bytes.
    REQUIRE(text.rfind("{\"traceEvents\":[", 0) == 0);
    return json::parse(text);
}

struct Slice {
    double ts, end;
    long long tid;
    int cpu;
};

// The rules we rely on, checked on any exported document. Returns the X
// slices by pid.
std::map<int, std::vector<Slice>> check_trace_rules(const json &doc, double min_us, double max_us)
{
    REQUIRE(doc.at("displayTimeUnit") == "ns");
    const json &events = doc.at("traceEvents");
    REQUIRE(events.is_array());
    std::set<int> named_pids;
    std::set<std::pair<int, long long>> named_tids, used_tids;
    std::map<int, std::vector<Slice>> slices;
    for (const json &e : events) {
        const std::string ph = e.at("ph");
        REQUIRE(e.at("pid").is_number_integer());
        const int pid = e["pid"];
        if (ph == "M") {
            REQUIRE(e.at("args").is_object());
            if (e["name"] == "process_name")
                named_pids.insert(pid);
            if (e["name"] == "thread_name")
                named_tids.insert({pid, e.at("tid").get<long long>()});
            continue;
        }
        REQUIRE(e.at("ts").is_number());
        const double ts = e["ts"];
        CHECK(ts >= min_us);
        CHECK(ts <= max_us);
        if (ph == "X") {
            REQUIRE(e.contains("dur"));
            REQUIRE(e["dur"].is_number());
            const double dur = e["dur"];
            CHECK(dur > 0);
            CHECK(ts + dur <= max_us + 1e-6);
            REQUIRE(e.at("args").at("cpu").is_number_integer());
            CHECK(e["args"].at("reason").is_string());
            CHECK(!e["args"]["reason"].get<std::string>().empty());
            used_tids.insert({pid, e.at("tid").get<long long>()});
            if (e.at("cat") == "sched")
                slices[pid].push_back(Slice{ts, ts + dur, e["tid"].get<long long>(), e["args"]["cpu"].get<int>()});
        } else if (ph == "C") {
            REQUIRE(e.at("name").is_string());
            REQUIRE(e.at("args").is_object());
            REQUIRE(!e["args"].empty());
            for (auto &[k, v] : e["args"].items())
                CHECK(v.is_number());
        } else if (ph == "i") {
            const std::string scope = e.at("s");
            CHECK((scope == "t" || scope == "p" || scope == "g"));
            used_tids.insert({pid, e.at("tid").get<long long>()});
        } else {
            FAIL("unexpected event type " << ph);
        }
        CHECK(named_pids.count(pid) == 1); // metadata comes first
    }
    for (auto &t : used_tids)
        CHECK(named_tids.count(t) == 1);
    return slices;
}

// Within one process (one policy): a task never runs on two CPUs at once,
// and a CPU never runs two tasks at once.
void check_consistent(std::vector<Slice> slices)
{
    std::map<long long, std::vector<Slice>> by_task;
    std::map<int, std::vector<Slice>> by_cpu;
    for (auto &s : slices) {
        by_task[s.tid].push_back(s);
        by_cpu[s.cpu].push_back(s);
    }
    auto no_overlap = [](std::vector<Slice> v) {
        std::sort(v.begin(), v.end(), [](auto &a, auto &b) { return a.ts < b.ts; });
        for (size_t i = 1; i < v.size(); ++i)
            if (v[i].ts < v[i - 1].end - 1e-6)
                return false;
        return true;
    };
    for (auto &[tid, v] : by_task)
        CHECK(no_overlap(v));
    for (auto &[cpu, v] : by_cpu)
        CHECK(no_overlap(v));
}

} // namespace

TEST_CASE("Chrome trace of two policies follows the Trace Event rules", "[export]")
{
    const Scenario s = numa01();
    Simulation a = small_sim(s, "simple"), b = small_sim(s, "autonuma");
    Simulation ref_a = a;
    ref_a.run_to_end();
    Simulation ref_b = b;
    ref_b.run_to_end();
    TempDir dir;
    TraceOptions o;
    o.cpu_tracks = true;
    const json doc = export_chrome({&a, &b}, {"simple", "autonuma"}, dir, o);
    const double end_us = static_cast<double>(std::max(ref_a.end_time(), ref_b.end_time())) / 1000.0;
    auto slices = check_trace_rules(doc, 0.0, end_us);
    REQUIRE(slices.size() == 2);
    for (auto &[pid, v] : slices) {
        CHECK(!v.empty());
        check_consistent(v);
    }
    // Every task's run time in the trace is the time the engine charged it.
    std::map<long long, double> ran_us;
    for (auto &sl : slices[1])
        ran_us[sl.tid] += sl.end - sl.ts;
    for (auto &t : ref_a.tasks()) {
        const long long tid = 1 * 1'000'000 + t.id + 1;
        const double charged_us = static_cast<double>(t.stats.user_ns + t.stats.sys_ns) / 1000.0;
        INFO("task " << t.name);
        CHECK(ran_us[tid] == Approx(charged_us).epsilon(0.02).margin(5.0));
    }
    // Counters: memory per node for each simulated process, local-access %.
    std::set<std::string> counters;
    for (auto &e : doc["traceEvents"])
        if (e["ph"] == "C")
            counters.insert(e["name"].get<std::string>());
    CHECK(std::count_if(counters.begin(), counters.end(), [](auto &n) { return n.rfind("memory MiB: ", 0) == 0; }) ==
          2); // numa01's 2 processes
    CHECK(std::count_if(counters.begin(), counters.end(),
                        [](auto &n) { return n.rfind("local access %: ", 0) == 0; }) >= 1);
    // Process names carry the labels given.
    std::set<std::string> procs;
    for (auto &e : doc["traceEvents"])
        if (e["ph"] == "M" && e["name"] == "process_name")
            procs.insert(e["args"]["name"].get<std::string>());
    CHECK(procs == std::set<std::string>{"simple", "autonuma"});
    // The originals were not advanced: the export ran copies.
    CHECK(a.now() == 0);
    CHECK(b.now() == 0);
}

TEST_CASE("Chrome trace records migrations with their reasons", "[export]")
{
    const Scenario s = hackbench();
    Simulation sim = small_sim(s, "sched-domains");
    TempDir dir;
    const json doc = export_chrome({&sim}, {"sched-domains"}, dir);
    Simulation ref = sim;
    ref.run_to_end();
    int instants = 0;
    for (auto &e : doc["traceEvents"])
        if (e["ph"] == "i" && e["name"] == "migrate") {
            ++instants;
            CHECK(e["args"]["from_cpu"] != e["args"]["to_cpu"]);
        }
    CHECK(instants == static_cast<int>(ref.recording().migrations.size()));
    std::set<std::string> reasons;
    for (auto &e : doc["traceEvents"])
        if (e["ph"] == "X")
            reasons.insert(e["args"]["reason"].get<std::string>().substr(0, 5));
    CHECK(reasons.count("wakeu") == 1); // hackbench receivers are woken
    CHECK(reasons.count("place") == 1);
}

TEST_CASE("Chrome trace time window keeps only what lies inside it", "[export]")
{
    const Scenario s = hackbench();
    Simulation sim = small_sim(s, "simple");
    TempDir dir;
    TraceOptions o;
    o.window = parse_trace_window("1ms:2.5ms", "test");
    const json doc = export_chrome({&sim}, {"simple"}, dir, o);
    auto slices = check_trace_rules(doc, 1000.0, 2500.0);
    REQUIRE(!slices[1].empty());
    check_consistent(slices[1]);

    // The same slices as the full trace, clipped to the window.
    TempDir dir2;
    const json full = export_chrome({&sim}, {"simple"}, dir2);
    double in_window = 0, clipped = 0;
    for (auto &e : full["traceEvents"])
        if (e["ph"] == "X") {
            const double a = std::max(1000.0, e["ts"].get<double>());
            const double b = std::min(2500.0, e["ts"].get<double>() + e["dur"].get<double>());
            clipped += std::max(0.0, b - a);
        }
    for (auto &sl : slices[1])
        in_window += sl.end - sl.ts;
    CHECK(in_window == Approx(clipped));
}

TEST_CASE("Chrome trace metadata: what Perfetto imports names the generator, machine and policies", "[export]")
{
    const Scenario s = numa01();
    Simulation a = small_sim(s, "simple"), b = small_sim(s, "sched-domains", {{"wakeup", "queued"}});
    TempDir dir;
    const json doc = export_chrome({&a, &b}, {"simple", "sched-domains:wakeup=queued"}, dir);
    // Perfetto keeps the top-level "metadata" object and skips "otherData".
    REQUIRE(doc.contains("metadata"));
    const json &m = doc["metadata"];
    CHECK(m.at("generator") == "schedscope");
    CHECK(!m.at("version").get<std::string>().empty());
    CHECK(m.at("topology").at("name") == a.topology().name());
    CHECK(m.at("topology").at("pus") == a.topology().pu_count());
    CHECK(m.at("topology").at("numa_nodes") == 2);
    const json &procs = m.at("processes");
    REQUIRE(procs.size() == 2);
    CHECK(procs[0].at("pid") == 1);
    CHECK(procs[0].at("name") == "simple");
    CHECK(procs[0].at("policy") == "simple");
    CHECK(procs[1].at("pid") == 2);
    CHECK(procs[1].at("policy") == "sched-domains");
    // Every parameter the policy ran with, defaults included.
    const ParamMap ran = b.policy().params();
    REQUIRE(ran.size() > 1);
    CHECK(procs[1].at("params").size() == ran.size());
    for (const auto &[k, v] : ran)
        CHECK(procs[1]["params"].at(k) == v);
    CHECK(procs[1]["params"].at("wakeup") == "queued");
    // The pids are those of the events.
    std::set<int> pids;
    for (const json &e : doc["traceEvents"])
        pids.insert(e.at("pid").get<int>());
    CHECK(pids == std::set<int>{1, 2});
}
