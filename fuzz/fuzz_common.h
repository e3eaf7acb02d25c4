#pragma once
// Shared by the libFuzzer targets: every entry's contract (fuzz_entry.h) is
// "loads, or throws InputError". Any other exception escapes the target and
// libFuzzer reports it as a crash, like a sanitizer finding.

#include "fuzz_entry.h"
#include "util/input_error.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace schedscope::fuzz {

inline int run_one(void (*load)(const std::string &), const std::uint8_t *data, std::size_t size)
{
    try {
        load(std::string(reinterpret_cast<const char *>(data), size));
    } catch (const InputError &) {
        // The documented way to refuse bad input.
    }
    return 0;
}

} // namespace schedscope::fuzz
