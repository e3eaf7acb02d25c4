// `round-robin`: the example of docs/extending.md, small enough to read in
// one go. Each new or woken task goes to the next allowed CPU in turn,
// `stride` CPUs on from the last one chosen; nothing is ever balanced. It
// models no kernel: it shows what a policy file holds (the class, its
// parameter table, its PolicyInfo) and is registered by one line of
// policies/policy_list.h.

#include "engine/simulation.h"
#include "policies/factories.h"

namespace schedscope {

namespace {

struct RoundRobinParams {
    std::int64_t stride = 1; // CPUs advanced per placement
};

const ParamTable<RoundRobinParams> &round_robin_table()
{
    static const ParamTable<RoundRobinParams> t = [] {
        ParamTable<RoundRobinParams> t;
        t.integer("stride", &RoundRobinParams::stride, 1, 4096, "CPUs",
                  "CPUs the turn advances per placement (one sharing a factor with the CPU count skips some)");
        return t;
    }();
    return t;
}

class RoundRobinPolicy final : public Policy {
public:
    explicit RoundRobinPolicy(RoundRobinParams p) : p_(p) {}
    std::unique_ptr<Policy> clone() const override { return std::make_unique<RoundRobinPolicy>(*this); }
    std::string name() const override { return "round-robin"; }
    ParamMap params() const override { return policy_params(round_robin_table(), p_, wakeup_mode()); }

    int select_cpu_fork(PolicyContext sim, TaskId t) override { return next_cpu(sim, t); }
    int select_cpu_wakeup(PolicyContext sim, TaskId t, int /*waker_cpu*/) override { return next_cpu(sim, t); }

private:
    // The first allowed CPU at or after the turn, then the turn moves on.
    int next_cpu(PolicyView sim, TaskId t)
    {
        const int cpus = sim.topology().pu_count();
        const CpuSet &allowed = sim.task(t).cpus_allowed;
        for (int i = 0; i < cpus; ++i) {
            const int c = static_cast<int>((turn_ + i) % cpus);
            if (allowed.test(c)) {
                turn_ = (c + p_.stride) % cpus;
                return c;
            }
        }
        return allowed.first(); // the engine refuses a task allowed nowhere
    }

    RoundRobinParams p_;
    std::int64_t turn_ = 0; // the CPU the next placement starts looking from
};

} // namespace

PolicyInfo round_robin_policy_info()
{
    return policy_info<RoundRobinParams>(
        "round-robin",
        "Example policy (docs/extending.md): each new or woken task goes to the next allowed CPU in turn, stride CPUs "
        "on; never balances.",
        round_robin_table(), [](const RoundRobinParams &p) { return std::make_unique<RoundRobinPolicy>(p); });
}

} // namespace schedscope
