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

} // namespace

const ParamTable<WakeupParam> &wakeup_table(WakeupMode default_mode)
{
    static const ParamTable<WakeupParam> locked = make_table(WakeupMode::Locked);
    static const ParamTable<WakeupParam> queued = make_table(WakeupMode::Queued);
    return default_mode == WakeupMode::Queued ? queued : locked;
}

const std::string &wakeup_param_name()
{
    static const std::string name = wakeup_table(WakeupMode::Locked).fields().front().info.name;
    return name;
}

ParamInfo wakeup_param_info(WakeupMode default_mode) { return wakeup_table(default_mode).infos().front(); }

std::string wakeup_text(WakeupMode mode)
{
    return wakeup_table(mode).fields().front().get(WakeupParam{mode}).value_or("");
}

std::string wakeup_choices_text()
{
    std::string out;
    for (char c : wakeup_param_info(WakeupMode::Locked).range)
        if (c != ' ')
            out += c;
    return out;
}

void add_wakeup(ParamMap &out, WakeupMode mode) { wakeup_table(mode).write(WakeupParam{mode}, out); }

} // namespace schedscope
