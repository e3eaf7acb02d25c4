// `simple`: the smallest policy that keeps every CPU busy, with no idea of
// topology. It exists so the engine runs end to end and as a reference point
// that the topology-aware policies should beat.

#include "engine/simulation.h"
#include "policies/cpu_choice.h"
#include "policies/factories.h"

namespace schedscope {

namespace {

struct SimpleParams {};

const ParamTable<SimpleParams> &simple_table()
{
    static const ParamTable<SimpleParams> t; // no parameters of its own
    return t;
}

class SimplePolicy final : public Policy {
public:
    std::unique_ptr<Policy> clone() const override { return std::make_unique<SimplePolicy>(*this); }
    std::string name() const override { return "simple"; }
    ParamMap params() const override { return policy_params(simple_table(), {}, wakeup_mode()); }

    int select_cpu_fork(PolicyContext sim, TaskId t) override { return least_loaded(sim, t, -1); }

    int select_cpu_wakeup(PolicyContext sim, TaskId t, int /*waker_cpu*/) override
    {
        const Task &task = sim.task(t);
        if (task.cpu >= 0 && task.cpus_allowed.test(task.cpu) && sim.cpu_idle(task.cpu))
            return task.cpu;
        return least_loaded(sim, t, task.cpu);
    }

    void on_tick(PolicyContext sim, int cpu) override
    {
        if (sim.cpu_idle(cpu))
            pull(sim, cpu);
    }
    void on_idle(PolicyContext sim, int cpu) override { pull(sim, cpu); }

private:
    // Lowest nr_running among allowed PUs; `prefer` wins ties.
    static int least_loaded(PolicyView sim, TaskId t, int prefer)
    {
        return least_loaded_cpu(sim, sim.task(t).cpus_allowed, prefer);
    }

    static void pull(PolicyContext sim, int cpu)
    {
        int busiest = -1;
        int most = 1;
        for (int c = 0; c < sim.topology().pu_count(); ++c) {
            if (sim.nr_running(c) > most && !sim.rq(c).queue.empty()) {
                busiest = c;
                most = sim.nr_running(c);
            }
        }
        if (busiest < 0)
            return;
        for (TaskId t : sim.rq(busiest).queue) {
            if (sim.task(t).cpus_allowed.test(cpu)) {
                sim.migrate_task(t, cpu, cpu, DecisionKind::Pull,
                                 "CPU " + std::to_string(cpu) + " idle: pulled task " + std::to_string(t) +
                                     " from CPU " + std::to_string(busiest) + " (" + std::to_string(most) +
                                     " runnable there)");
                return;
            }
        }
    }
};

} // namespace

PolicyInfo simple_policy_info()
{
    return policy_info<SimpleParams>(
        "simple", "Least-loaded placement; an idle CPU pulls from the busiest runqueue every tick. Knows no topology.",
        simple_table(), [](const SimpleParams &) { return std::make_unique<SimplePolicy>(); });
}

} // namespace schedscope
