// Every input kept from fuzzing (tests/data/fuzz/<target>/: the reproducers of
// what the fuzzers found, and a small minimised corpus) goes through the same
// entry as its libFuzzer target (fuzz/fuzz_entry.h) and must load or be
// refused with an InputError carrying a message, within the time bound
// fuzz.sh gives each input (-timeout=10). Anything else, another exception
// type, an InputError without a message or a slower answer, fails the test;
// a crash or sanitizer report fails the run.

#include "fuzz_entry.h"
#include "refusal_bounds.h"
#include "util/input_error.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

using namespace schedscope;
namespace fs = std::filesystem;

namespace {

const fs::path kFuzzDataDir = fs::path(SCHEDSCOPE_TEST_DATA_DIR) / "fuzz";

enum class Outcome { Loaded, Refused, RefusedWithoutMessage, OtherException };

struct Result {
    Outcome outcome;
    std::string what;
};

// The contract of fuzz_entry.h, judged for one input.
Result judge(void (*load)(const std::string &), const std::string &input)
{
    try {
        load(input);
        return {Outcome::Loaded, {}};
    } catch (const InputError &e) {
        const bool said = !e.message().empty() && std::string(e.what()).size() > 0;
        return {said ? Outcome::Refused : Outcome::RefusedWithoutMessage, e.what()};
    } catch (const std::exception &e) {
        return {Outcome::OtherException, e.what()};
    } catch (...) {
        return {Outcome::OtherException, "(not a std::exception)"};
    }
}

std::string read_bytes(const fs::path &p)
{
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<fs::path> kept_inputs(const std::string &target)
{
    std::vector<fs::path> files;
    const fs::path dir = kFuzzDataDir / target;
    if (fs::is_directory(dir))
        for (const auto &entry : fs::directory_iterator(dir))
            if (entry.is_regular_file())
                files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace

TEST_CASE("kept fuzz inputs load or are refused with a message", "[fuzz][badinput]")
{
    for (const fuzz::Target &target : fuzz::kTargets) {
        const std::vector<fs::path> inputs = kept_inputs(target.name);
        INFO("target fuzz_" << target.name << ", inputs under " << (kFuzzDataDir / target.name).string());
        // An empty or misnamed directory would make this test pass vacuously.
        REQUIRE_FALSE(inputs.empty());
        for (const fs::path &file : inputs) {
            INFO("input " << file.filename().string());
            const std::string input = read_bytes(file);
            const auto start = std::chrono::steady_clock::now();
            const Result r = judge(target.load, input);
            const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
            INFO("what(): " << r.what);
            CHECK((r.outcome == Outcome::Loaded || r.outcome == Outcome::Refused));
            CHECK(took.count() < testing::refuse_timeout_s());
        }
    }
}

TEST_CASE("every directory of kept fuzz inputs belongs to a target", "[fuzz]")
{
    for (const auto &entry : fs::directory_iterator(kFuzzDataDir)) {
        if (!entry.is_directory())
            continue;
        const std::string name = entry.path().filename().string();
        INFO("tests/data/fuzz/" << name);
        CHECK(std::any_of(fuzz::kTargets.begin(), fuzz::kTargets.end(),
                          [&](const fuzz::Target &t) { return name == t.name; }));
    }
}

TEST_CASE("the fuzz regression check tells a refusal from a bug", "[fuzz]")
{
    // The judge must fail what the fuzzers call a crash, or the test above
    // would pass whatever the loaders throw.
    CHECK(judge([](const std::string &) {}, "").outcome == Outcome::Loaded);
    CHECK(judge([](const std::string &) { throw InputError("f.xml", 3, "a", "bad"); }, "").outcome == Outcome::Refused);
    CHECK(judge([](const std::string &) { throw InputError("", ""); }, "").outcome == Outcome::RefusedWithoutMessage);
    CHECK(judge([](const std::string &s) { (void)s.at(1); }, "").outcome == Outcome::OtherException);
    // A loader letting nlohmann's parse error through is the typical bug.
    CHECK(judge([](const std::string &s) { nlohmann::json::parse(s).clear(); }, "{").outcome ==
          Outcome::OtherException);
    CHECK(judge([](const std::string &) { throw 42; }, "").outcome == Outcome::OtherException);
    // A real entry: the scenario loader refuses truncated JSON with its own type.
    const Result truncated = judge(fuzz::load_scenario, R"({"schedscope_scenario": 1, "name": )");
    CHECK(truncated.outcome == Outcome::Refused);
    CHECK(truncated.what.find("fuzz.json") != std::string::npos);
}

TEST_CASE("what the fuzzers found is refused with a message naming the problem", "[fuzz][badinput]")
{
    using Catch::Contains;
    const auto kept = [](const char *rel) { return read_bytes(kFuzzDataDir / rel); };
    // Bare counts ("group:5110 20") are levels too: 102 200 PUs took hwloc
    // over 10 s before the limit counted them. Wide levels are slow in hwloc
    // whatever the PU count: 12 444 PUs as 6222 packages took 21 s.
    CHECK_THROWS_WITH(import_synthetic("group:5110 20"), Contains("5110 children per object at token 1"));
    CHECK_THROWS_WITH(import_synthetic("pack:6222  2"), Contains("6222 children per object"));
    CHECK_THROWS_WITH(import_synthetic("pack:8 core:8 8 pu:32"), Contains("describes more than 8192 PUs"));
    // hwloc reads more than hwloc_type_sscanf: "pac" is a package level, and
    // "l1: 10" a count of 10; the counting must go on past what we cannot read.
    CHECK_THROWS_WITH(import_synthetic("pac:6222 2"), Contains("6222 children per object"));
    CHECK_THROWS_WITH(import_synthetic("group:512 pack:2 l1: 10 20"), Contains("describes more than 8192 PUs"));
    // hwloc needs no space between levels: "nu :291core:70" is 291 x 70.
    CHECK_THROWS_WITH(import_synthetic("pack:3 nu :291core:70 pu:2"), Contains("describes more than 8192 PUs"));
    // A string hwloc takes that our check does not know still loads.
    CHECK(import_synthetic("(memory=1GB) pack:2 pu:2").pu_count() == 4);
    // A count past a double's range made std::stod throw out_of_range.
    CHECK_THROWS_WITH(import_synthetic(kept("synthetic/count-beyond-double")), Contains("describes more than"));
    // hwloc 2.9 leaked when refusing these; now they never reach it.
    CHECK_THROWS_WITH(import_synthetic("pack:3 [numa] core:1"), Contains("the last level must be pu:N"));
    // hwloc 2.9 crashed (SIGSEGV) on an object with a cpuset but no complete_cpuset.
    CHECK_THROWS_WITH(import_hwloc_xml(kept("hwloc_xml/segv-pu-cpuset-without-complete.xml"), "pu.xml"),
                      Contains("pu.xml:6: not valid hwloc XML: <object> has a cpuset but no complete_cpuset"));
    CHECK_THROWS_WITH(import_hwloc_xml(kept("hwloc_xml/segv-numa-nodeset-without-complete.xml"), "numa.xml"),
                      Contains("numa.xml:5:"));
    // ...and on a root complete_cpuset it cannot read.
    CHECK_THROWS_WITH(import_hwloc_xml(kept("hwloc_xml/segv-root-complete-cpuset-trailing-comma.xml"), "r.xml"),
                      Contains("r.xml:3: not valid hwloc XML: attribute 'complete_cpuset' of <object> is not an "
                               "hwloc bitmap: '0x3,'"));
    // ...and hwloc's libxml2 plugin leaked on an encoding it does not know.
    CHECK_THROWS_WITH(import_hwloc_xml(kept("hwloc_xml/leak-unknown-encoding.xml"), "e.xml"),
                      Contains("e.xml:1: not valid hwloc XML: encoding 'T' (hwloc writes UTF-8)"));
    // A number beyond a double escaped the scenario loader as nlohmann's out_of_range.
    CHECK_THROWS_WITH(parse_scenario(kept("scenario/number-overflow-line-4.json"), "s.json"),
                      Contains("s.json:4: not valid JSON: number overflow parsing '1e999'"));
}
