// A policy that tries to drive the simulation it schedules. As it stands it
// compiles (the build compiles it: the control). With
// -DSCHEDSCOPE_VIOLATION_STEP its tick hook calls step() through its
// PolicyContext; with -DSCHEDSCOPE_VIOLATION_SIMULATION it takes the
// Simulation& back from the context. tests/core/CMakeLists.txt expects each
// to fail to compile, naming what is missing. With the static checks of
// test_policy_context.cpp: a policy decides only through its actions.

#include "engine/policy.h"
#include "engine/simulation.h"

#include <memory>
#include <string>

namespace schedscope {

class DrivingPolicy final : public Policy {
public:
    std::unique_ptr<Policy> clone() const override { return std::make_unique<DrivingPolicy>(*this); }
    std::string name() const override { return "driving"; }
    ParamMap params() const override { return {}; }
    int select_cpu_fork(PolicyContext, TaskId) override { return 0; }
    int select_cpu_wakeup(PolicyContext sim, TaskId t, int) override { return sim.task(t).cpu; }
    void on_tick(PolicyContext sim, int cpu) override
    {
        sim.charge_sys(cpu, 0.0); // an action: allowed
#if defined(SCHEDSCOPE_VIOLATION_STEP)
        sim.step();
#elif defined(SCHEDSCOPE_VIOLATION_SIMULATION)
        Simulation &engine = sim;
        engine.step();
#endif
    }
};

// Keeps the class from being dropped as unused.
std::unique_ptr<Policy> make_driving_policy() { return std::make_unique<DrivingPolicy>(); }

} // namespace schedscope
