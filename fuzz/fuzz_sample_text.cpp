// libFuzzer target: schedscope's .topo sample format and the content sniffing
// of import_text (which hands each kind to its importer).
#include "fuzz_common.h"
#include "topology/import.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace schedscope;
    const std::string text = fuzz::as_text(data, size);
    fuzz::expect_value_or_input_error([&] { (void)import_sample_text(text, "fuzz.topo").pu_count(); });
    return 0;
}
