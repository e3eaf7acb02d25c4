#include "run_setup.h"

#include "catalog/catalog.h"
#include "scenario/pane_label.h"
#include "scenario/run.h"
#include "util/input_error.h"

namespace schedscope::gui {

RunSetupPtr make_run_setup(const Scenario &scenario, std::shared_ptr<const Topology> topology)
{
    const std::string src = scenario.source.empty() ? "scenario" : scenario.source;
    auto setup = std::make_shared<RunSetup>();
    setup->scenario = scenario;
    setup->topology = topology ? std::move(topology) : scenario_topology(scenario);
    setup->policies = effective_policies(scenario);
    if (setup->policies.empty())
        throw InputError(src, 0, "policies", "the scenario names no policy to run");
    if (static_cast<int>(setup->policies.size()) > kMaxPanes)
        throw InputError(src, 0, "policies",
                         "the GUI shows at most " + std::to_string(kMaxPanes) + " policies side by side, got " +
                             std::to_string(setup->policies.size()));
    // Fail here, on the GUI thread with a message, rather than in the worker:
    // unknown names and bad parameter values.
    for (const PolicySpec &p : setup->policies)
        make_policy(p.name, p.params, src);
    const auto [base, mode] = split_bind_suffix(scenario.workload.name);
    const WorkloadInfo &w = find_workload(base, src);
    check_param_names(scenario.workload.params, w.params, "workload '" + w.name + "'", src);
    setup->fixed_work = w.fixed_work;
    setup->colour_by_task = w.tasks_are_processes;
    if (!w.fixed_work && scenario.duration_s <= 0)
        throw InputError(src, 0, "duration_s", "workload '" + w.name + "' measures throughput: give a duration");
    return setup;
}

QStringList pane_label_list(const RunSetup &setup)
{
    QStringList out;
    for (const std::string &l : pane_labels(setup.policies))
        out << QString::fromStdString(l);
    return out;
}

Scenario default_comparison(const Topology &topology, const std::string &topology_spec)
{
    Scenario s;
    s.topology = topology_spec;
    s.seed = 1;
    if (topology.numa_count() >= 2) {
        // numa01 scaled down so it converges within seconds of simulated
        // time: the autonuma panes pull each process's memory to one node
        // while sched-domains leaves it where it was first written.
        s.name = "numa01: sched-domains vs autonuma";
        s.description = "Two processes whose memory starts on node 0. autonuma moves memory to the threads and "
                        "threads to their memory; sched-domains only balances load.";
        s.workload = {"numa01", {{"memory_mb", "256"}, {"loops", "10"}}};
        s.policies = {{"sched-domains", {}}, {"autonuma", {}}};
    } else {
        // One node: no memory placement to show, but cache affinity still
        // matters. OLTP-like processes block on I/O and wake often; the
        // topology-blind balancer moves them far more.
        s.name = "oltp: simple vs sched-domains";
        s.description = "OLTP-like processes that block on I/O. simple pulls any queued task to an idle CPU; "
                        "sched-domains leaves cache-hot tasks where their cache is.";
        s.workload = {"oltp", {}};
        s.policies = {{"simple", {}}, {"sched-domains", {}}};
        s.duration_s = 10;
    }
    return s;
}

} // namespace schedscope::gui
