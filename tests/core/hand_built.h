#pragma once
// Hand-built situations for the policy tests: a synthetic machine under a
// named policy, without the OS's own threads, scripted CPU-bound tasks, and
// the decisions the run recorded. Each test then says which task moved,
// when, and from where.

#include "catalog/catalog.h"
#include "engine/simulation.h"
#include "engine_test_access.h"
#include "topology/import.h"

#include <initializer_list>
#include <string>
#include <vector>

namespace schedscope::hand_built {

constexpr SimTime kMs = 1'000'000;

// `topo` in the synthetic syntax, `policy` as "name:key=value,...".
inline Simulation make_sim(const std::string &topo, const std::string &policy, std::uint64_t seed = 1)
{
    SimConfig cfg;
    cfg.seed = seed;
    cfg.model.os_noise = 0; // the scripted tasks alone, without the OS's threads
    auto [name, params] = parse_name_params(policy, "test");
    return Simulation(std::make_shared<const Topology>(import_synthetic(topo)), make_policy(name, params, "test"), cfg);
}

inline CpuSet cpus(std::initializer_list<int> list)
{
    CpuSet s;
    for (int c : list)
        s.set(c);
    return s;
}

// A CPU-bound task of `work_ms` with a small working set, in a process of
// its own.
inline TaskId add_spin(Simulation &sim, double work_ms)
{
    ProcId p = sim.add_process("p" + std::to_string(sim.processes().size()), 4 << 20);
    Simulation::TaskSpec s;
    s.program.ops = {Op{Op::Kind::Compute, static_cast<std::int64_t>(work_ms * 1e6), 0, -1}};
    s.working_set_bytes = 256 * 1024;
    return sim.add_task(p, std::move(s));
}

// As add_spin, allowed on `cpu` only until release(): the start is placed by
// hand, the balancing after it is the policy's.
inline TaskId add_spin_on(Simulation &sim, int cpu, double work_ms)
{
    const TaskId t = add_spin(sim, work_ms);
    EngineTestAccess::task(sim, t).cpus_allowed = cpus({cpu});
    return t;
}

inline void release(Simulation &sim, TaskId t)
{
    for (int c = 0; c < sim.topology().pu_count(); ++c)
        EngineTestAccess::task(sim, t).cpus_allowed.set(c);
}

// CPU 1's only task ends at 3.5 ms, between ticks, while `queued` cold
// tasks of 500 ms wait on CPU 0, pinned there until `release_ns`; the run
// then goes on to `until_ns`. Tasks 1..queued are the queued ones.
inline Simulation cpu1_runs_dry(const std::string &topo, const std::string &policy, int queued, SimTime release_ns,
                                SimTime until_ns)
{
    Simulation sim = make_sim(topo, policy);
    add_spin_on(sim, 1, 3.5);
    for (int i = 0; i < queued; ++i)
        add_spin_on(sim, 0, 500.0);
    sim.run_until(release_ns);
    for (TaskId t = 1; t <= static_cast<TaskId>(queued); ++t)
        release(sim, t);
    sim.run_until(until_ns);
    return sim;
}

inline std::vector<Decision> decisions_to(const Simulation &sim, DecisionKind kind, int to)
{
    std::vector<Decision> out;
    for (const auto &d : sim.recording().decisions)
        if (d.kind == kind && d.to == to)
            out.push_back(d);
    return out;
}

// The index of the level named `name` in a balancer's domain chain for
// `cpu` (CfsBalancer::domains_of, DomainBalancer::domains_of), or -1.
template <class Balancer> int level_index(const Balancer &balancer, int cpu, const std::string &name)
{
    const auto &chain = balancer.domains_of(cpu);
    for (size_t k = 0; k < chain.size(); ++k)
        if (chain[k].level == name)
            return static_cast<int>(k);
    return -1;
}

} // namespace schedscope::hand_built
