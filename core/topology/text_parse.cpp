#include "topology/text_parse.h"

#include <cctype>
#include <limits>
#include <sstream>

namespace schedscope {

std::vector<TextLine> split_lines(const std::string &text)
{
    std::vector<TextLine> out;
    int number = 1;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos)
            end = text.size();
        std::string line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (!(end == text.size() && line.empty()))
            out.push_back({number, std::move(line)});
        ++number;
        start = end + 1;
    }
    return out;
}

std::string trim(const std::string &s)
{
    size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b])))
        ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])))
        --e;
    return s.substr(b, e - b);
}

std::vector<std::string> split_ws(const std::string &s)
{
    std::istringstream in(s);
    std::vector<std::string> out;
    for (std::string t; in >> t;)
        out.push_back(t);
    return out;
}

bool starts_with(const std::string &s, const std::string &prefix) { return s.rfind(prefix, 0) == 0; }

std::optional<int> parse_int(const std::string &s)
{
    if (s.empty() || s.size() > 9)
        return std::nullopt;
    int v = 0;
    for (char c : s) {
        if (!std::isdigit(static_cast<unsigned char>(c)))
            return std::nullopt;
        v = v * 10 + (c - '0');
    }
    return v;
}

std::optional<std::uint64_t> parse_size_bytes(const std::string &s)
{
    size_t i = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])))
        ++i;
    if (i == 0 || i > 15)
        return std::nullopt;
    std::uint64_t value = std::stoull(s.substr(0, i));
    const std::string unit = s.substr(i);
    struct Unit {
        const char *name;
        std::uint64_t factor;
    };
    static const Unit units[] = {
        {"", 1},
        {"B", 1},
        {"KB", 1000ull},
        {"MB", 1000ull * 1000},
        {"GB", 1000ull * 1000 * 1000},
        {"TB", 1000ull * 1000 * 1000 * 1000},
        {"KiB", 1ull << 10},
        {"MiB", 1ull << 20},
        {"GiB", 1ull << 30},
        {"TiB", 1ull << 40},
    };
    for (const auto &u : units)
        if (unit == u.name) {
            if (value > std::numeric_limits<std::uint64_t>::max() / u.factor)
                return std::nullopt;
            return value * u.factor;
        }
    return std::nullopt;
}

std::optional<std::vector<int>> parse_int_list(const std::string &s)
{
    std::vector<int> out;
    std::string normalised = s;
    for (char &c : normalised)
        if (c == ',')
            c = ' ';
    // Bound on one range so "0-2000000000" cannot exhaust memory.
    constexpr int kMaxRangeLength = 1 << 20;
    for (const auto &tok : split_ws(normalised)) {
        auto dash = tok.find('-');
        if (dash == std::string::npos) {
            auto v = parse_int(tok);
            if (!v)
                return std::nullopt;
            out.push_back(*v);
            continue;
        }
        auto a = parse_int(tok.substr(0, dash)), b = parse_int(tok.substr(dash + 1));
        if (!a || !b || *b < *a || *b - *a > kMaxRangeLength)
            return std::nullopt;
        for (int v = *a; v <= *b; ++v)
            out.push_back(v);
    }
    return out;
}

} // namespace schedscope
