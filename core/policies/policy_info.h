#pragma once
// What the catalog (catalog/catalog.h) knows of a policy: its name, what it
// does, its parameters and how to build it.

#include "engine/policy.h"
#include "params/params.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace schedscope {

struct PolicyInfo {
    std::string name;
    std::string description;
    std::vector<ParamInfo> params; // besides `wakeup`, which every policy has
    // Throws InputError naming `source` and the parameter for bad values.
    std::function<std::unique_ptr<Policy>(const ParamMap &, const std::string &source)> make;
};

} // namespace schedscope
