#include "util/json_input.h"

#include "util/input_error.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

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

// A range bound as the file would write it: 1e+300, 0.01, 86400.
std::string bound(double d)
{
    std::ostringstream os;
    os << d;
    return os.str();
}

} // namespace

int line_of_offset(const std::string &text, std::size_t offset)
{
    offset = std::min(offset, text.size());
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(offset), '\n'));
}

std::string read_input_file(const std::string &path, const std::string &what)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path, "cannot open " + what);
    std::ostringstream buf;
    buf << in.rdbuf();
    if (in.bad())
        throw InputError(path, "cannot read " + what);
    return buf.str();
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

nlohmann::json JsonFieldReader::document(const std::string &text, const std::string &what,
                                         const std::set<std::string> &known) const
{
    nlohmann::json doc = parse_json_input(text, source_);
    if (!doc.is_object())
        fail("", "a " + what + " is a JSON object");
    only_keys(doc, known, "");
    return doc;
}

const nlohmann::json &JsonFieldReader::need(const nlohmann::json &obj, const std::string &key,
                                            const std::string &prefix) const
{
    if (!obj.is_object() || !obj.contains(key))
        fail(prefix + key, "missing");
    return obj.at(key);
}

std::string JsonFieldReader::string(const nlohmann::json &v, const std::string &field, Empty empty) const
{
    if (!v.is_string())
        fail(field, "expected a string");
    if (empty == Empty::Refused && v.get<std::string>().empty())
        fail(field, "must not be empty");
    return v.get<std::string>();
}

double JsonFieldReader::number(const nlohmann::json &v, const std::string &field, double lo, double hi) const
{
    if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < lo || v.get<double>() > hi)
        fail(field, "expected a number in [" + bound(lo) + ", " + bound(hi) + "], got " + v.dump());
    return v.get<double>();
}

int JsonFieldReader::whole(const nlohmann::json &v, const std::string &field, int lo, int hi) const
{
    if (!v.is_number_integer() || v.get<std::int64_t>() < lo || v.get<std::int64_t>() > hi)
        fail(field,
             "expected a whole number in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got " + v.dump());
    return static_cast<int>(v.get<std::int64_t>());
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
