#include "panels/decision_filter.h"

#include "panels/chart_data.h"

namespace schedscope::gui {

bool endpoints_are_cpus(const Decision &d)
{
    switch (d.kind) {
    case DecisionKind::Place:
    case DecisionKind::Pull:
    case DecisionKind::SkipHot:
    case DecisionKind::Wakeup:
    case DecisionKind::Exchange: return true;
    case DecisionKind::PageMigrate:
    case DecisionKind::PreferNode:
    case DecisionKind::Other:
        // Other carries whatever the policy logged (a node for a binding, a
        // CPU for "kept on"): we cannot tell, so the CPU filter leaves it out.
        return false;
    }
    return false;
}

bool DecisionFilter::matches(const Decision &d) const
{
    if (!shows_kind(d.kind))
        return false;
    if (task && d.task != *task)
        return false;
    if (cpu && !(endpoints_are_cpus(d) && (d.from == *cpu || d.to == *cpu)))
        return false;
    return true;
}

std::string kind_words(DecisionKind k)
{
    switch (k) {
    case DecisionKind::Place: return "placed";
    case DecisionKind::Pull: return "pulled";
    case DecisionKind::SkipHot: return "left (cache hot)";
    case DecisionKind::Wakeup: return "woken";
    case DecisionKind::PageMigrate: return "memory moved";
    case DecisionKind::Exchange: return "exchanged";
    case DecisionKind::PreferNode: return "prefers node";
    case DecisionKind::Other: return "note";
    }
    return "note";
}

std::string endpoints_text(const Decision &d)
{
    const std::string unit = endpoints_are_cpus(d) ? "CPU " : "node ";
    if (d.from >= 0 && d.to >= 0)
        return unit + std::to_string(d.from) + " \u2192 " + unit + std::to_string(d.to);
    if (d.to >= 0)
        return "\u2192 " + unit + std::to_string(d.to);
    if (d.from >= 0)
        return unit + std::to_string(d.from);
    return {};
}

std::string describe(const Decision &d)
{
    std::string out = format_time_s(static_cast<double>(d.time_ns) / 1e9) + "  " + kind_words(d.kind);
    std::string who = d.task >= 0 ? "task " + std::to_string(d.task) : std::string();
    const std::string ends = endpoints_text(d);
    if (!ends.empty())
        who += (who.empty() ? "" : ", ") + ends;
    if (!who.empty())
        out += "  " + who;
    if (!d.reason.empty()) {
        out += ": ";
        out += d.reason.view();
    }
    return out;
}

} // namespace schedscope::gui
