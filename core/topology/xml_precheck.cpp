#include "topology/xml_precheck.h"

#include "topology/topology.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>
#include <vector>

namespace schedscope {

namespace {

bool ends_with(const std::string &s, const char *suffix)
{
    const std::string x = suffix;
    return s.size() >= x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0;
}

// hwloc's bitmap syntax as its exports write it: "0xf...f" (an infinite set)
// and/or comma-separated words of hex digits ("0x00000003"; "0x1,,0x0", an
// empty word being zero), never starting or ending with a comma. hwloc 2.9
// crashes (SIGSEGV) when it cannot read the root's complete_cpuset ("/0x3",
// "0x3,", found by fuzz_hwloc_xml): every set is checked here instead.
bool is_hwloc_bitmap(std::string v)
{
    const std::string infinite = "0xf...f";
    if (v.compare(0, infinite.size(), infinite) == 0) {
        v.erase(0, infinite.size());
        if (v.empty())
            return true;
        if (v.front() != ',')
            return false;
        v.erase(0, 1);
    }
    if (v.empty() || v.front() == ',' || v.back() == ',')
        return false;
    std::size_t start = 0;
    while (start <= v.size()) {
        std::size_t end = v.find(',', start);
        if (end == std::string::npos)
            end = v.size();
        std::string word = v.substr(start, end - start);
        if (word.compare(0, 2, "0x") == 0)
            word.erase(0, 2);
        else if (word.empty() && end - start > 0)
            return false;
        if (end - start > 0 &&
            (word.empty() || !std::all_of(word.begin(), word.end(), [](unsigned char c) { return std::isxdigit(c); })))
            return false;
        start = end + 1;
    }
    return true;
}

class Scanner {
public:
    explicit Scanner(const std::string &text) : s_(text) {}

    XmlCheck run()
    {
        while (pos_ < s_.size() && r_.error.empty()) {
            char c = s_[pos_];
            if (c == '<')
                markup();
            else if (c == '\0')
                fail("binary content (NUL byte)");
            else {
                if (!std::isspace(static_cast<unsigned char>(c)) && open_.empty())
                    fail(seen_root_ ? "text after the closing </topology>" : "text before the first element");
                advance();
            }
        }
        if (r_.error.empty()) {
            if (!seen_root_)
                fail("no XML element found");
            else if (!open_.empty())
                fail("document ends before <" + open_.back().name + "> (line " + std::to_string(open_.back().line) +
                     ") is closed: truncated file?");
        }
        if (r_.version_major == 0)
            r_.version_major = 1;
        return r_;
    }

private:
    struct Open {
        std::string name;
        int line;
        int child_objects = 0;
    };

