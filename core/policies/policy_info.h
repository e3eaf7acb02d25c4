#pragma once
// What the catalog (catalog/catalog.h) knows of a policy: its name, what it
// does, its parameters and how to build it.

#include "engine/policy.h"
#include "engine/wakeup_param.h"
#include "params/param_table.h"
#include "params/params.h"

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace schedscope {

struct PolicyInfo {
    std::string name;
    std::string description;
    std::vector<ParamInfo> params; // besides `wakeup`, which every policy has
    // Throws InputError naming `source` and the parameter for bad values.
    std::function<std::unique_ptr<Policy>(const ParamMap &, const std::string &source)> make;
};

// A policy whose parameters are the table's: `build` gets them parsed and
// checked (the catalog handles `wakeup`, which every policy takes).
template <class P>
PolicyInfo policy_info(std::string name, std::string description, const ParamTable<P> &table,
                       std::function<std::unique_ptr<Policy>(const P &)> build)
{
    PolicyInfo info{std::move(name), std::move(description), table.infos(), {}};
    info.make = [&table, build = std::move(build), what = "policy '" + info.name + "'"](const ParamMap &p,
                                                                                        const std::string &source) {
        ParamMap own = p;
        own.erase(wakeup_param_name());
        return build(table.parse(own, what, source));
    };
    return info;
}

// A policy's effective parameters for Policy::params(): its table's values
// and the wakeup knob.
template <class P> ParamMap policy_params(const ParamTable<P> &table, const P &p, WakeupMode wakeup)
{
    ParamMap m = table.write(p);
    add_wakeup(m, wakeup);
    return m;
}

} // namespace schedscope
