// schedscope-cli list: what a user can pick from. Each kind of item is one
// section; later issues add "Policies:" and "Workloads:" to kListSections.

#include "command.h"

#include "catalog/catalog.h"
#include "engine/model_params.h"
#include "engine/model_params_table.h"
#include "engine/wakeup_param.h"
#include "topology/import.h"
#include "topology/topology_report.h"

#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

namespace schedscope::cli {
namespace {

std::string format_number(double v)
{
    std::ostringstream os;
    os << v;
    return os.str();
}

void print_topologies(std::ostream &out)
{
    auto samples = list_sample_topologies();
    if (samples.empty()) {
        out << "  (no samples found in " << samples_dir() << "/topologies)\n";
        return;
    }
    size_t width = 0;
    for (const auto &s : samples)
        width = std::max(width, s.name.size());
    for (const auto &s : samples)
        out << "  " << std::left << std::setw(static_cast<int>(width)) << s.name << "  " << s.summary << "\n";
    out << "  (use as --topology sample:NAME; also detect, synthetic:STRING or a file)\n";
}

// A catalog entry: name, description, then one line per parameter with its
// default. Shared by policies and workloads, which list the same way.
template <class Info> void print_catalog(std::ostream &out, const std::vector<Info> &items, const char *use_as)
{
    for (const auto &i : items) {
        out << "  " << i.name << "\n      " << i.description << "\n";
        for (const auto &p : i.params)
            out << "      " << std::left << std::setw(30) << (p.name + "=" + p.default_value) << " " << p.description
                << "\n";
    }
    out << "  " << use_as << "\n";
}

void print_policies(std::ostream &out)
{
    const std::string use_as = "(every policy also takes " + wakeup_param_name() + "=" + wakeup_choices_text() +
                               "; use as --policy NAME:key=value,...)";
    print_catalog(out, policy_catalog(), use_as.c_str());
}

void print_workloads(std::ostream &out)
{
    print_catalog(out, workload_catalog(), "(use as --workload NAME:key=value,...)");
}

void print_model(std::ostream &out)
{
    const ModelParams defaults;
    for (const auto &f : ModelParams::fields())
        out << "  " << std::left << std::setw(30) << (std::string(f.name) + "=" + format_number(defaults.get(f.name)))
            << " " << f.unit_note << "\n";
    out << "  (override in a scenario's \"model\" object)\n";
}

struct ListSection {
    const char *heading;
    void (*print)(std::ostream &);
};

// The sections printed by `list`, in order. Add new kinds of items here.
const ListSection kListSections[] = {
    {"Topologies:", print_topologies},
    {"Policies:", print_policies},
    {"Workloads:", print_workloads},
    {"Model constants:", print_model},
};

// `list --markdown`: each policy's and workload's parameter table and the
// model constants', between the markers scripts/doc-tables.py replaces in
// docs/policies.md, docs/workloads.md and docs/machines.md.
// A policy's table ends with `wakeup`, which every policy takes, with the
// policy's own default.
void print_markdown_table(std::ostream &out, const char *kind, const std::string &name, std::vector<ParamInfo> params)
{
    out << "<!-- params: " << kind << " " << name << " -->\n" << params_markdown_table(params) << "<!-- /params -->\n";
}

int run_list(bool markdown)
{
    if (markdown) {
        for (const PolicyInfo &p : policy_catalog()) {
            std::vector<ParamInfo> params = p.params;
            params.push_back(wakeup_info(p.name, {}));
            print_markdown_table(std::cout, "policy", p.name, params);
        }
        for (const WorkloadInfo &w : workload_catalog())
            print_markdown_table(std::cout, "workload", w.name, w.params);
        print_markdown_table(std::cout, "model", "constants", model_params_table().infos());
        return kExitOk;
    }
    bool first = true;
    for (const auto &section : kListSections) {
        if (!first)
            std::cout << "\n";
        first = false;
        std::cout << section.heading << "\n";
        section.print(std::cout);
    }
    return kExitOk;
}

const CommandRegistrar registrar{Command{
    "list", [](CLI::App &app) -> std::function<int()> {
        auto *sub = app.add_subcommand("list", "List sample topologies, policies, workloads and model constants");
        auto markdown = std::make_shared<bool>(false);
        sub->add_flag(
            "--markdown", *markdown,
            "Print the parameter tables of the policies and workloads and the model constants in Markdown, as "
            "docs/policies.md, docs/workloads.md and docs/machines.md hold them (scripts/doc-tables.py)");
        return [markdown] { return run_list(*markdown); };
    }}};

} // namespace
} // namespace schedscope::cli