    void advance()
    {
        if (s_[pos_] == '\n')
            ++line_;
        ++pos_;
    }
    void fail(const std::string &what)
    {
        if (r_.error.empty()) {
            r_.error = what;
            r_.error_line = line_;
        }
    }
    bool starts(const char *p) const { return s_.compare(pos_, std::char_traits<char>::length(p), p) == 0; }
    // Moves past `end`; false at end of input.
    bool skip_past(const std::string &end)
    {
        while (pos_ < s_.size()) {
            if (s_.compare(pos_, end.size(), end) == 0) {
                pos_ += end.size();
                return true;
            }
            advance();
        }
        return false;
    }
    std::string name()
    {
        std::string n;
        while (pos_ < s_.size()) {
            unsigned char c = s_[pos_];
            if (!(std::isalnum(c) || c == '_' || c == '-' || c == '.' || c == ':'))
                break;
            n += static_cast<char>(c);
            ++pos_;
        }
        return n;
    }
    void skip_space()
    {
        while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_])))
            advance();
    }

    void markup()
    {
        int start_line = line_;
        if (starts("<?")) {
            const std::size_t start = pos_;
            if (!skip_past("?>"))
                return fail("unterminated <? ... ?> declaration");
            check_encoding(s_.substr(start, pos_ - start));
        } else if (starts("<!--")) {
            if (!skip_past("-->"))
                fail("unterminated comment started on line " + std::to_string(start_line));
        } else if (starts("<!")) {
            if (!skip_past(">"))
                fail("unterminated <! declaration");
        } else if (starts("</")) {
            pos_ += 2;
            std::string n = name();
            skip_space();
            if (pos_ >= s_.size() || s_[pos_] != '>')
                return fail("malformed closing tag </" + n + ">");
            ++pos_;
            if (open_.empty())
                return fail("closing tag </" + n + "> without an opening tag");
            if (open_.back().name != n)
                return fail("closing tag </" + n + "> does not match <" + open_.back().name + "> opened on line " +
                            std::to_string(open_.back().line));
            open_.pop_back();
        } else {
            element(start_line);
        }
    }

    void element(int start_line)
    {
        ++pos_;
        std::string n = name();
        if (n.empty())
            return fail("'<' not followed by an element name");
        if (open_.empty()) {
            if (seen_root_)
                return fail("a second top-level element <" + n + ">");
            seen_root_ = true;
            if (n != "topology")
                return fail("root element is <" + n + ">, not <topology>");
        }
        const bool is_root = open_.empty();
        if (n == "object" && !count_object())
            return;
        std::vector<std::string> attrs;
        std::string type;
        while (true) {
            skip_space();
            if (pos_ >= s_.size())
                return fail("document ends inside the tag <" + n + "> started on line " + std::to_string(start_line));
            if (starts("/>")) {
                pos_ += 2;
                return check_object(n, type, attrs, start_line);
            }
            if (s_[pos_] == '>') {
                ++pos_;
                open_.push_back({n, start_line});
                return check_object(n, type, attrs, start_line);
            }
            int attr_line = line_;
            std::string attr = name();
            if (attr.empty())
                return fail("unexpected character '" + std::string(1, s_[pos_]) + "' in tag <" + n + ">");
            skip_space();
            if (pos_ >= s_.size() || s_[pos_] != '=')
                return fail("attribute '" + attr + "' of <" + n + "> has no value");
            ++pos_;
            skip_space();
            if (pos_ >= s_.size() || (s_[pos_] != '"' && s_[pos_] != '\''))
                return fail("value of attribute '" + attr + "' is not quoted");
            char quote = s_[pos_++];
            size_t value_start = pos_;
            if (!skip_past(std::string(1, quote)))
                return fail("unterminated value of attribute '" + attr + "'");
            attrs.push_back(attr);
            if (ends_with(attr, "cpuset") || ends_with(attr, "nodeset")) {
                const std::string value = s_.substr(value_start, pos_ - 1 - value_start);
                if (!is_hwloc_bitmap(value))
                    return fail("attribute '" + attr + "' of <" + n + "> is not an hwloc bitmap: '" +
                                value.substr(0, 40) + "'");
            }
            if (attr == "type")
                type = s_.substr(value_start, pos_ - 1 - value_start);
            if (is_root && attr == "version") {
                r_.version = s_.substr(value_start, pos_ - 1 - value_start);
                r_.version_line = attr_line;
                r_.version_major = std::atoi(r_.version.c_str());
            }
        }
    }

    // hwloc's time to load grows with fan-out squared (topology.h): a file of
    // thousands of sibling objects would take it minutes.
    bool count_object()
    {
        if (open_.empty())
            return true; // <object> as the root is refused elsewhere
        Open &parent = open_.back();
        if (++parent.child_objects > kMaxHwlocFanout) {
            fail("<" + parent.name + "> opened on line " + std::to_string(parent.line) + " has more than " +
                 std::to_string(kMaxHwlocFanout) + " child objects");
            return false;
        }
        if (++objects_ > kMaxObjects) {
            fail("more than " + std::to_string(kMaxObjects) + " objects");
            return false;
        }
        return true;
    }

    // hwloc writes UTF-8. An encoding libxml2 does not know ("UTF-9") makes
    // it leak inside hwloc's XML plugin (found by fuzz_hwloc_xml).
    void check_encoding(const std::string &declaration)
    {
        const auto at = declaration.find("encoding");
        if (declaration.compare(0, 5, "<?xml") != 0 || at == std::string::npos)
            return;
        const auto open = declaration.find_first_of("\"'", at);
        if (open == std::string::npos)
            return;
        const auto close = declaration.find(declaration[open], open + 1);
        std::string name = declaration.substr(open + 1,
                                              close == std::string::npos ? std::string::npos : close - open - 1);
        for (char &c : name)
            c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        for (const char *known : {"UTF-8", "UTF8", "US-ASCII", "ASCII", "ISO-8859-1", "LATIN1"})
            if (name == known)
                return;
        fail("encoding '" + name.substr(0, 40) + "' (hwloc writes UTF-8)");
    }

    // hwloc writes an object's cpuset with its complete_cpuset and its
    // nodeset with its complete_nodeset, always. hwloc 2.9 dereferences a
    // null bitmap (SIGSEGV) when a v2 object below the root has the one
    // without the other (found by fuzz_hwloc_xml): refused here instead.
    void check_object(const std::string &element, const std::string &type, const std::vector<std::string> &attrs,
                      int start_line)
    {
        if (element != "object")
            return;
        if (type == "PU" && ++pus_ > kMaxHwlocPus)
            return fail("more than " + std::to_string(kMaxHwlocPus) + " PUs (the largest machine schedscope loads)");
        auto has = [&](const char *a) { return std::find(attrs.begin(), attrs.end(), a) != attrs.end(); };
        for (const char *set : {"cpuset", "nodeset"}) {
            const std::string complete = std::string("complete_") + set;
            if (has(set) && !has(complete.c_str()) && r_.error.empty()) {
                r_.error = "<object> has a " + std::string(set) + " but no " + complete +
                           " (every file hwloc writes has both)";
                r_.error_line = start_line;
            }
        }
    }

    const std::string &s_;
    size_t pos_ = 0;
    int line_ = 1;
    bool seen_root_ = false;
    std::vector<Open> open_;
    int pus_ = 0;
    int objects_ = 0;
    // An 8192-PU machine with a core and three caches per PU is about 40 000.
    static constexpr int kMaxObjects = 8 * kMaxHwlocPus;
    XmlCheck r_;
};

} // namespace

XmlCheck precheck_hwloc_xml(const std::string &text) { return Scanner(text).run(); }

} // namespace schedscope
