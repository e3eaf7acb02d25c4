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

} // namespace schedscope
