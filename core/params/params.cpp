#include "params/params.h"

#include "params/param_table.h"

#include "util/input_error.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace schedscope {

std::pair<std::string, ParamMap> parse_name_params(const std::string &text, const std::string &source)
{
    const auto colon = text.find(':');
    std::string name = text.substr(0, colon);
    if (name.empty())
        throw InputError(source, "missing name in '" + text + "'");
    ParamMap params;
    if (colon == std::string::npos)
        return {name, params};
    std::string rest = text.substr(colon + 1);
    size_t pos = 0;
    while (pos <= rest.size()) {
        size_t comma = rest.find(',', pos);
        std::string item = rest.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        if (!item.empty()) {
            auto eq = item.find('=');
            if (eq == std::string::npos || eq == 0)
                throw InputError(source, "expected key=value, got '" + item + "' in '" + text + "'");
            std::string key = item.substr(0, eq);
            if (params.count(key))
                throw InputError(source, 0, key, "given twice in '" + text + "'");
            params[key] = item.substr(eq + 1);
        }
        if (comma == std::string::npos)
            break;
        pos = comma + 1;
    }
    return {name, params};
}

double param_double(const ParamMap &p, const std::string &key, double def, double lo, double hi,
                    const std::string &source)
{
    auto it = p.find(key);
    return it == p.end() ? def : parse_real(it->second, key, lo, hi, source);
}

std::int64_t param_int(const ParamMap &p, const std::string &key, std::int64_t def, std::int64_t lo, std::int64_t hi,
                       const std::string &source)
{
    auto it = p.find(key);
    return it == p.end() ? def : parse_integer(it->second, key, lo, hi, source);
}

std::string real_text(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

double parse_real(const std::string &s, const std::string &key, double lo, double hi, const std::string &source)
{
    double v = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || ptr != s.data() + s.size() || !std::isfinite(v))
        throw InputError(source, 0, key, "'" + s + "' is not a number");
    if (v < lo || v > hi)
        throw InputError(source, 0, key,
                         s + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return v;
}

std::int64_t parse_integer(const std::string &s, const std::string &key, std::int64_t lo, std::int64_t hi,
                           const std::string &source)
{
    std::int64_t v = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || ptr != s.data() + s.size())
        throw InputError(source, 0, key, "'" + s + "' is not a whole number");
    if (v < lo || v > hi)
        throw InputError(source, 0, key,
                         s + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return v;
}

void require_in_range(std::int64_t v, std::int64_t lo, std::int64_t hi, const std::string &key,
                      const std::string &source)
{
    if (v < lo || v > hi)
        throw InputError(source, 0, key,
                         std::to_string(v) + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) +
                             "]");
}

std::string param_choice(const ParamMap &p, const std::string &key, const std::string &def,
                         const std::vector<std::string> &choices, const std::string &source)
{
    auto it = p.find(key);
    if (it == p.end())
        return def;
    for (auto &c : choices)
        if (c == it->second)
            return c;
    std::string list;
    for (auto &c : choices)
        list += (list.empty() ? "" : ", ") + c;
    throw InputError(source, 0, key, "'" + it->second + "' is not one of: " + list);
}

namespace {
// A table cell: no line breaks, and '|' escaped so it does not end the cell.
std::string cell(const std::string &s)
{
    std::string out;
    for (char c : s) {
        if (c == '|')
            out += "\\|";
        else
            out += c == '\n' ? ' ' : c;
    }
    return out;
}
} // namespace

std::string params_markdown_table(const std::vector<ParamInfo> &params)
{
    if (params.empty())
        return "No parameters of its own.\n";
    std::string out = "| parameter | default | range | unit | meaning |\n|---|---|---|---|---|\n";
    for (size_t i = 0; i < params.size();) {
        const ParamInfo &p = params[i];
        if (p.group.empty()) {
            out += "| `" + p.name + "` | " + cell(p.default_value.empty() ? "(none)" : p.default_value) + " | " +
                   cell(p.range) + " | " + cell(p.unit) + " | " + cell(p.description) + " |\n";
            ++i;
            continue;
        }
        std::string names;
        for (; i < params.size() && params[i].group == p.group; ++i)
            names += (names.empty() ? "`" : ", `") + params[i].name + "`";
        out += "| " + names + " | | | | " + cell(p.group) + " |\n";
    }
    return out;
}

void check_param_names(const ParamMap &p, const std::vector<ParamInfo> &known, const std::string &what,
                       const std::string &source)
{
    for (auto &[k, v] : p) {
        bool ok = false;
        for (auto &i : known)
            ok = ok || i.name == k;
        if (!ok) {
            std::string names;
            for (auto &i : known)
                names += (names.empty() ? "" : ", ") + i.name;
            throw InputError(source, 0, k,
                             "unknown parameter of " + what + " (known: " + (names.empty() ? "none" : names) + ")");
        }
    }
}

} // namespace schedscope
