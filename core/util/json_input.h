#pragma once
// Parsing JSON from a user's file. nlohmann::json::parse reports a syntax
// error as parse_error but a number too large for a double ("1e5555") as
// out_of_range; every loader caught only the first, so the second escaped as
// an unexpected exception (found by fuzz_scenario). Both become an
// InputError naming the source and the line here.

#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <string>

namespace schedscope {

// 1-based line of the byte at `offset` (clamped to the text).
int line_of_offset(const std::string &text, std::size_t offset);

// The whole of a user's file; InputError(path, "cannot open " + what) when
// it cannot be opened or read.
std::string read_input_file(const std::string &path, const std::string &what);

// Throws InputError(source, line, {}, "not valid JSON: ...").
nlohmann::json parse_json_input(const std::string &text, const std::string &source);

// The checks every reader of our JSON files shares (scenarios, published
// experiments); each failure is an InputError naming the source and the
// field's path ("policies[1].params.x").
class JsonFieldReader {
public:
    explicit JsonFieldReader(std::string source) : source_(std::move(source)) {}

    const std::string &source() const { return source_; }
    [[noreturn]] void fail(const std::string &field, const std::string &msg) const;

    // `text` parsed as this source's document: a JSON object (else "a
    // `what` is a JSON object") holding no key outside `known`.
    nlohmann::json document(const std::string &text, const std::string &what, const std::set<std::string> &known) const;
    // obj[key], or "missing" naming prefix + key.
    const nlohmann::json &need(const nlohmann::json &obj, const std::string &key, const std::string &prefix) const;
    // An empty string is refused unless the field may be empty (a name or a
    // note that says nothing).
    enum class Empty { Refused, Allowed };
    std::string string(const nlohmann::json &v, const std::string &field, Empty empty = Empty::Refused) const;
    // A finite number in [lo, hi]; anything else (a string, NaN's null, a
    // value out of range) is one message naming the range and the value.
    double number(const nlohmann::json &v, const std::string &field, double lo, double hi) const;
    // The same for a whole number (2.0 is not one).
    int whole(const nlohmann::json &v, const std::string &field, int lo, int hi) const;
    // Parameter values are strings; numbers and booleans are accepted and
    // kept in their JSON spelling, so "2.5" and 2.5 mean the same. Null is
    // no parameters.
    std::map<std::string, std::string> params(const nlohmann::json &v, const std::string &field) const;
    // `obj` must be an object holding no key outside `known`. `prefix` is
    // the object's own path with a trailing '.', or empty for the document.
    void only_keys(const nlohmann::json &obj, const std::set<std::string> &known, const std::string &prefix) const;

protected:
    std::string source_;
};

} // namespace schedscope
