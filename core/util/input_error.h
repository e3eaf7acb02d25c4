#pragma once
// Bad input from a user's file, string or parameter. Carries where it came
// from so that every front end can print one line naming the source, the line
// (or field) and what was wrong. The CLI maps it to exit code 2.

#include <stdexcept>
#include <string>

namespace schedscope {

class InputError : public std::runtime_error {
public:
    // source: a file path, "synthetic:...", "scenario.json", "--policy" ...
    // line: 1-based line number, 0 when not applicable
    // field: a JSON path or parameter name, empty when not applicable
    InputError(std::string source, int line, std::string field, const std::string &message)
        : std::runtime_error(format(source, line, field, message)), source_(std::move(source)), line_(line),
          field_(std::move(field)), message_(message)
    {
    }
    InputError(std::string source, const std::string &message) : InputError(std::move(source), 0, {}, message) {}

    const std::string &source() const { return source_; }
    int line() const { return line_; }
    const std::string &field() const { return field_; }
    const std::string &message() const { return message_; }

private:
    static std::string format(const std::string &source, int line, const std::string &field, const std::string &message)
    {
        std::string s = source;
        if (line > 0)
            s += ":" + std::to_string(line);
        if (!field.empty())
            s += (s.empty() ? "" : ": ") + std::string("field '") + field + "'";
        if (!s.empty())
            s += ": ";
        return s + message;
    }
    std::string source_;
    int line_;
    std::string field_;
    std::string message_;
};

} // namespace schedscope
