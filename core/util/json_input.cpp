#include "util/json_input.h"

#include "util/input_error.h"

#include <algorithm>

namespace schedscope {

namespace {

// nlohmann's what() starts with "[json.exception.parse_error.101] ".
std::string detail(const nlohmann::json::exception &e)
{
    const std::string what = e.what();
    const auto space = what.find(' ');
    return space == std::string::npos ? what : what.substr(space + 1);
}

// out_of_range carries no position, but names the number it could not hold
// ("number overflow parsing '1e5555'"): its first occurrence gives the line.
int line_of_quoted_token(const std::string &text, const std::string &message)
{
    const auto open = message.find('\'');
    const auto close = message.rfind('\'');
    if (open == std::string::npos || close <= open + 1)
        return 0;
    const auto at = text.find(message.substr(open + 1, close - open - 1));
    return at == std::string::npos ? 0 : line_of_offset(text, at);
}

} // namespace

int line_of_offset(const std::string &text, std::size_t offset)
{
    offset = std::min(offset, text.size());
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(offset), '\n'));
}

nlohmann::json parse_json_input(const std::string &text, const std::string &source)
{
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error &e) {
        // e.byte is 1-based and points just past the problem.
        throw InputError(source, line_of_offset(text, e.byte > 0 ? e.byte - 1 : 0), {}, "not valid JSON: " + detail(e));
    } catch (const nlohmann::json::out_of_range &e) {
        throw InputError(source, line_of_quoted_token(text, detail(e)), {},
                         "not valid JSON: " + detail(e) + " (too large for a double)");
    } catch (const nlohmann::json::exception &e) {
        throw InputError(source, 0, {}, "not valid JSON: " + detail(e));
    }
}

void JsonFieldReader::fail(const std::string &field, const std::string &msg) const
{
    throw InputError(source_, 0, field, msg);
}

std::map<std::string, std::string> JsonFieldReader::params(const nlohmann::json &v, const std::string &field) const
{
    std::map<std::string, std::string> out;
    if (v.is_null())
        return out;
    if (!v.is_object())
        fail(field, "expected an object of parameter values");
    for (auto &[k, val] : v.items()) {
        if (val.is_string())
            out[k] = val.get<std::string>();
        else if (val.is_number() || val.is_boolean())
            out[k] = val.dump();
        else
            fail(field + "." + k, "expected a string or a number");
    }
    return out;
}

void JsonFieldReader::only_keys(const nlohmann::json &obj, const std::set<std::string> &known,
                                const std::string &prefix) const
{
    if (!obj.is_object())
        fail(prefix.empty() ? "" : prefix.substr(0, prefix.size() - 1), "expected an object");
    for (auto &[k, v] : obj.items())
        if (!known.count(k))
            fail(prefix + k, "unknown field");
}

} // namespace schedscope
