// CSV data files: the columns are the JSON series, flattened, with units in
// the headers; the summary has one row per run with the report's figures.

#include "test_export_support.h"

#include "export/csv_export.h"
#include "util/input_error.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <map>
#include <regex>
#include <set>

using namespace schedscope;
using namespace schedscope::export_test;
using nlohmann::json;

namespace {

// Splits one CSV line; quoted cells may hold commas and doubled quotes.
std::vector<std::string> split_csv(const std::string &line)
{
    std::vector<std::string> out(1);
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"')
                out.back() += '"', ++i;
            else if (c == '"')
                quoted = false;
            else
                out.back() += c;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            out.emplace_back();
        } else {
            out.back() += c;
        }
    }
    return out;
}

std::vector<std::vector<std::string>> read_csv(const std::string &path)
{
    std::istringstream in(read_file(path));
    std::vector<std::vector<std::string>> rows;
    for (std::string line; std::getline(in, line);)
        rows.push_back(split_csv(line));
    return rows;
}

// Every JSON leaf path of the series, with how many values it holds.
void leaves(const json &j, const std::string &prefix, std::map<std::string, const json *> &out)
{
    for (auto &[k, v] : j.items()) {
        const std::string p = prefix.empty() ? k : prefix + "." + k;
        if (v.is_object())
            leaves(v, p, out);
        else
            out[p] = &v;
    }
}

// Headers carry a unit: a suffix (_s, _pct, _count...) on some part.
const std::regex kUnitful(R"(.*(_s|_ns|_us|_ms|_pct|_mb|_count|_ratio|_chunks|_ops_per_s|per_second)(\..*)?$)");

} // namespace

TEST_CASE("series CSV columns match the JSON series value for value", "[export]")
{
    const Scenario s = numa01();
    RunResult r = run_policy(s, PolicySpec{"autonuma", {}}, 1, scenario_topology(s));
    TempDir dir;
    write_series_csv(r, dir.file("run.csv"));
    const auto rows = read_csv(dir.file("run.csv"));
    REQUIRE(rows.size() > 2);
    const auto &header = rows.front();
    CHECK(header.front() == "time_s");

    std::map<std::string, const json *> json_leaves;
    leaves(r.series, "", json_leaves);
    const auto cols = series_columns(r.series);
    REQUIRE(cols.size() == header.size());
    std::set<std::string> covered;
    for (size_t c = 0; c < cols.size(); ++c) {
        INFO(header[c]);
        CHECK(cols[c].header == header[c]);
        CHECK(std::regex_match(header[c], kUnitful));
        // Back to the JSON: the path the column was flattened from.
        std::string path;
        for (auto &k : cols[c].path)
            path += (path.empty() ? "" : ".") + k;
        REQUIRE(json_leaves.count(path) == 1);
        covered.insert(path);
        const json &arr = *json_leaves[path];
        REQUIRE(arr.size() == rows.size() - 1);
        for (size_t i = 0; i < arr.size(); ++i) {
            const std::string &cell = rows[i + 1][c];
            double expect = 0;
            if (cols[c].element_key.empty() && arr[i].is_null()) {
                CHECK(cell.empty()); // no figure for that window (a local share without accesses)
                continue;
            }
            if (cols[c].element_key.empty())
                expect = arr[i].get<double>();
            else if (arr[i].contains(cols[c].element_key))
                expect = arr[i][cols[c].element_key].get<double>();
            CHECK(std::stod(cell) == Approx(expect).epsilon(1e-12));
        }
    }
    // No series left out.
    CHECK(covered.size() == json_leaves.size());
    // numa01's memory per node: one column per node that held memory.
    CHECK(std::count_if(header.begin(), header.end(), [](auto &h) { return h.rfind("node_mb.", 0) == 0; }) >= 2);
}

