// libFuzzer target: the `numactl --hardware` text importer.
#include "fuzz_common.h"
#include "topology/import.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace schedscope;
    fuzz::expect_value_or_input_error([&] {
        Topology t = import_numactl(fuzz::as_text(data, size), "fuzz.txt");
        (void)t.pu_count();
    });
    return 0;
}
