#include "engine/wakeup_param.h"

namespace schedscope {

namespace {

ParamTable<WakeupParam> make_table(WakeupMode default_mode)
{
    ParamTable<WakeupParam> t(WakeupParam{default_mode});
    t.choice<WakeupMode>("wakeup", &WakeupParam::mode, {{"locked", WakeupMode::Locked}, {"queued", WakeupMode::Queued}},
                         "locked: the waker takes the target's runqueue lock; queued: wake list + IPI (2011). "
                         "Default: the wakeup path of the kernel the policy models (a NUMA policy's, its base's)");
    return t;
}

// The row's name, choices and help, which do not depend on its default.
const ParamInfo &row_without_default()
{
    static const ParamInfo row = [] {
        ParamInfo info = make_table(WakeupMode{}).infos().front();
        info.default_value.clear();
        return info;
    }();
    return row;
}

} // namespace

const ParamTable<WakeupParam> &wakeup_table(WakeupMode default_mode)
{
    static const ParamTable<WakeupParam> locked = make_table(WakeupMode::Locked);
    static const ParamTable<WakeupParam> queued = make_table(WakeupMode::Queued);
    return default_mode == WakeupMode::Queued ? queued : locked;
}

const std::string &wakeup_param_name() { return row_without_default().name; }

ParamInfo wakeup_param_info(WakeupMode default_mode) { return wakeup_table(default_mode).infos().front(); }

ParamInfo wakeup_param_row() { return row_without_default(); }

std::string wakeup_text(WakeupMode mode)
{
    return wakeup_table(mode).fields().front().get(WakeupParam{mode}).value_or("");
}

std::string wakeup_choices_text()
{
    std::string out;
    for (char c : row_without_default().range)
        if (c != ' ')
            out += c;
    return out;
}

void add_wakeup(ParamMap &out, WakeupMode mode) { wakeup_table(mode).write(WakeupParam{mode}, out); }

} // namespace schedscope
