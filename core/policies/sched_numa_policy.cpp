// `sched-numa`: the home-node design contemporary with AutoNUMA (Peter
// Zijlstra's sched/numa, 2012). Each process gets a home node; its threads
// start there and the balancer (Linux 3.6's CFS, base=cfs, or the 2.6 domain
// balancer, base=sched-domains) keeps them there; its memory is pulled to
// the home node lazily, on hinting faults. There is no CPU-follows-memory:
// the home decides, the memory comes.

#include "engine/simulation.h"
#include "policies/factories.h"
#include "policies/numa_base.h"
#include "policies/numa_scanner.h"
#include "policies/policy_text.h"

namespace schedscope {

namespace {

template <class Base> class SchedNumaPolicy final : public Base {
public:
    template <class BaseParams> SchedNumaPolicy(BaseParams bp, NumaScanParams sp) : Base(std::move(bp)), scanner_(sp) {}
    std::unique_ptr<Policy> clone() const override { return std::make_unique<SchedNumaPolicy>(*this); }
    std::string name() const override { return "sched-numa"; }
    ParamMap params() const override
    {
        ParamMap m = this->base_params();
        m["base"] = numa_base_name<Base>();
        scanner_.params().add_to(m);
        return m;
    }

    // Homes: each process in turn to the node with the fewest threads per
    // CPU already homed there, so that homes spread like the load will.
    void attach(Simulation &sim) override
    {
        Base::attach(sim);
        const Topology &topo = sim.topology();
        const int nodes = std::max(1, topo.numa_count());
        std::vector<double> homed(nodes, 0.0);
        for (const Process &p : sim.processes()) {
            if (p.kernel)
                continue; // kernel threads have no memory to be homed with
            int best = 0;
            double best_load = 0;
            for (int n = 0; n < nodes; ++n) {
                const int cpus = topo.numa_count() > 0 ? topo.pus_of_node(n).count() : topo.pu_count();
                const double load = homed[n] / std::max(1, cpus);
                if (n == 0 || load < best_load) {
                    best = n;
                    best_load = load;
                }
            }
            homed[best] += static_cast<double>(p.tasks.size());
            sim.process_mut(p.id).home_node = best;
            sim.log(DecisionKind::Other, -1, -1, best,
                    "process " + p.name + " gets home " + node_text(best) + " (" + fixed1_text(best_load) +
                        " threads per CPU homed there before it)");
        }
    }

    void on_tick(Simulation &sim, int cpu) override
    {
        Base::on_tick(sim, cpu);
        if (cpu == 0)
            scanner_.tick(sim, [](ProcId) {});
    }

    // Lazy migration: a faulting chunk away from home goes home.
    void on_hinting_fault(Simulation &sim, TaskId t, int chunk, int node) override
    {
        const Task &task = sim.task(t);
        scanner_.after_fault(sim, task.proc, chunk);
        const Process &proc = sim.processes()[task.proc];
        const int where = proc.chunk_node[chunk];
        if (proc.home_node == kNoNode || where == proc.home_node)
            return;
        sim.migrate_chunk(task.proc, chunk, proc.home_node, task.cpu,
                          "chunk " + std::to_string(chunk) + " of " + proc.name + " pulled to home " +
                              node_text(proc.home_node) + " from " + node_text(where) + " on a fault from " +
                              node_text(node));
    }

protected:
    int fork_node(const Simulation &sim, TaskId t) const override
    {
        return sim.processes()[sim.task(t).proc].home_node;
    }
    int numa_preference(const Simulation &sim, TaskId t, int from_cpu, int to_cpu) const override
    {
        const int home = sim.processes()[sim.task(t).proc].home_node;
        if (home == kNoNode)
            return 0;
        const int from = sim.topology().node_of_pu(from_cpu), to = sim.topology().node_of_pu(to_cpu);
        return to == home && from != home ? 1 : (from == home && to != home ? -1 : 0);
    }
    std::string numa_reason(const Simulation &sim, TaskId t) const override
    {
        return "its process's home is " + node_text(sim.processes()[sim.task(t).proc].home_node);
    }

private:
    NumaScanner scanner_;
};

} // namespace

PolicyInfo sched_numa_policy_info()
{
    PolicyInfo info;
    info.name = "sched-numa";
    info.description = "sched/numa (2012): a home node per process, threads placed and kept there, memory pulled "
                       "home lazily on hinting faults; no CPU-follows-memory.";
    info.params = numa_base_infos();
    for (auto &i : NumaScanParams::infos())
        info.params.push_back(i);
    info.make = [](const ParamMap &p, const std::string &source) {
        const NumaScanParams sp = NumaScanParams::parse(p, source);
        if (parse_numa_base(p, source) == NumaBase::Cfs)
            return std::unique_ptr<Policy>(
                std::make_unique<SchedNumaPolicy<CfsBalancer>>(parse_base_params<CfsBalancer>(p, source), sp));
        return std::unique_ptr<Policy>(
            std::make_unique<SchedNumaPolicy<DomainBalancer>>(parse_base_params<DomainBalancer>(p, source), sp));
    };
    return info;
}

} // namespace schedscope
