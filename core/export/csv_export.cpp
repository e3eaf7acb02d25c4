#include "export/csv_export.h"

#include "export/output_file.h"
#include "util/input_error.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

namespace schedscope {

namespace {

bool has_unit(const std::string &key)
{
    if (key == "per_second")
        return true;
    static const char *const kUnits[] = {"_s", "_ns", "_us", "_ms", "_pct", "_mb", "_bytes", "_per_s"};
    for (const char *u : kUnits) {
        const std::string suffix(u);
        if (key.size() > suffix.size() && key.compare(key.size() - suffix.size(), suffix.size(), suffix) == 0)
            return true;
    }
    return false;
}

// Units of the JSON keys that carry none, from what summarize() and
// run_to_json() put in them.
std::string unit_for(const std::string &key)
{
    static const std::map<std::string, std::string> kUnitOf = {
        {"progress", "_ratio"},         // fraction of fixed work done, 0..1
        {"ops", "_count"},              // cumulative CountOps
        {"page_migrations", "_chunks"}, // memory moved, in model chunks (chunk_bytes)
        {"hinting_faults", "_count"},
        {"migrations", "_count"},
        {"throughput", "_ops_per_s"},
        {"events", "_count"},
        {"hot", "_count"}, // migrations_detail.totals: moves of cache-hot tasks
        {"ping_pongs", "_count"},
        {"still_paying", "_count"},
        {"seed", ""},
        {"finished", ""},
    };
    auto it = kUnitOf.find(key);
    return it != kUnitOf.end() ? it->second : std::string();
}

std::string cell(const std::string &text)
{
    if (text.find_first_of(",\"\n\r") == std::string::npos)
        return text;
    std::string q = "\"";
    for (char c : text)
        q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

std::string cell(const nlohmann::json &v)
{
    if (v.is_null())
        return "";
    if (v.is_boolean())
        return v.get<bool>() ? "1" : "0";
    if (v.is_string())
        return cell(v.get<std::string>());
    if (v.is_number_float()) {
        // The shortest text that reads back as the same double (0.1, not
        // 0.10000000000000001), as the JSON writer does.
        char buf[40];
        const auto r = std::to_chars(buf, buf + sizeof buf, v.get<double>());
        return std::string(buf, r.ptr);
    }
    return v.dump();
}

void collect(const nlohmann::json &node, std::vector<std::string> &path, std::vector<SeriesColumn> &out)
{
    if (node.is_object()) {
        for (auto it = node.begin(); it != node.end(); ++it) {
            path.push_back(it.key());
            collect(it.value(), path, out);
            path.pop_back();
        }
        return;
    }
    if (!node.is_array())
        return;
    // An array of objects: one column per key that occurs in any element,
    // in numeric order when the keys are numbers (node ids).
    bool objects = false;
    std::set<std::pair<long long, std::string>> keys;
    for (auto &e : node) {
        if (!e.is_object())
            continue;
        objects = true;
        for (auto it = e.begin(); it != e.end(); ++it) {
            char *end = nullptr;
            const long long n = std::strtoll(it.key().c_str(), &end, 10);
            keys.insert({end && *end == 0 ? n : -1, it.key()});
        }
    }
    if (!objects) {
        out.push_back(SeriesColumn{csv_header(path), path, {}});
        return;
    }
    for (auto &[n, key] : keys) {
        auto full = path;
        full.push_back("node" + key);
        out.push_back(SeriesColumn{csv_header(full), path, key});
    }
}

const nlohmann::json *find(const nlohmann::json &root, const std::vector<std::string> &path)
{
    const nlohmann::json *j = &root;
    for (auto &k : path) {
        if (!j->is_object() || !j->contains(k))
            return nullptr;
        j = &(*j)[k];
    }
    return j;
}

// A summary row holds one figure per cell: arrays (histograms, matrices)
// stay in the JSON, and of the migration analysis only its totals come along.
void flatten_row(const nlohmann::json &node, std::vector<std::string> &path,
                 std::vector<std::pair<std::string, std::string>> &out)
{
    if (node.is_object()) {
        for (auto it = node.begin(); it != node.end(); ++it) {
            if (path.size() == 1 && path.front() == "migrations_detail" && it.key() != "totals")
                continue;
            path.push_back(it.key());
            flatten_row(it.value(), path, out);
            path.pop_back();
        }
        return;
    }
    if (node.is_array())
        return;
    out.emplace_back(csv_header(path), cell(node));
}

} // namespace

std::string csv_header(const std::vector<std::string> &path)
{
    std::string h;
    bool unit = false;
    for (auto &k : path) {
        h += (h.empty() ? "" : ".") + k;
        unit = unit || has_unit(k);
    }
    if (!unit && !path.empty()) {
        const std::string u = unit_for(path.back());
        h += u.empty() ? unit_for(path.front()) : u;
    }
    return h;
}

std::vector<SeriesColumn> series_columns(const nlohmann::json &series)
{
    std::vector<SeriesColumn> cols;
    std::vector<std::string> path;
    collect(series, path, cols);
    // time_s leads, whatever order the JSON object keeps its keys in.
    std::stable_partition(cols.begin(), cols.end(), [](const SeriesColumn &c) { return c.header == "time_s"; });
    return cols;
}

void write_series_csv(const RunResult &run, const std::string &path)
{
    const auto cols = series_columns(run.series);
    std::vector<const nlohmann::json *> arrays;
    size_t rows = 0;
    for (auto &c : cols) {
        arrays.push_back(find(run.series, c.path));
        if (arrays.back())
            rows = std::max(rows, arrays.back()->size());
    }
    OutputFile out(path);
    std::string line;
    for (size_t i = 0; i < cols.size(); ++i)
        line += (i ? "," : "") + cell(cols[i].header);
    out.write(line + "\n");
    for (size_t r = 0; r < rows; ++r) {
        line.clear();
        for (size_t i = 0; i < cols.size(); ++i) {
            if (i)
                line += ',';
            const nlohmann::json *a = arrays[i];
            if (!a || r >= a->size())
                continue;
            const nlohmann::json &v = (*a)[r];
            if (cols[i].element_key.empty())
                line += cell(v);
            else
                line += v.contains(cols[i].element_key) ? cell(v[cols[i].element_key]) : std::string("0");
        }
        out.write(line + "\n");
    }
    out.commit();
}

void write_summary_csv(const std::vector<std::vector<RunResult>> &by_policy, const std::string &path)
{
    std::vector<std::string> header;
    std::vector<std::string> lines;
    for (auto &runs : by_policy) {
        for (auto &r : runs) {
            std::vector<std::pair<std::string, std::string>> row;
            std::string params;
            for (auto &[k, v] : r.params)
                params += (params.empty() ? "" : ";") + k + "=" + v;
            row.emplace_back("policy", cell(r.policy));
            row.emplace_back("params", cell(params));
            std::vector<std::string> p;
            flatten_row(run_to_json(r, false), p, row);
            if (header.empty())
                for (auto &[h, v] : row)
                    header.push_back(h);
            std::string line;
            for (size_t i = 0; i < row.size(); ++i)
                line += (i ? "," : "") + row[i].second;
            lines.push_back(line);
        }
    }
    OutputFile out(path);
    std::string line;
    for (size_t i = 0; i < header.size(); ++i)
        line += (i ? "," : "") + cell(header[i]);
    out.write(line + "\n");
    for (auto &l : lines)
        out.write(l + "\n");
    out.commit();
}

std::vector<std::string> write_results_csv(const std::vector<std::vector<RunResult>> &by_policy, const std::string &dir)
{
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec)
        throw InputError(dir, "cannot create directory: " + ec.message());
    std::vector<std::string> files;
    const std::filesystem::path d(dir);
    for (size_t p = 0; p < by_policy.size(); ++p) {
        for (auto &r : by_policy[p]) {
            std::string name = std::to_string(p + 1) + "-";
            for (char c : r.policy)
                name += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_';
            name += "-seed" + std::to_string(r.seed) + ".csv";
            files.push_back((d / name).string());
            write_series_csv(r, files.back());
        }
    }
    files.push_back((d / "summary.csv").string());
    write_summary_csv(by_policy, files.back());
    return files;
}

} // namespace schedscope
