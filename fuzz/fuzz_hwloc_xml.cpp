// libFuzzer target: hwloc XML (v1 and v2), the precheck and hwloc's parser.
#include "fuzz_common.h"
#include "topology/import.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace schedscope;
    fuzz::expect_value_or_input_error(
        [&] { (void)import_hwloc_xml(fuzz::as_text(data, size), "fuzz.xml").pu_count(); });
    return 0;
}
