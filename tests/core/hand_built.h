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

inline std::vector<Decision> decisions_to(const Simulation &sim, DecisionKind kind, int to)
{
    std::vector<Decision> out;
    for (const auto &d : sim.recording().decisions)
        if (d.kind == kind && d.to == to)
            out.push_back(d);
    return out;
}

} // namespace schedscope::hand_built
