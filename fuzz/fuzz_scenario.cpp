// libFuzzer target: the scenario JSON loader, its round trip and an embedded topology.
// The work is fuzz::load_scenario (fuzz_entry.h), shared with the regression test.
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    return schedscope::fuzz::run_one(schedscope::fuzz::load_scenario, data, size);
}
