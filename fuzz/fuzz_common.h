#pragma once
// Shared by the libFuzzer targets: every importer's contract is "returns a
// Topology or throws InputError". Any other exception escapes the target and
// libFuzzer reports it as a crash, like a sanitizer finding.

#include "util/input_error.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace schedscope::fuzz {

inline std::string as_text(const std::uint8_t *data, std::size_t size)
{
    return std::string(reinterpret_cast<const char *>(data), size);
}

template <class F>
void expect_value_or_input_error(F &&f)
{
    try {
        f();
    } catch (const InputError &) {
        // The documented way to refuse bad input.
    }
}

} // namespace schedscope::fuzz
