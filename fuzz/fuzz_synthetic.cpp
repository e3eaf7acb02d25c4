// libFuzzer target: hwloc synthetic descriptions ("pack:2 [numa] core:4 pu:2").
#include "fuzz_common.h"
#include "topology/import.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace schedscope;
    fuzz::expect_value_or_input_error([&] { (void)import_synthetic(fuzz::as_text(data, size)).pu_count(); });
    return 0;
}
