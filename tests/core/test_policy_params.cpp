// Policy parameters: every mistake is an InputError naming the parameter,
// and params() gives effective values that read back to the same policy.

#include "catalog/catalog.h"
#include "engine/simulation.h"
#include "policies/domain_balancer.h"
#include "profiler/profile_store.h"
#include "topology/import.h"
#include "util/input_error.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>

using namespace schedscope;

namespace {

std::string field_of_error(const std::string &policy)
{
    auto [name, params] = parse_name_params(policy, "test");
    try {
        make_policy(name, params, "test");
    } catch (const InputError &e) {
        return e.field();
    }
    return "(no error)";
}

Simulation make(const std::string &topo, const std::string &policy)
{
    auto [name, params] = parse_name_params(policy, "test");
    Simulation sim(std::make_shared<const Topology>(import_synthetic(topo)), make_policy(name, params, "test"),
                   SimConfig{});
    ProcId p = sim.add_process("p", 4 << 20);
    Simulation::TaskSpec s;
    s.program.ops = {Op{Op::Kind::Compute, 1'000'000, 0, -1}};
    sim.add_task(p, std::move(s));
    return sim;
}

double hot_ms(const Simulation &sim, const std::string &level)
{
    for (auto &sd : dynamic_cast<const DomainBalancer &>(sim.policy()).domains_of(0))
        if (sd.level == level)
            return sd.cache_hot_time_ms;
    return -1;
}

} // namespace

TEST_CASE("unknown parameter names are rejected, naming the parameter", "[policy]")
{
    // scan_sleep_ms is a knob now (knuma_scand's scan_sleep_millisecs); seconds are not.
    CHECK(field_of_error("autonuma:scan_sleep_s=5") == "scan_sleep_s");
    CHECK(field_of_error("sched-domains:cache_hot_time_ms.L2=1") == "cache_hot_time_ms.L2");
    CHECK(field_of_error("linux-2.5-numa:cache_hot_time_ms=1") == "cache_hot_time_ms");
    CHECK(field_of_error("linux-2.5-numa:imbalance_pct=125") == "imbalance_pct"); // not a rule of 2.5.59 or A2
    CHECK(field_of_error("bind:mode=hard,pmd=on") == "pmd");
}

TEST_CASE("out-of-range and malformed values are rejected, naming the parameter", "[policy]")
{
    CHECK(field_of_error("linux-2.5-numa:node_threshold_pct=50") == "node_threshold_pct");
    CHECK(field_of_error("linux-2.5-numa:busy_balance=never") == "busy_balance");
    CHECK(field_of_error("linux-2.5-numa:idle_balance_mask=socket") == "idle_balance_mask");
    CHECK(field_of_error("linux-2.5-numa:busy_rebalance_tick_ms=0") == "busy_rebalance_tick_ms");
    CHECK(field_of_error("sched-domains:cache_hot_time_ms=-1") == "cache_hot_time_ms");
    CHECK(field_of_error("sched-domains:cache_nice_tries=two") == "cache_nice_tries");
    CHECK(field_of_error("sched-domains:cache_hot_time_ms.NUMA=-3") == "cache_hot_time_ms.NUMA");
    CHECK(field_of_error("sched-domains:cache_hot_time_ms=1,migration_cost_ns=500000") == "migration_cost_ns");
    CHECK(field_of_error("sched-domains:autotune=profile") == "profile");
    CHECK(field_of_error("sched-domains:profile=x.json") == "profile");
    CHECK(field_of_error("autonuma:migrate_threshold=0") == "migrate_threshold");
    CHECK(field_of_error("autonuma:pages_to_scan=0") == "pages_to_scan");
    CHECK(field_of_error("autonuma:pmd=maybe") == "pmd");
    CHECK(field_of_error("autonuma:exchange=yes") == "exchange");
    CHECK(field_of_error("sched-numa:sched_numa_scan_period_min_ms=0") == "sched_numa_scan_period_min_ms");
    CHECK(field_of_error("autonuma:transparent_hugepage=madvise") == "transparent_hugepage");
    CHECK(field_of_error("autonuma:pages_to_migrate=0") == "pages_to_migrate");
    CHECK(field_of_error("bind:mode=soft") == "mode");
    CHECK(field_of_error("sched-domains:wakeup=lazy") == "wakeup");
    CHECK(field_of_error("sched-domains:cache_hot_time_ms=1,migration_cost_ns=1000000") == "(no error)");
}

