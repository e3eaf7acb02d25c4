// libFuzzer target: the scenario JSON loader, its round trip and an embedded
// topology object. A topology given as a spec string is not resolved: that
// would read arbitrary files or probe the host.
#include "fuzz_common.h"
#include "scenario/scenario.h"
#include "topology/import.h"

#include <cstdlib>
#include <nlohmann/json.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace schedscope;
    fuzz::expect_value_or_input_error([&] {
        Scenario s = parse_scenario(fuzz::as_text(data, size), "fuzz.json");
        // What we save must load back as the same scenario.
        Scenario again = parse_scenario(scenario_to_json(s).dump(), "fuzz-roundtrip.json");
        if (scenario_to_json(again) != scenario_to_json(s))
            std::abort();
        if (s.topology.is_object())
            (void)import_scenario_topology(s.topology, s.source).pu_count();
    });
    return 0;
}
