// libFuzzer target: schedscope's .topo sample format.
// The work is fuzz::load_sample_text (fuzz_entry.h), shared with the regression test.
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    return schedscope::fuzz::run_one(schedscope::fuzz::load_sample_text, data, size);
}