TEST_CASE("summary CSV has one row per run with the JSON figures", "[export]")
{
    const Scenario s = hackbench();
    std::vector<std::vector<RunResult>> by_policy(2);
    for (std::uint64_t seed : {1u, 2u}) {
        by_policy[0].push_back(run_policy(s, PolicySpec{"simple", {}}, seed, scenario_topology(s)));
        by_policy[1].push_back(
            run_policy(s, PolicySpec{"sched-domains", {{"wakeup", "queued"}}}, seed, scenario_topology(s)));
    }
    TempDir dir;
    const auto files = write_results_csv(by_policy, dir.file("out"));
    CHECK(files.size() == 5);
    const auto rows = read_csv(dir.file("out/summary.csv"));
    REQUIRE(rows.size() == 5);
    const auto &h = rows.front();
    auto col = [&](const std::string &name) {
        auto it = std::find(h.begin(), h.end(), name);
        REQUIRE(it != h.end());
        return static_cast<size_t>(it - h.begin());
    };
    for (const char *name : {"elapsed_s", "user_s", "sys_s", "idle_pct", "throughput_ops_per_s", "local_access_pct",
                             "migrations.total_count", "page_migrations_chunks", "lock_wait_s"})
        col(name);
    for (size_t i = 2; i < h.size(); ++i) {
        INFO(h[i]);
        if (h[i] != "seed" && h[i] != "finished" && h[i].find("origin") == std::string::npos)
            CHECK(std::regex_match(h[i], kUnitful));
    }
    CHECK(rows[1][col("policy")] == "simple");
    CHECK(rows[3][col("policy")] == "sched-domains");
    CHECK(rows[3][col("params")].find("wakeup=queued") != std::string::npos);
    CHECK(std::stod(rows[2][col("elapsed_s")]) == Approx(by_policy[0][1].elapsed_s));
    CHECK(std::stoll(rows[4][col("migrations.total_count")]) == by_policy[1][1].migrations_total);
    CHECK(rows[4][col("seed")] == "2");
}

TEST_CASE("CSV numbers are the shortest text that reads back exactly, as in the JSON", "[export]")
{
    RunResult r;
    const std::vector<double> values = {0.1, 0.2, 0.30000000000000004, 2.05, 1e-7, 123456.789, 1.0 / 3.0, 0.0};
    r.series["time_s"] = values;
    TempDir dir;
    write_series_csv(r, dir.file("hand.csv"));
    const auto hand = read_csv(dir.file("hand.csv"));
    REQUIRE(hand.size() == values.size() + 1);
    const std::vector<std::string> expected = {"0.1",   "0.2",        "0.30000000000000004", "2.05",
                                               "1e-07", "123456.789", "0.3333333333333333",  "0"};
    for (size_t i = 0; i < values.size(); ++i) {
        CHECK(hand[i + 1][0] == expected[i]);
        // The JSON writer gives the same text.
        CHECK(json(values[i]).dump() == (values[i] == 0.0 ? std::string("0.0") : expected[i]));
    }

    // A real run: every cell reads back as the very double the JSON holds,
    // and none is longer than the JSON's text of it.
    const Scenario s = numa01();
    const RunResult run = run_policy(s, PolicySpec{"autonuma", {}}, 1, scenario_topology(s));
    write_series_csv(run, dir.file("run.csv"));
    const auto rows = read_csv(dir.file("run.csv"));
    const json &t = run.series.at("time_s");
    REQUIRE(rows.size() == t.size() + 1);
    for (size_t i = 0; i < t.size(); ++i) {
        const std::string &cell = rows[i + 1][0];
        CHECK(std::stod(cell) == t[i].get<double>());
        CHECK(cell.size() <= t[i].dump().size());
    }
}

TEST_CASE("CSV writes are atomic and name the file on failure", "[export]")
{
    const Scenario s = hackbench();
    RunResult r = run_policy(s, PolicySpec{"simple", {}}, 1, scenario_topology(s));
    TempDir dir;
    CHECK_THROWS_AS(write_series_csv(r, dir.file("no/such/dir/x.csv")), InputError);
    {
        std::ofstream(dir.file("x.csv")) << "old\n";
    }
    write_series_csv(r, dir.file("x.csv"));
    CHECK(read_file(dir.file("x.csv")).rfind("time_s,", 0) == 0);
    CHECK(dir.entries() == std::vector<std::string>{"x.csv"});
}
