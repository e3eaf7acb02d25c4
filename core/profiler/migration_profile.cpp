#include "profiler/migration_profile.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>

namespace schedscope {

const char *domain_level_name(DistanceClass c)
{
    switch (c) {
    case DistanceClass::Self: return nullptr;
    case DistanceClass::SameCore: return "SMT";
    case DistanceClass::SharedL2:
    case DistanceClass::SharedL3: return "MC";
    case DistanceClass::SamePackage: return "package";
    case DistanceClass::SameNode: return "node";
    case DistanceClass::RemoteNode: return "NUMA";
    }
    return nullptr;
}

const std::vector<std::string> &domain_level_names()
{
    static const std::vector<std::string> names{"SMT", "MC", "package", "node", "NUMA"};
    return names;
}

std::optional<double> MigrationProfile::cache_hot_time_ms_for_level(std::string_view level) const
{
    auto it = cache_hot_time_ms.find(std::string(level));
    if (it == cache_hot_time_ms.end() || !std::isfinite(it->second))
        return std::nullopt;
    return it->second;
}

void derive_cache_hot_times(MigrationProfile &profile, const std::function<DistanceClass(int, int)> &class_of)
{
    constexpr double kNone = std::numeric_limits<double>::infinity();
    double overall = kNone;
    std::map<std::string, double> per_level;
    const auto &m = profile.matrix_ms;
    for (size_t s = 0; s < m.size(); ++s) {
        for (size_t t = 0; t < m[s].size(); ++t) {
            if (s == t || !std::isfinite(m[s][t]))
                continue;
            overall = std::min(overall, m[s][t]);
            if (const char *level = domain_level_name(class_of(static_cast<int>(s), static_cast<int>(t)))) {
                auto [it, inserted] = per_level.try_emplace(level, m[s][t]);
                if (!inserted)
                    it->second = std::min(it->second, m[s][t]);
            }
        }
    }
    profile.cache_hot_time_ms.clear();
    if (overall == kNone) {
        profile.min_offdiag_ms = std::numeric_limits<double>::quiet_NaN();
        return;
    }
    profile.min_offdiag_ms = overall;
    profile.cache_hot_time_ms[kOverallLevel] = overall * kCacheHotSafetyFactor;
    for (const auto &[level, cost] : per_level)
        profile.cache_hot_time_ms[level] = cost * kCacheHotSafetyFactor;
}

namespace {

std::string fixed1(double v)
{
    if (!std::isfinite(v))
        return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

// Summary lines: one decimal like the matrix, but small measured values
// (an L2-sized buffer takes well under a millisecond) keep three digits.
std::string summary_ms(double v)
{
    if (!std::isfinite(v) || v >= 1.0)
        return fixed1(v);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

std::string pad_left(const std::string &s, size_t width)
{
    return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

// Kernel boot logs numbered CPUs by OS number; fall back to the logical index
// where a topology has none (some synthetic inputs).
int label_of(const MigrationProfile &p, int logical)
{
    if (logical < static_cast<int>(p.pu_os_index.size()) && p.pu_os_index[logical] >= 0)
        return p.pu_os_index[logical];
    return logical;
}

} // namespace

std::string format_boot_log(const MigrationProfile &p)
{
    // Width of one matrix cell: room for "1234.5" plus separation, like the
    // original's eight-column layout.
    constexpr size_t kCellWidth = 8;
    const int n = static_cast<int>(p.matrix_ms.size());
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return label_of(p, a) < label_of(p, b); });

    auto label = [&](int logical) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "[%02d]", label_of(p, logical));
        return std::string(buf);
    };

    std::string out;
    out += "---------------------\n";
    out += "| migration cost matrix (max_cache_size: " + std::to_string(p.cache_bytes) +
           ", buffer: " + std::to_string(p.buffer_bytes) + ", level: L" + std::to_string(p.cache_level) +
           ", mode: " + p.mode + ", pairs: " + p.pairs + "):\n";
    out += "---------------------\n";
    out += std::string(6, ' ');
    for (int t : order)
        out += pad_left(label(t), kCellWidth);
    out += "\n";
    for (int s : order) {
        out += label(s) + ":";
        for (int t : order)
            out += pad_left(fixed1(p.matrix_ms[s][t]), kCellWidth);
        out += "\n";
    }
    out += "--------------------------------\n";
    out += "| min off-diagonal cost: " + summary_ms(p.min_offdiag_ms) + " ms\n";
    out += "| cache_hot_time (x" + fixed1(kCacheHotSafetyFactor) + "):";
    auto overall = p.cache_hot_time_ms_for_level(kOverallLevel);
    out += " overall " + (overall ? summary_ms(*overall) + " ms" : std::string("-"));
    for (const auto &level : domain_level_names())
        if (auto v = p.cache_hot_time_ms_for_level(level))
            out += ", " + level + " " + summary_ms(*v) + " ms";
    out += "\n";
    for (const auto &c : p.classes) {
        out += "| class " + std::string(distance_class_name(c.cls));
        if (c.cls == DistanceClass::RemoteNode)
            out += " (distance " + std::to_string(c.numa_distance) + ")";
        out += ": " + std::to_string(c.pair_count) + " pairs, " + summary_ms(c.min_ms);
        if (std::isfinite(c.max_ms) && summary_ms(c.max_ms) != summary_ms(c.min_ms))
            out += " - " + summary_ms(c.max_ms);
        out += " ms\n";
    }
    if (!p.skipped_pus.empty()) {
        out += "| skipped PUs (not allowed for this process):";
        for (int pu : p.skipped_pus)
            out += " " + std::to_string(label_of(p, pu));
        out += "\n";
    }
    for (const auto &note : p.notes)
        out += "| note: " + note + "\n";
    if (!p.complete)
        out += "| interrupted: entries shown as '-' were not measured\n";
    out += "--------------------------------\n";
    return out;
}

} // namespace schedscope
