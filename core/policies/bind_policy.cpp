// `bind`: numactl-style static placement, as autonuma-benchmark's
// _HARD_BIND and _INVERSE_BIND builds do it. The binding unit is the
// process when there are several (numa01), else the thread (numa02). Unit
// i of U owns node i/(U/NODES): its memory lives there (memory written
// before the run is placed as if written under the binding). hard runs its
// CPUs there too; inverse runs them on node (U-1-i)/(U/NODES), away from
// its memory, the worst case. With fewer units than nodes each unit gets an
// equal run of nodes. interleave spreads memory round-robin over all nodes
// and binds no CPU. Within its binding a task is balanced by the domain balancer, which
// cannot cross it: hard binding never migrates across nodes.

#include "engine/policy_actions.h"
#include "engine/simulation.h"
#include "policies/domain_balancer.h"
#include "policies/factories.h"
#include "policies/policy_text.h"

#include <vector>

namespace schedscope {

namespace {

enum class BindMode { Hard, Inverse, Interleave };

struct BindParams {
    BindMode mode = BindMode::Hard;
    BalancerParams balancer;
};

const ParamTable<BindParams> &bind_table()
{
    static const ParamTable<BindParams> t = [] {
        ParamTable<BindParams> t;
        t.choice<BindMode>(
            "mode", &BindParams::mode,
            {{"hard", BindMode::Hard}, {"inverse", BindMode::Inverse}, {"interleave", BindMode::Interleave}},
            "hard, inverse or interleave");
        t.include(&BindParams::balancer, BalancerParams::table(), {}, "", "",
                  "the balancer's: the parameters of `sched-domains`, as its table gives them");
        return t;
    }();
    return t;
}

class BindPolicy final : public DomainBalancer {
public:
    BindPolicy(BalancerParams bp, BindMode m) : DomainBalancer(std::move(bp)), mode_(m) {}
    std::unique_ptr<Policy> clone() const override { return std::make_unique<BindPolicy>(*this); }
    std::string name() const override { return "bind"; }
    ParamMap params() const override
    {
        return policy_params(bind_table(), BindParams{mode_, balancer_params()}, wakeup_mode());
    }

    void attach(PolicyContext sim) override
    {
        DomainBalancer::attach(sim);
        const int nodes = sim.topology().numa_count();
        if (nodes < 1)
            return;
        if (mode_ == BindMode::Interleave) {
            CpuSet all;
            for (int n = 0; n < nodes; ++n)
                all.set(n);
            for (const Process &p : sim.processes()) {
                if (p.kernel)
                    continue; // numactl runs the workload, not the kernel's threads
                PolicyActions::set_memory_policy(sim, p.id, AllocPolicy::Interleave, all);
                // Memory written before the run was allocated under the same policy.
                for (int c = 0; c < static_cast<int>(p.chunk_node.size()); ++c)
                    if (p.chunk_node[c] != kNoNode)
                        sim.place_chunks(p.id, c, c + 1, c % nodes);
                sim.log(DecisionKind::Other, -1, -1, -1, "process " + p.name + ": memory interleaved over all nodes");
            }
            return;
        }
        std::vector<ProcId> procs;
        for (const Process &p : sim.processes())
            if (!p.tasks.empty() && !p.kernel) // numactl binds the workload, not the kernel's threads
                procs.push_back(p.id);
        if (procs.size() > 1) {
            const int units = static_cast<int>(procs.size());
            for (int i = 0; i < units; ++i)
                bind_process(sim, procs[i], cpu_nodes(i, units, nodes), unit_nodes(i, units, nodes));
        } else if (procs.size() == 1) {
            // A task whose end creates the others (numa02's main(), writing
            // the memory first) runs alone before them: not a unit, and its
            // memory is rehomed with the threads' slices.
            std::vector<TaskId> tasks;
            for (TaskId t : sim.processes()[procs[0]].tasks)
                if (sim.task(t).creates_at_exit.empty())
                    tasks.push_back(t);
            const int units = static_cast<int>(tasks.size());
            for (int i = 0; i < units; ++i)
                bind_thread(sim, tasks, i, cpu_nodes(i, units, nodes), unit_nodes(i, units, nodes));
        }
    }

private:
    // Where unit i runs: its own nodes, or for inverse those of unit U-1-i.
    CpuSet cpu_nodes(int i, int units, int nodes) const
    {
        return unit_nodes(mode_ == BindMode::Inverse ? units - 1 - i : i, units, nodes);
    }

