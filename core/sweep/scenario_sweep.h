#pragma once
// A sweep over a scenario: the scenario's machine, workload, seed, duration
// and model, one policy, one of its parameters varied. The runner behind it
// is the scenario run driver (scenario/run.h).

#include "scenario/scenario.h"
#include "sweep/sweep.h"

#include <memory>

namespace schedscope {

// `policy` is the policy to sweep with its fixed parameters; `param` must be
// one of its parameters. Repeat 0 = the scenario's repeat. Throws InputError
// for an unknown policy or parameter, or a bad value, before any run starts.
SweepResult sweep_scenario(const Scenario &s, const PolicySpec &policy, const std::string &param,
                           const std::vector<std::string> &values, int repeat = 0, unsigned threads = 0,
                           const std::function<void(int done, int total)> &progress = {});

// The checks and the spec of sweep_scenario without running it.
SweepSpec scenario_sweep_spec(const Scenario &s, const PolicySpec &policy, const std::string &param,
                              const std::vector<std::string> &values, int repeat = 0);

// One point of that spec (numbered as sweep.h says), the run sweep_scenario
// makes for it. Throws InputError when the run does not finish its work.
SweepRun run_scenario_sweep_point(const Scenario &s, const SweepSpec &spec, std::size_t point,
                                  const std::shared_ptr<const Topology> &topo);

} // namespace schedscope
