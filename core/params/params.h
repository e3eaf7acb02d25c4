#pragma once
// Parameters as users give them (`--policy name:k=v,...`, a scenario file) and
// the helpers policy and workload factories read them with. Below the engine,
// the policies, the workloads and the catalog, which all speak ParamMap.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace schedscope {

using ParamMap = std::map<std::string, std::string>;

// One parameter as listings and docs show it; ParamTable (params/param_table.h)
// derives these from its declarations.
struct ParamInfo {
    std::string name;
    std::string default_value;
    std::string description;
    std::string unit = {};  // e.g. "ms", "KiB"; empty when the name or help says it
    std::string range = {}; // "1 to 255", "on | off"; empty: any text
    std::string group = {}; // a block of parameters taken from another table ("base=cfs")
};

// "name:k=v,k=v" -> name and parameters; throws InputError naming `source`.
std::pair<std::string, ParamMap> parse_name_params(const std::string &text, const std::string &source);

// Parameter helpers for policy and workload factories: read a value with a
// default, checking its range; throw InputError naming source and key.
double param_double(const ParamMap &p, const std::string &key, double def, double lo, double hi,
                    const std::string &source);
std::int64_t param_int(const ParamMap &p, const std::string &key, std::int64_t def, std::int64_t lo, std::int64_t hi,
                       const std::string &source);
std::string param_choice(const ParamMap &p, const std::string &key, const std::string &def,
                         const std::vector<std::string> &choices, const std::string &source);
// Rejects keys not in `known`, listing them.
void check_param_names(const ParamMap &p, const std::vector<ParamInfo> &known, const std::string &what,
                       const std::string &source);
// A Markdown table of parameters (docs/policies.md, docs/workloads.md):
// name, default, range, unit, meaning; consecutive parameters of one
// `group` share a row that names them and says where they are described.
std::string params_markdown_table(const std::vector<ParamInfo> &params);

} // namespace schedscope
