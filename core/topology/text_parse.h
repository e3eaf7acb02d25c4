#pragma once
// Small helpers shared by the line-oriented importers (numactl, sample
// format): lines with their 1-based numbers, whitespace tokens, strict
// integer and size parsing.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace schedscope {

struct TextLine {
    int number = 0;   // 1-based
    std::string text; // without the newline, trailing '\r' removed
};

std::vector<TextLine> split_lines(const std::string &text);
std::string trim(const std::string &s);
std::vector<std::string> split_ws(const std::string &s);
bool starts_with(const std::string &s, const std::string &prefix);

// Whole-string non-negative decimal integer that fits in an int.
std::optional<int> parse_int(const std::string &s);
// "32GiB", "2MB", "512KiB", "1024" (bytes); KB/MB/GB/TB are 10^3 steps, KiB.. 2^10
// steps, the way hwloc's synthetic attributes read them.
std::optional<std::uint64_t> parse_size_bytes(const std::string &s);
// "0-3,8,10-11" or "0 5 6 7": the numactl and taskset list syntaxes.
std::optional<std::vector<int>> parse_int_list(const std::string &s);

} // namespace schedscope