TEST_CASE("a per-level override needs that level on the machine", "[policy]")
{
    // Two nodes of two single-thread cores: no SMT level.
    Simulation no_smt = make("pack:2 [numa] core:2 pu:1", "sched-domains:cache_hot_time_ms.SMT=0");
    try {
        no_smt.start();
        FAIL("expected an InputError");
    } catch (const InputError &e) {
        CHECK(e.field() == "cache_hot_time_ms.SMT");
        CHECK(std::string(e.what()).find("package, NUMA") != std::string::npos);
    }
    // With SMT it applies to that level only; cache_hot_time_ms sets the
    // SD_CPU_INIT levels, and the NUMA level keeps 2.6.9's SD_NODE_INIT 10 ms.
    Simulation smt = make("pack:2 [numa] core:2 pu:2",
                          "autonuma:base=sched-domains,cache_hot_time_ms.SMT=1,cache_hot_time_ms=4");
    smt.start();
    CHECK(hot_ms(smt, "SMT") == 1.0);
    CHECK(hot_ms(smt, "package") == 4.0);
    CHECK(hot_ms(smt, "NUMA") == 10.0);
}

TEST_CASE("the NUMA policies take their base's knobs and refuse the other base's, naming them", "[policy]")
{
    // base=cfs is the default: the 2.6 balancer's knobs belong to base=sched-domains.
    CHECK(field_of_error("autonuma:cache_hot_time_ms=5") == "cache_hot_time_ms");
    CHECK(field_of_error("sched-numa:cache_hot_time_ms.NUMA=5") == "cache_hot_time_ms.NUMA");
    CHECK(field_of_error("autonuma:base=sched-domains,sched_migration_cost_ns=250000") == "sched_migration_cost_ns");
    CHECK(field_of_error("autonuma:base=o1") == "base");
    CHECK(field_of_error("autonuma:sched_migration_cost_ns=250000") == "(no error)");
    CHECK(field_of_error("sched-numa:base=sched-domains,cache_nice_tries=2") == "(no error)");
    CHECK(make_policy("autonuma", {}, "test")->params().at("base") == "cfs");
    CHECK(make_policy("sched-numa", {{"base", "sched-domains"}}, "test")->params().at("base") == "sched-domains");
}

TEST_CASE("autotune=profile takes each level's cache_hot_time from a saved profile", "[policy]")
{
    MigrationProfile prof;
    prof.mode = "model";
    prof.matrix_ms = {{0.1, 0.5}, {0.5, 0.1}};
    prof.min_offdiag_ms = 0.5;
    prof.cache_hot_time_ms = {{"overall", 3.0}, {"NUMA", 9.0}};
    const std::string path = (std::filesystem::temp_directory_path() / "schedscope_policy_profile.json").string();
    save_profile(prof, path);
    Simulation sim = make("pack:2 [numa] core:2 pu:2",
                          "sched-domains:autotune=profile,profile=" + path + ",cache_hot_time_ms.SMT=0.2");
    sim.start();
    CHECK(hot_ms(sim, "NUMA") == 9.0);    // measured for that level
    CHECK(hot_ms(sim, "package") == 3.0); // not measured: the profile's overall value
    CHECK(hot_ms(sim, "SMT") == 0.2);     // an explicit override wins
    ParamMap m = sim.policy().params();
    CHECK(m.at("autotune") == "profile");
    CHECK(m.at("profile") == path);
    std::filesystem::remove(path);
    CHECK(field_of_error("sched-domains:autotune=profile,profile=/nonexistent/p.json") != "(no error)");
}

TEST_CASE("every policy lists its parameters and params() reads back to itself", "[policy]")
{
    for (const auto &info : policy_catalog()) {
        INFO(info.name);
        CHECK(!info.description.empty());
        auto policy = make_policy(info.name, {{"wakeup", "queued"}}, "test");
        CHECK(policy->name() == info.name);
        const ParamMap m = policy->params();
        CHECK(m.at("wakeup") == "queued");
        for (const auto &[k, v] : m) {
            bool listed = k == "wakeup";
            for (const auto &p : info.params)
                listed = listed || p.name == k;
            CHECK(listed);
        }
        CHECK(make_policy(info.name, m, "test")->params() == m);
    }
}
