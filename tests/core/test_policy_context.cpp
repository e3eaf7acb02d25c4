// A policy sees its simulation through a PolicyContext (engine/policy_context.h):
// const queries and its actions, never the engine's driver. These checks are
// compile-time: giving policies the Simulation again (a hook taking
// Simulation&, a context that converts to one or forwards step()) stops
// core_tests from building.

#include "engine/policy.h"
#include "engine/simulation.h"
#include "hand_built.h"
#include "topology/import.h"

#include <catch2/catch.hpp>

#include <memory>
#include <type_traits>

namespace schedscope {
namespace {

template <class C>
concept CanStep = requires(C &c)
{
    c.step();
};
template <class C>
concept CanRunUntil = requires(C &c)
{
    c.run_until(SimTime{});
};
template <class C>
concept CanRunToEnd = requires(C &c)
{
    c.run_to_end();
};
template <class C>
concept CanRestore = requires(C &c, const Simulation::Checkpoint &cp)
{
    c.restore(cp);
};
template <class C>
concept CanCheckpoint = requires(C &c)
{
    c.checkpoint();
};
template <class C>
concept CanAddTask = requires(C &c, Simulation::TaskSpec spec)
{
    c.add_task(ProcId{}, spec);
};
template <class C>
concept CanAddProcess = requires(C &c)
{
    c.add_process(std::string{}, std::int64_t{});
};
template <class C>
concept CanStart = requires(C &c)
{
    c.start();
};
template <class C>
concept CanDraw = requires(C &c)
{
    c.rng();
};
template <class C>
concept CanReachPolicy = requires(C &c)
{
    c.policy();
};
template <class C>
concept CanSetSink = requires(C &c)
{
    c.set_event_sink(nullptr);
};
// Any way back to the Simulation itself: a conversion, an accessor, the member.
template <class C>
concept ReachesSimulation = std::is_convertible_v<C &, const Simulation &> || requires(C &c)
{
    c.sim();
} || requires(C &c) { c.sim_; } || requires(C &c)
{
    c.simulation();
};

template <class C>
concept Drives = CanStep<C> || CanRunUntil<C> || CanRunToEnd<C> || CanRestore<C> || CanCheckpoint<C> || CanAddTask<C> ||
    CanAddProcess<C> || CanStart<C> || CanDraw<C> || CanReachPolicy<C> || CanSetSink<C> || ReachesSimulation<C>;

// The concepts see what they look for: the Simulation has every one.
static_assert(CanStep<Simulation> && CanRunUntil<Simulation> && CanRunToEnd<Simulation> && CanRestore<Simulation> &&
              CanCheckpoint<Simulation> && CanAddTask<Simulation> && CanAddProcess<Simulation> &&
              CanStart<Simulation> && CanDraw<Simulation> && CanReachPolicy<Simulation> && CanSetSink<Simulation>);
static_assert(ReachesSimulation<Simulation>);

// A policy's context and view have none of them.
static_assert(!Drives<PolicyContext>);
static_assert(!Drives<const PolicyContext>);
static_assert(!Drives<PolicyView>);
static_assert(!std::is_convertible_v<PolicyView &, PolicyContext>); // no actions from a view

// Every hook is handed a context (or, for what analyses ask, a view), not the Simulation.
static_assert(std::is_same_v<decltype(&Policy::attach), void (Policy::*)(PolicyContext)>);
static_assert(std::is_same_v<decltype(&Policy::select_cpu_fork), int (Policy::*)(PolicyContext, TaskId)>);
static_assert(std::is_same_v<decltype(&Policy::select_cpu_wakeup), int (Policy::*)(PolicyContext, TaskId, int)>);
static_assert(std::is_same_v<decltype(&Policy::on_tick), void (Policy::*)(PolicyContext, int)>);
static_assert(std::is_same_v<decltype(&Policy::on_idle), void (Policy::*)(PolicyContext, int)>);
static_assert(
    std::is_same_v<decltype(&Policy::on_enqueue), void (Policy::*)(PolicyContext, TaskId, int, int, EnqueueKind)>);
static_assert(std::is_same_v<decltype(&Policy::pick_next), int (Policy::*)(PolicyContext, int)>);
static_assert(std::is_same_v<decltype(&Policy::on_switch_in), void (Policy::*)(PolicyContext, int, TaskId)>);
static_assert(std::is_same_v<decltype(&Policy::check_preempt_tick), bool (Policy::*)(PolicyContext, int)>);
static_assert(std::is_same_v<decltype(&Policy::check_preempt_wakeup), bool (Policy::*)(PolicyContext, int, TaskId)>);
static_assert(std::is_same_v<decltype(&Policy::on_hinting_fault), void (Policy::*)(PolicyContext, TaskId, int, int)>);
static_assert(std::is_same_v<decltype(&Policy::preferred_node), int (Policy::*)(PolicyView, TaskId) const>);

// Runs each task where it was forked, and logs through its context.
class LoggingPolicy final : public Policy {
public:
    std::unique_ptr<Policy> clone() const override { return std::make_unique<LoggingPolicy>(*this); }
    std::string name() const override { return "logging"; }
    ParamMap params() const override { return {}; }
    int select_cpu_fork(PolicyContext sim, TaskId t) override
    {
        sim.log(DecisionKind::Place, t, -1, 0, "placed on CPU 0 at " + std::to_string(sim.now()) + " ns");
        return 0;
    }
    int select_cpu_wakeup(PolicyContext sim, TaskId t, int) override { return sim.task(t).cpu; }
};

} // namespace

TEST_CASE("a policy's context reads and acts on the simulation it was handed", "[policy][engine]")
{
    SimConfig cfg;
    cfg.model.os_noise = 0;
    Simulation sim(std::make_shared<const Topology>(import_synthetic("pack:1 core:2 pu:1")),
                   std::make_unique<LoggingPolicy>(), cfg);
    const TaskId t = hand_built::add_spin(sim, 1.0);
    sim.start();
    sim.run_to_end();

    const PolicyView view(sim);
    CHECK(view.now() == sim.now());
    CHECK(&view.task(t) == &sim.task(t));
    CHECK(view.nr_running(0) == sim.nr_running(0));
    bool logged = false;
    for (const auto &d : sim.recording().decisions)
        logged = logged || (d.kind == DecisionKind::Place && d.task == t);
    CHECK(logged);
}

} // namespace schedscope
