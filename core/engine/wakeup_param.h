#pragma once
// `wakeup`, the knob every policy takes besides its own parameters, declared
// here once: its name, choices and help. Its default is the policy's own,
// the wakeup path of the kernel it models (engine/policy.h:
// default_wakeup_for(Policy::modelled_kernel()), the one place it is
// stated), so the row is built for a default: the catalog asks the policy
// which (catalog.h: wakeup_info()). Parsing, Policy::params(), pane labels,
// sweeps, `list`, the docs' tables and the policy dialog all read this row.

#include "engine/policy.h"
#include "params/param_table.h"
#include "params/params.h"

#include <string>

namespace schedscope {

struct WakeupParam {
    WakeupMode mode{};
};

// The parameter's name, as users write it ("wakeup").
const std::string &wakeup_param_name();
// The row, with `default_mode` as its default.
const ParamTable<WakeupParam> &wakeup_table(WakeupMode default_mode);
// The row as listings show it, with that default.
ParamInfo wakeup_param_info(WakeupMode default_mode);
// The row with no default: its name, choices and help, for checks of
// parameter names and for a policy whose default is unknown.
ParamInfo wakeup_param_row();
// A mode's text ("locked", "queued"), from the row's choices.
std::string wakeup_text(WakeupMode mode);
// The choices as `list` shows them: "locked|queued".
std::string wakeup_choices_text();
// Adds the effective mode to a policy's parameters (Policy::params()).
void add_wakeup(ParamMap &out, WakeupMode mode);

} // namespace schedscope
