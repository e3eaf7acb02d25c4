// The CLI's per-policy table (format_report): Min/Max/Avg over repeats and
// %Change against the first policy, in the style of the mailing-list reports.

#include "scenario/run.h"

#include <catch2/catch.hpp>

#include <sstream>

using namespace schedscope;

namespace {

RunResult result(const std::string &policy, double elapsed_s, double sys_s)
{
    RunResult r;
    r.policy = policy;
    r.finished = true;
    r.fixed_work = true;
    r.elapsed_s = elapsed_s;
    r.sys_s = sys_s;
    return r;
}

// The line of `figure` in the block of `policy`.
std::string line_of(const std::string &report, const std::string &policy, const std::string &figure)
{
    std::istringstream in(report);
    std::string line;
    bool in_block = false;
    while (std::getline(in, line)) {
        if (!line.empty() && line[0] != ' ')
            in_block = line.rfind(policy, 0) == 0;
        else if (in_block && line.find(figure) != std::string::npos)
            return line;
    }
    return {};
}

} // namespace

TEST_CASE("report: Min/Max/Avg over repeats and %Change of the Avg against the first policy", "[report]")
{
    Scenario s;
    s.workload.name = "numa01";
    const std::vector<std::vector<RunResult>> by_policy = {
        {result("base", 10.0, 1.0), result("base", 12.0, 1.0)},
        {result("other", 8.25, 1.5), result("other", 8.75, 1.5)},
    };
    const std::string report = format_report(s, by_policy);
    CHECK(report.find("2 runs per policy") != std::string::npos);
    const std::string base = line_of(report, "base", "Elapsed");
    CHECK(base.find("10.000") != std::string::npos);
    CHECK(base.find("12.000") != std::string::npos);
    CHECK(base.find("11.000") != std::string::npos);
    CHECK(base.find('%') == std::string::npos);                                     // the first policy is the reference
    CHECK(line_of(report, "other", "Elapsed").find("-22.7%") != std::string::npos); // 8.5 against 11
    CHECK(line_of(report, "other", "System").find("+50.0%") != std::string::npos);
}

TEST_CASE("report: no %Change against a reference that prints as zero", "[report]")
{
    Scenario s;
    s.workload.name = "numa01";
    // A baseline system time of microseconds prints as 0.000; a change of
    // millions of per cent from it would be noise.
    const std::vector<std::vector<RunResult>> by_policy = {{result("base", 10.0, 2e-6)}, {result("other", 5.0, 9.0)}};
    const std::string report = format_report(s, by_policy);
    const std::string sys = line_of(report, "other", "System");
    REQUIRE(!sys.empty());
    CHECK(sys.find("9.000") != std::string::npos);
    CHECK(sys.find('%') == std::string::npos);
    CHECK(line_of(report, "other", "Elapsed").find("-50.0%") != std::string::npos);
}
