#pragma once
// A policy's or workload's parameters, declared once: one ParamTable per
// parameter struct lists each parameter's name, range or choices, unit, help
// and the member it sets (after ns-3's attribute declarations). The default
// is the member's own initialiser (or the prototype the table is built
// with). Parsing, validation, the effective-value map (Policy::params()),
// `schedscope-cli list` and the tables in docs/policies.md and
// docs/workloads.md are all read from it.
//
// Parsing refuses a name the table does not declare (listing those it does),
// a value out of range or not among the choices (naming the parameter), and
// a parameter given where it does not apply (`when`).

#include "params/params.h"
#include "util/input_error.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace schedscope {

// The text of a real value in listings and params(): up to 10 significant
// digits, no trailing zeros ("2.5", "100", "593.75").
std::string real_text(double v);
// One value given as text, checked; throw InputError naming source and key.
double parse_real(const std::string &text, const std::string &key, double lo, double hi, const std::string &source);
std::int64_t parse_integer(const std::string &text, const std::string &key, std::int64_t lo, std::int64_t hi,
                           const std::string &source);
// A value a build step checks against the machine (a node number, a CPU).
void require_in_range(std::int64_t v, std::int64_t lo, std::int64_t hi, const std::string &key,
                      const std::string &source);

template <class T> class ParamTable {
public:
    struct Field {
        ParamInfo info;
        // Parses the text (range, choices) into the object.
        std::function<void(T &, const std::string &text, const std::string &source)> set;
        // The effective value's text; nullopt: not set, not written.
        std::function<std::optional<std::string>(const T &)> get;
        // Applies only when this holds of the parsed object (null: always);
        // given otherwise, it is refused as applying to `applies_note` only.
        std::function<bool(const T &)> applies;
        std::string applies_note;
        // Written by write() only when this holds (null: always).
        std::function<bool(const T &)> written;
    };
    // A check across parameters, run after every given value is set.
    using Check = std::function<void(T &, const ParamMap &given, const std::string &source)>;

    explicit ParamTable(T prototype = T{}) : prototype_(std::move(prototype)) {}

    // Any number type member; `unit` is "" when the name says it all.
    template <class M>
    ParamTable &integer(std::string name, M T::*member, std::int64_t lo, std::int64_t hi, std::string unit,
                        std::string help)
    {
        return integer_with(
            std::move(name), [member](T &t, std::int64_t v) { t.*member = static_cast<M>(v); },
            [member](const T &t) { return std::optional<std::int64_t>(static_cast<std::int64_t>(t.*member)); }, lo, hi,
            std::move(unit), std::move(help));
    }
    ParamTable &integer_with(std::string name, std::function<void(T &, std::int64_t)> assign,
                             std::function<std::optional<std::int64_t>(const T &)> read, std::int64_t lo,
                             std::int64_t hi, std::string unit, std::string help)
    {
        const std::string range = std::to_string(lo) + " to " + std::to_string(hi);
        return text_field(
            {std::move(name), "", std::move(help), std::move(unit), range},
            [assign, lo, hi](T &t, const std::string &s, const std::string &key, const std::string &source) {
                assign(t, parse_integer(s, key, lo, hi, source));
            },
            [read](const T &t) -> std::optional<std::string> {
                auto v = read(t);
                return v ? std::optional<std::string>(std::to_string(*v)) : std::nullopt;
            });
    }
    template <class M>
    ParamTable &real(std::string name, M T::*member, double lo, double hi, std::string unit, std::string help)
    {
        return real_with(
            std::move(name), [member](T &t, double v) { t.*member = static_cast<M>(v); },
            [member](const T &t) { return std::optional<double>(static_cast<double>(t.*member)); }, lo, hi,
            std::move(unit), std::move(help));
    }
    ParamTable &real_with(std::string name, std::function<void(T &, double)> assign,
                          std::function<std::optional<double>(const T &)> read, double lo, double hi, std::string unit,
                          std::string help)
    {
        const std::string range = real_text(lo) + " to " + real_text(hi);
        return text_field(
            {std::move(name), "", std::move(help), std::move(unit), range},
            [assign, lo, hi](T &t, const std::string &s, const std::string &key, const std::string &source) {
                assign(t, parse_real(s, key, lo, hi, source));
            },
            [read](const T &t) -> std::optional<std::string> {
                auto v = read(t);
                return v ? std::optional<std::string>(real_text(*v)) : std::nullopt;
            });
    }
    // One of named values: text choices for a string member, or each name
    // paired with the value it stands for (an enum, a bool).
    template <class M>
    ParamTable &choice(std::string name, M T::*member, std::vector<std::pair<std::string, M>> options, std::string help)
    {
        std::string range;
        for (const auto &o : options)
            range += (range.empty() ? "" : " | ") + o.first;
        return text_field(
            {std::move(name), "", std::move(help), "", range},
            [member, options](T &t, const std::string &s, const std::string &key, const std::string &source) {
                for (const auto &o : options)
                    if (o.first == s) {
                        t.*member = o.second;
                        return;
                    }
                std::string list;
                for (const auto &o : options)
                    list += (list.empty() ? "" : ", ") + o.first;
                throw InputError(source, 0, key, "'" + s + "' is not one of: " + list);
            },
            [member, options](const T &t) -> std::optional<std::string> {
                for (const auto &o : options)
                    if (o.second == t.*member)
                        return o.first;
                return std::nullopt;
            });
    }
    ParamTable &choice(std::string name, std::string T::*member, const std::vector<std::string> &names,
                       std::string help)
    {
        std::vector<std::pair<std::string, std::string>> options;
        for (const auto &n : names)
            options.emplace_back(n, n);
        return choice<std::string>(std::move(name), member, std::move(options), std::move(help));
    }
    ParamTable &on_off(std::string name, bool T::*member, std::string help)
    {
        return choice<bool>(std::move(name), member, {{"on", true}, {"off", false}}, std::move(help));
    }
    // Free text (a file name); written only when not empty.
    ParamTable &text(std::string name, std::string T::*member, std::string help)
    {
        return text_field(
            {std::move(name), "", std::move(help), "", ""},
            [member](T &t, const std::string &s, const std::string &, const std::string &) { t.*member = s; },
            [member](const T &t) -> std::optional<std::string> {
                return (t.*member).empty() ? std::nullopt : std::optional<std::string>(t.*member);
            });
    }
    // A parameter with its own parsing; `info` gives name, help, unit, range.
    ParamTable &text_field(
        ParamInfo info,
        std::function<void(T &, const std::string &text, const std::string &key, const std::string &source)> parse,
        std::function<std::optional<std::string>(const T &)> get)
    {
        Field f;
        const std::string key = info.name;
        f.info = std::move(info);
        f.set = [parse, key](T &t, const std::string &s, const std::string &source) { parse(t, s, key, source); };
        f.get = std::move(get);
        if (auto d = f.get(prototype_))
            f.info.default_value = *d;
        fields_.push_back(std::move(f));
        return *this;
    }

    // Refinements of the parameter declared last.
    ParamTable &when(std::function<bool(const T &)> applies, std::string note)
    {
        fields_.back().applies = std::move(applies);
        fields_.back().applies_note = std::move(note);
        return *this;
    }
    ParamTable &written_if(std::function<bool(const T &)> written)
    {
        fields_.back().written = std::move(written);
        return *this;
    }
    ParamTable &check(Check c)
    {
        checks_.push_back(std::move(c));
        return *this;
    }

    // Every parameter of `sub`, setting the member `member`. `applies`
    // (optional) limits them all, refused elsewhere as applying to `note`
    // only; `help_suffix` is appended to each help text; a non-empty
    // `group` marks them as one block (the doc tables show it as one row).
    template <class S>
    ParamTable &include(S T::*member, const ParamTable<S> &sub, std::function<bool(const T &)> applies = {},
                        std::string note = "", std::string help_suffix = "", std::string group = "")
    {
        for (const auto &sf : sub.fields()) {
            Field f;
            f.info = sf.info;
            f.info.description += help_suffix;
            if (!group.empty())
                f.info.group = group;
            f.info.default_value = sf.get(prototype_.*member).value_or("");
            f.set = [member, set = sf.set](T &t, const std::string &s, const std::string &src) {
                set(t.*member, s, src);
            };
            f.get = [member, get = sf.get](const T &t) { return get(t.*member); };
            f.applies = [member, outer = applies, inner = sf.applies](const T &t) {
                return (!outer || outer(t)) && (!inner || inner(t.*member));
            };
            f.applies_note = sf.applies && !applies ? sf.applies_note : note;
            if (sf.written)
                f.written = [member, w = sf.written](const T &t) { return w(t.*member); };
            fields_.push_back(std::move(f));
        }
        for (const auto &c : sub.checks())
            checks_.push_back([member, c, applies](T &t, const ParamMap &given, const std::string &source) {
                if (!applies || applies(t))
                    c(t.*member, given, source);
            });
        return *this;
    }

    // Defaults, then each given value; refuses unknown names (listing the
    // known ones, `what` naming the policy or workload), values out of
    // range, parameters where they do not apply, and failed checks.
    T parse(const ParamMap &given, const std::string &what, const std::string &source) const
    {
        check_param_names(given, infos(), what, source);
        T t = prototype_;
        for (const auto &f : fields_)
            if (auto it = given.find(f.info.name); it != given.end())
                f.set(t, it->second, source);
        for (const auto &f : fields_)
            if (f.applies && given.count(f.info.name) && !f.applies(t))
                throw InputError(source, 0, f.info.name, "applies to " + f.applies_note + " only");
        for (const auto &c : checks_)
            c(t, given, source);
        return t;
    }

    // The effective values of every parameter that applies and is set.
    void write(const T &t, ParamMap &out) const
    {
        for (const auto &f : fields_) {
            if ((f.applies && !f.applies(t)) || (f.written && !f.written(t)))
                continue;
            if (auto v = f.get(t))
                out[f.info.name] = *v;
        }
    }
    ParamMap write(const T &t) const
    {
        ParamMap m;
        write(t, m);
        return m;
    }

    std::vector<ParamInfo> infos() const
    {
        std::vector<ParamInfo> out;
        for (const auto &f : fields_)
            out.push_back(f.info);
        return out;
    }
    const std::vector<Field> &fields() const { return fields_; }
    const std::vector<Check> &checks() const { return checks_; }
    const T &prototype() const { return prototype_; }

private:
    T prototype_;
    std::vector<Field> fields_;
    std::vector<Check> checks_;
};

} // namespace schedscope
