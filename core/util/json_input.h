#pragma once
// Parsing JSON from a user's file. nlohmann::json::parse reports a syntax
// error as parse_error but a number too large for a double ("1e5555") as
// out_of_range; every loader caught only the first, so the second escaped as
// an unexpected exception (found by fuzz_scenario). Both become an
// InputError naming the source and the line here.

#include <nlohmann/json.hpp>

#include <string>

namespace schedscope {

// 1-based line of the byte at `offset` (clamped to the text).
int line_of_offset(const std::string &text, std::size_t offset);

// Throws InputError(source, line, {}, "not valid JSON: ...").
nlohmann::json parse_json_input(const std::string &text, const std::string &source);

} // namespace schedscope
