// libFuzzer target: hwloc-gather-topology tarballs, the extractor's checks,
// libarchive's decoders and hwloc's Linux backend on whatever was unpacked.
// The work is fuzz::load_snapshot_archive (fuzz_entry.h), shared with the regression test.
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    return schedscope::fuzz::run_one(schedscope::fuzz::load_snapshot_archive, data, size);
}
