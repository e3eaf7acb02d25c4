// One sample per instant: a run whose duration is a multiple of the sample
// interval ends on a Sample event and must not record that instant twice
// (the second copy, with an empty window, read as local access -1). Checked
// where users see the samples: the run JSON, the series CSV and the Chrome
// trace's counters. ftrace text carries no samples.

#include "test_export_support.h"

#include "export/csv_export.h"
#include "export/trace_export.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <map>
#include <sstream>

using namespace schedscope;
using namespace schedscope::export_test;
using nlohmann::json;

namespace {

// numa01 for 100 ms, sampled every 5 ms: the run ends on the 20th sample.
// Its threads touch memory throughout, so every window has a local share.
Scenario numa01_on_a_sample_time()
{
    Scenario s = small_scenario("numa01", {{"memory_mb", "32"}, {"loops", "50"}, {"threads", "4"}}, 0.1);
    s.sample_interval_ms = 5;
    // The workload's processes alone: the OS's kernel threads touch no
    // memory, so their local share is null in every window.
    s.model["os_noise"] = 0;
    // numa01's first write takes its page faults in the run, all in the
    // first millisecond's touches: at the measured rates the threads would
    // spend the first 5 ms windows in the kernel, touching nothing, whose
    // local share is null too. Nearly free faults keep every window's.
    s.model["page_fault_ns"] = 0;
    s.model["page_clear_bytes_per_ns"] = 1e4;
    return s;
}

std::vector<std::string> split(const std::string &line)
{
    std::vector<std::string> out(1);
    for (char c : line) {
        if (c == ',')
            out.emplace_back();
        else
            out.back().push_back(c);
    }
    return out;
}

} // namespace

TEST_CASE("a run ending on a sample time records that instant once", "[samples]")
{
    const Scenario s = numa01_on_a_sample_time();
    Simulation sim = small_sim(s, "autonuma");
    sim.run_to_end();
    const auto &samples = sim.recording().samples;
    REQUIRE(samples.size() >= 3);
    CHECK(samples.back().time_ns == 100'000'000);
    for (size_t i = 1; i < samples.size(); ++i) {
        INFO("sample " << i);
        CHECK(samples[i].time_ns > samples[i - 1].time_ns);
        for (float pct : samples[i].proc_local_pct)
            CHECK(pct >= 0);
    }
}

TEST_CASE("run JSON and CSV: sample times strictly increase, no negative percentage", "[samples][export]")
{
    const Scenario s = numa01_on_a_sample_time();
    const RunResult r = run_policy(s, PolicySpec{"autonuma", {}}, 1, scenario_topology(s));
    const json j = run_to_json(r, true);
    const json &t = j.at("series").at("time_s");
    REQUIRE(t.size() >= 3);
    CHECK(t.back().get<double>() == Approx(0.1));
    for (size_t i = 1; i < t.size(); ++i)
        CHECK(t[i].get<double>() > t[i - 1].get<double>());
    for (auto &[proc, pcts] : j["series"]["local_access_pct"].items()) {
        INFO(proc);
        REQUIRE(pcts.size() == t.size());
        // The sample at time 0 closes no window: no share to give (null).
        CHECK(pcts.front().is_null());
        for (size_t i = 1; i < pcts.size(); ++i) {
            REQUIRE(pcts[i].is_number()); // numa01 accesses memory in every window
            CHECK(pcts[i].get<double>() >= 0);
        }
    }
    CHECK(j["series"]["idle_pct"].back().get<double>() >= 0);

    TempDir dir;
    write_series_csv(r, dir.file("run.csv"));
    std::istringstream in(read_file(dir.file("run.csv")));
    std::string line;
    std::getline(in, line);
    const auto header = split(line);
    REQUIRE(header.front() == "time_s");
    double last = -1;
    size_t rows = 0;
    while (std::getline(in, line)) {
        const auto cells = split(line);
        REQUIRE(cells.size() == header.size());
        const double time = std::stod(cells.front());
        CHECK(time > last);
        last = time;
        ++rows;
        for (size_t c = 0; c < header.size(); ++c)
            if (header[c].find("_pct") != std::string::npos) {
                INFO(header[c] << " at " << cells.front());
                if (rows > 1 || header[c] == "idle_pct")
                    REQUIRE(!cells[c].empty());
                if (!cells[c].empty())
                    CHECK(std::stod(cells[c]) >= 0);
            }
    }
    CHECK(rows == t.size());
}

TEST_CASE("Chrome trace counters: one per series and instant, none negative", "[samples][export]")
{
    const Scenario s = numa01_on_a_sample_time();
    Simulation sim = small_sim(s, "autonuma");
    TempDir dir;
    TraceOptions o;
    o.format = TraceFormat::Chrome;
    export_trace({&sim}, {"autonuma"}, dir.file("t.json"), o);
    const json doc = json::parse(read_file(dir.file("t.json")));
    std::map<std::string, double> last_ts;
    int local_counters = 0;
    for (const json &e : doc.at("traceEvents")) {
        if (e.at("ph") != "C")
            continue;
        const std::string name = e.at("name");
        const double ts = std::stod(e.at("ts").dump());
        INFO(name << " at " << ts << " us");
        if (last_ts.count(name))
            CHECK(ts > last_ts[name]);
        last_ts[name] = ts;
        for (auto &[k, v] : e.at("args").items())
            CHECK(v.get<double>() >= 0);
        if (name.rfind("local access %", 0) == 0)
            ++local_counters;
    }
    CHECK(local_counters > 0);
    for (auto &[name, ts] : last_ts)
        CHECK(ts == Approx(100'000.0)); // every series reaches the end, once
}
