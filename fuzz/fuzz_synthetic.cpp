// libFuzzer target: hwloc synthetic descriptions ("pack:2 [numa] core:4 pu:2").
// The work is fuzz::load_synthetic (fuzz_entry.h), shared with the regression test.
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    return schedscope::fuzz::run_one(schedscope::fuzz::load_synthetic, data, size);
}
