// libFuzzer target: hwloc XML (v1 and v2), the precheck and hwloc's parser.
// The work is fuzz::load_hwloc_xml (fuzz_entry.h), shared with the regression test.
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    return schedscope::fuzz::run_one(schedscope::fuzz::load_hwloc_xml, data, size);
}
