#pragma once
// Which decisions the explain view shows, and how each reads in plain
// words. Plain data, tested without a display.
//
// A decision's from/to are PUs for task moves and nodes for page
// migrations and node preferences (recording.h); the CPU filter therefore
// only looks at the endpoints of kinds that name PUs.

#include "engine/recording.h"

#include <cstdint>
#include <optional>
#include <string>

namespace schedscope::gui {

// True when the decision's from/to are PU indices.
bool endpoints_are_cpus(const Decision &d);

struct DecisionFilter {
    std::optional<TaskId> task;
    std::optional<int> cpu;            // matches from or to, for kinds that name PUs
    std::uint32_t kinds = 0xffffffffu; // bit per DecisionKind

    static std::uint32_t bit(DecisionKind k) { return 1u << static_cast<int>(k); }
    void set_kind(DecisionKind k, bool on) { kinds = on ? (kinds | bit(k)) : (kinds & ~bit(k)); }
    bool shows_kind(DecisionKind k) const { return (kinds & bit(k)) != 0; }
    bool matches(const Decision &d) const;
};

// "pull", "skip-hot"... as a reader says them: "pulled", "kept (cache hot)".
std::string kind_words(DecisionKind k);
// "CPU 3 -> CPU 0", "node 1 -> node 0", "" when neither end is known.
std::string endpoints_text(const Decision &d);
// The whole entry: "12.5 ms  pulled  task 17, CPU 3 -> CPU 0: <reason>".
std::string describe(const Decision &d);

} // namespace schedscope::gui