    // The nodes unit i of `units` owns, as a node set.
    static CpuSet unit_nodes(int i, int units, int nodes)
    {
        CpuSet s;
        if (units >= nodes) {
            s.set(std::min(nodes - 1, i / (units / nodes)));
        } else {
            for (int n = i * nodes / units; n < (i + 1) * nodes / units; ++n)
                s.set(n);
        }
        return s;
    }

    static CpuSet cpus_of(PolicyView sim, const CpuSet &nodes)
    {
        CpuSet cpus;
        for (int n = nodes.first(); n >= 0; n = nodes.next(n))
            cpus |= sim.topology().pus_of_node(n);
        return cpus;
    }

    // cpus_allowed narrowed to the nodes (replaced if they do not meet).
    static void bind_cpus(PolicyContext sim, TaskId t, const CpuSet &cpus)
    {
        CpuSet both = sim.task(t).cpus_allowed;
        both &= cpus;
        PolicyActions::set_cpus_allowed(sim, t, both.empty() ? cpus : both);
    }

    // Memory written before the run lands where the binding would have put
    // it (not left wherever the unbound first touch put it): written by the
    // unit's threads, on `targets` (bind_write_nodes of its mask and the
    // nodes it runs on).
    static void rehome_chunk(PolicyContext sim, ProcId p, int c, const std::vector<int> &targets)
    {
        if (sim.processes()[p].chunk_node[c] == kNoNode)
            return;
        sim.place_chunks(p, c, c + 1, targets[static_cast<size_t>(c) % targets.size()]);
    }

    void bind_process(PolicyContext sim, ProcId p, const CpuSet &run_nodes, const CpuSet &nodes)
    {
        const CpuSet cpus = cpus_of(sim, run_nodes);
        for (TaskId t : sim.processes()[p].tasks)
            bind_cpus(sim, t, cpus);
        PolicyActions::set_memory_policy(sim, p, AllocPolicy::Bind, nodes);
        const Process &pm = sim.processes()[p];
        const std::vector<int> targets = bind_write_nodes(nodes, run_nodes);
        for (int c = 0; c < static_cast<int>(pm.chunk_node.size()); ++c)
            rehome_chunk(sim, p, c, targets);
        sim.log(DecisionKind::Other, -1, -1, run_nodes.first(),
                "process " + pm.name + " runs on nodes " + run_nodes.to_list_string() + " (CPUs " +
                    cpus.to_list_string() + "), its memory is bound to nodes " + nodes.to_list_string());
    }

    // Unit i of `units` (the process's threads, in order): bound to its
    // nodes, with the chunks of its slice that no earlier unit owns.
    void bind_thread(PolicyContext sim, const std::vector<TaskId> &units, int i, const CpuSet &run_nodes,
                     const CpuSet &nodes)
    {
        const TaskId t = units[static_cast<size_t>(i)];
        const CpuSet cpus = cpus_of(sim, run_nodes);
        bind_cpus(sim, t, cpus);
        const Task &task = sim.task(t);
        const std::vector<int> targets = bind_write_nodes(nodes, run_nodes);
        // The thread's own slice: chunks its segments cover, first owner wins.
        for (const auto &s : task.segments)
            for (int c = s.chunk_begin; c < s.chunk_end; ++c) {
                bool earlier_owner = false;
                for (size_t j = 0; j < static_cast<size_t>(i); ++j)
                    for (const auto &os : sim.task(units[j]).segments)
                        earlier_owner = earlier_owner || (c >= os.chunk_begin && c < os.chunk_end);
                if (!earlier_owner)
                    rehome_chunk(sim, task.proc, c, targets);
            }
        sim.log(DecisionKind::Other, t, -1, run_nodes.first(),
                task_text(t) + " runs on nodes " + run_nodes.to_list_string() + " (CPUs " +
                    sim.task(t).cpus_allowed.to_list_string() + "), its slice of memory lives on nodes " +
                    nodes.to_list_string());
    }

    BindMode mode_;
};

} // namespace

PolicyInfo bind_policy_info()
{
    return policy_info<BindParams>(
        "bind",
        "numactl-style static placement: hard (threads bound to their memory's nodes), inverse (bound to the wrong "
        "nodes), or interleave (memory spread over all nodes).",
        bind_table(), [](const BindParams &p) { return std::make_unique<BindPolicy>(p.balancer, p.mode); });
}

} // namespace schedscope
