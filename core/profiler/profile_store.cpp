#include "profiler/profile_store.h"

#include "util/input_error.h"
#include "util/json_input.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

namespace schedscope {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

nlohmann::json number_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

double number_or_nan(const nlohmann::json &v, const std::string &source, const std::string &field)
{
    if (v.is_null())
        return kNaN;
    if (!v.is_number())
        throw InputError(source, 0, field, "expected a number or null");
    return v.get<double>();
}

DistanceClass class_from_name(const std::string &name, const std::string &source, const std::string &field)
{
    for (auto c : {DistanceClass::Self, DistanceClass::SameCore, DistanceClass::SharedL2, DistanceClass::SharedL3,
                   DistanceClass::SamePackage, DistanceClass::SameNode, DistanceClass::RemoteNode})
        if (name == distance_class_name(c))
            return c;
    throw InputError(source, 0, field, "unknown distance class '" + name + "'");
}

const nlohmann::json &require(const nlohmann::json &doc, const char *key, const std::string &source)
{
    if (!doc.contains(key))
        throw InputError(source, 0, key, "missing");
    return doc.at(key);
}

std::string errno_text() { return std::strerror(errno); }

} // namespace

nlohmann::json profile_to_json(const MigrationProfile &p)
{
    nlohmann::json doc;
    doc["format"] = "schedscope-migration-profile";
    doc["version"] = kProfileFormatVersion;
    doc["topology"] = {{"name", p.topology_name}, {"source", p.topology_source}};
    doc["mode"] = p.mode;
    doc["pairs"] = p.pairs;
    doc["cache_level"] = p.cache_level;
    doc["cache_bytes"] = p.cache_bytes;
    doc["buffer_bytes"] = p.buffer_bytes;
    doc["factor"] = p.factor;
    doc["reps"] = p.reps;
    doc["complete"] = p.complete;
    doc["pu_os_index"] = p.pu_os_index;
    doc["skipped_pus"] = p.skipped_pus;
    doc["notes"] = p.notes;

    auto matrix = nlohmann::json::array();
    for (const auto &row : p.matrix_ms) {
        auto r = nlohmann::json::array();
        for (double v : row)
            r.push_back(number_or_null(v));
        matrix.push_back(std::move(r));
    }
    doc["matrix"] = std::move(matrix);

    auto classes = nlohmann::json::array();
    for (const auto &c : p.classes) {
        const char *level = domain_level_name(c.cls);
        classes.push_back({{"class", distance_class_name(c.cls)},
                           {"level", level ? nlohmann::json(level) : nlohmann::json(nullptr)},
                           {"numa_distance", c.numa_distance},
                           {"pair_count", c.pair_count},
                           {"representative", {c.rep_source, c.rep_target}},
                           {"min_ms", number_or_null(c.min_ms)},
                           {"max_ms", number_or_null(c.max_ms)}});
    }
    doc["classes"] = std::move(classes);
    doc["min_offdiag_ms"] = number_or_null(p.min_offdiag_ms);
    auto hot = nlohmann::json::object();
    for (const auto &[level, v] : p.cache_hot_time_ms)
        hot[level] = number_or_null(v);
    doc["cache_hot_time_ms"] = std::move(hot);
    return doc;
}

