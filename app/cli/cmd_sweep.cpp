// schedscope-cli sweep --scenario FILE --policy P --param NAME=V1,V2,...
// [--repeat K] [--json FILE]: one policy parameter varied over a scenario,
// tabulated relative to the first value = 100 with idle time beside it.

#include "command.h"
#include "run_progress.h"

#include "catalog/catalog.h"
#include "scenario/scenario.h"
#include "sweep/scenario_sweep.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

#include <nlohmann/json.hpp>

#include <iostream>

namespace schedscope::cli {

namespace {

struct SweepArgs {
    std::string scenario_file, policy, param, json_file;
    int repeat = 0;
    unsigned jobs = 0;
};

int sweep_command(const SweepArgs &a)
{
    Scenario s = load_scenario(a.scenario_file);
    PolicySpec policy;
    if (!a.policy.empty()) {
        auto [name, params] = parse_name_params(a.policy, "--policy");
        policy = PolicySpec{name, params};
    } else if (!s.policies.empty()) {
        policy = s.policies.front();
    } else {
        throw InputError("--policy", "no policy: give --policy NAME or a scenario with policies");
    }
    const auto eq = a.param.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 >= a.param.size())
        throw InputError("--param", "expected NAME=V1,V2,..., got '" + a.param + "'");
    const std::string name = a.param.substr(0, eq);
    const auto values = split_values(a.param.substr(eq + 1), "--param");

    const SigintStop stop_on_ctrl_c;
    const int repeat = a.repeat > 0 ? a.repeat : std::max(1, s.repeat);
    ProgressBoard board(values.size() * static_cast<size_t>(repeat));
    size_t reported = 0;
    const SweepResult r = sweep_scenario(s, policy, name, values, repeat, a.jobs, [&](int done, int) {
        // Runs report only when they end; mark the finished ones as whole.
        while (reported < static_cast<size_t>(done))
            board.update(reported++, 1.0);
    });
    board.finish();
    std::cout << s.name << ": " << policy.name << ", " << name << " swept over " << s.workload.name << "\n"
              << sweep_table(r);
    if (!a.json_file.empty()) {
        nlohmann::json j = sweep_json(r);
        j["scenario"] = s.name;
        j["workload"] = s.workload.name;
        write_file_atomically(a.json_file, j.dump(2) + "\n");
    }
    return interrupted() ? kExitFailure : kExitOk;
}

const CommandRegistrar registrar{Command{
    "sweep",
    [](CLI::App &app) -> std::function<int()> {
        auto args = std::make_shared<SweepArgs>();
        auto *sub = app.add_subcommand("sweep",
                                       "Vary one policy parameter over a scenario, relative to the first value");
        sub->add_option("--scenario", args->scenario_file, "Scenario JSON file")->required();
        sub->add_option("--policy", args->policy, "NAME[:key=value,...] (default: the scenario's first policy)");
        sub->add_option("--param", args->param, "NAME=V1,V2,... (the first value is the 100.0 reference)")->required();
        sub->add_option("--repeat", args->repeat, "Runs per value, seeds seed..seed+K-1 (default: the scenario's)")
            ->check(CLI::Range(1, 1000));
        sub->add_option("--json", args->json_file, "Write the table as JSON to FILE (atomically)");
        sub->add_option("--jobs", args->jobs, "Runs in parallel (default: number of cores)")->check(kWholeNumber64);
        return [args] { return sweep_command(*args); };
    },
}};

} // namespace

} // namespace schedscope::cli