namespace {

MigrationProfile parse_profile(const nlohmann::json &doc, const std::string &source)
{
    if (!doc.is_object() || doc.value("format", "") != "schedscope-migration-profile")
        throw InputError(source, 0, "format", "not a schedscope migration profile");
    const int version = doc.value("version", 0);
    if (version < 1 || version > kProfileFormatVersion)
        throw InputError(source, 0, "version",
                         "profile format version " + std::to_string(version) + " is not supported (this build reads " +
                             std::to_string(kProfileFormatVersion) + ")");
    MigrationProfile p;
    if (doc.contains("topology")) {
        p.topology_name = doc["topology"].value("name", "");
        p.topology_source = doc["topology"].value("source", "");
    }
    p.mode = doc.value("mode", "");
    p.pairs = doc.value("pairs", "");
    p.cache_level = doc.value("cache_level", 0);
    p.cache_bytes = doc.value("cache_bytes", std::uint64_t{0});
    p.buffer_bytes = doc.value("buffer_bytes", std::uint64_t{0});
    p.factor = doc.value("factor", 0.0);
    p.reps = doc.value("reps", 0);
    p.complete = doc.value("complete", true);
    p.pu_os_index = doc.value("pu_os_index", std::vector<int>{});
    p.skipped_pus = doc.value("skipped_pus", std::vector<int>{});
    p.notes = doc.value("notes", std::vector<std::string>{});

    const auto &matrix = require(doc, "matrix", source);
    if (!matrix.is_array())
        throw InputError(source, 0, "matrix", "expected an array of rows");
    for (size_t s = 0; s < matrix.size(); ++s) {
        const std::string field = "matrix[" + std::to_string(s) + "]";
        if (!matrix[s].is_array() || matrix[s].size() != matrix.size())
            throw InputError(source, 0, field, "expected " + std::to_string(matrix.size()) + " entries");
        std::vector<double> row;
        for (size_t t = 0; t < matrix[s].size(); ++t)
            row.push_back(number_or_nan(matrix[s][t], source, field + "[" + std::to_string(t) + "]"));
        p.matrix_ms.push_back(std::move(row));
    }

    const auto &classes = require(doc, "classes", source);
    if (!classes.is_array())
        throw InputError(source, 0, "classes", "expected an array");
    for (size_t i = 0; i < classes.size(); ++i) {
        const std::string field = "classes[" + std::to_string(i) + "]";
        const auto &c = classes[i];
        if (!c.is_object() || !c.contains("class") || !c["class"].is_string())
            throw InputError(source, 0, field, "expected an object with a 'class' name");
        ClassCost cc;
        cc.cls = class_from_name(c["class"].get<std::string>(), source, field + ".class");
        cc.numa_distance = c.value("numa_distance", 10);
        cc.pair_count = c.value("pair_count", 0);
        if (c.contains("representative") && c["representative"].is_array() && c["representative"].size() == 2) {
            cc.rep_source = c["representative"][0].get<int>();
            cc.rep_target = c["representative"][1].get<int>();
        }
        cc.min_ms = c.contains("min_ms") ? number_or_nan(c["min_ms"], source, field + ".min_ms") : kNaN;
        cc.max_ms = c.contains("max_ms") ? number_or_nan(c["max_ms"], source, field + ".max_ms") : kNaN;
        p.classes.push_back(cc);
    }

    p.min_offdiag_ms = number_or_nan(require(doc, "min_offdiag_ms", source), source, "min_offdiag_ms");
    const auto &hot = require(doc, "cache_hot_time_ms", source);
    if (!hot.is_object())
        throw InputError(source, 0, "cache_hot_time_ms", "expected an object level -> ms");
    for (const auto &[level, v] : hot.items()) {
        double ms = number_or_nan(v, source, "cache_hot_time_ms." + level);
        if (std::isfinite(ms) && ms < 0)
            throw InputError(source, 0, "cache_hot_time_ms." + level, "negative time");
        p.cache_hot_time_ms[level] = ms;
    }
    return p;
}

} // namespace

MigrationProfile profile_from_json(const nlohmann::json &doc, const std::string &source)
{
    // Field checks above name what they expect; anything they let through
    // with a wrong type still becomes an input error, not a crash.
    try {
        return parse_profile(doc, source);
    } catch (const nlohmann::json::exception &e) {
        throw InputError(source, "malformed migration profile: " + std::string(e.what()));
    }
}

void save_profile(const MigrationProfile &profile, const std::string &path)
{
    // Indented: profiles are small and people read and diff them.
    constexpr int kJsonIndent = 2;
    write_file_atomically(path, profile_to_json(profile).dump(kJsonIndent) + "\n");
}

MigrationProfile load_profile(const std::string &path)
{
    std::ifstream in(path);
    if (!in)
        throw InputError(path, "cannot open migration profile: " + errno_text());
    std::stringstream text;
    text << in.rdbuf();
    return profile_from_json(parse_json_input(text.str(), path), path);
}

} // namespace schedscope
